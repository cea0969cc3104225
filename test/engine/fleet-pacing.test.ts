/**
 * The one warning a provider host gives when the engine's parallelism, not the quota, paces a
 * fleet of pods: through the real CLI and Pulumi's dynamic-provider host, in the engine's
 * diagnostics, with `PULUMI_PARALLEL` below the number of pods and at it.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "program");
const WARNING = /the engine, not the API quota, is pacing these pods/g;

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 29 });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  stack?.dispose();
  emu.control.reset();
});

/** `up` of five pods with the engine running `parallel` operations at once. */
async function upFive(parallel: number) {
  stack = await stackOnEmulator(emu, PROGRAM);
  const pods = Object.fromEntries(["a", "b", "c", "d", "e"].map((n) => [n, { readiness: { settle: 0 } }]));
  await stack.setConfig({ "engine-features:pods": JSON.stringify(pods) });
  return stack.expect(["up", "--yes", "--skip-preview"], { PULUMI_PARALLEL: String(parallel) });
}

describe("the engine pacing a fleet, through the real CLI", { timeout: 180_000 }, () => {
  it("five pods two at a time: one warning in the diagnostics, naming the parallelism and how to raise it", async () => {
    const up = await upFive(2);
    const diagnostics = up.stdout.slice(up.stdout.indexOf("Diagnostics:"));
    expect(diagnostics.match(WARNING)).toHaveLength(1);
    expect(diagnostics).toMatch(/warning: the engine, not the API quota/);
    expect(diagnostics).toContain("it runs at most 2 operations at once");
    expect(diagnostics).toContain("pulumi up --parallel <number of pods>");
    expect(up.stdout).toMatch(/1 warning/);
  });

  it("five pods at once: no warning", async () => {
    const up = await upFive(5);
    expect(up.stdout).not.toMatch(WARNING);
    expect(up.stdout).not.toMatch(/\d+ warnings?/);
  });
});
