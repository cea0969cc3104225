/**
 * What YAML parsed, as the schema declares it: a YAML program on the provider plugin whose env
 * values are a config value that looks like a number (`"8080"`), a bare number and a bare boolean.
 * Pulumi's YAML host sends the number and the boolean as they parsed; the provider takes each as
 * the string the schema declares, so the pod's env in the API and the inputs in state hold strings.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "yaml-scalars");

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 93 });
  const asset = await pluginAsset();
  stack = await pluginStackOnEmulator(emu, asset, PROGRAM);
  await stack.setConfig({ port: "8080" });
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

describe("YAML scalars where the schema says string", { timeout: 180_000 }, () => {
  it("are sent to the API as their strings, and recorded so in state", async () => {
    await stack.expect(["up", "--yes", "--skip-preview"]);
    const { podId } = await stack.outputs();
    const pod = emu.control.snapshot().pods.find((p) => p.id === podId);
    // Env is secret in state: read with its secrets shown, to see the values' types.
    const exported = await stack.expect(["stack", "export", "--show-secrets"]);
    const state = (
      JSON.parse(exported.stdout) as {
        deployment: { resources: { type: string; inputs?: { env?: unknown } }[] };
      }
    ).deployment.resources.find((r) => r.type === "runpod-dynamic:index:Pod");
    const { PORT, WORKERS, DEBUG } = pod?.env ?? {};
    // A secret shown is its plaintext JSON: the types of the values as state holds them.
    const env = JSON.parse((state?.inputs?.env as { plaintext?: string } | undefined)?.plaintext ?? "null");
    expect({ api: { PORT, WORKERS, DEBUG }, state: env, status: pod?.status }).toEqual({
      api: { PORT: "8080", WORKERS: "4", DEBUG: "true" },
      state: { PORT: "8080", WORKERS: "4", DEBUG: "true" },
      status: "RUNNING",
    });
  });

  it("a second up changes nothing: the strings in state are what the program says", async () => {
    const preview = await stack.expect(["preview", "--json"]);
    const steps = (JSON.parse(preview.stdout) as { steps: { op: string }[] }).steps;
    expect(steps.map((s) => s.op).filter((op) => op !== "same")).toEqual([]);
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
    expect(livePodIds(emu)).toEqual([]);
  });
});
