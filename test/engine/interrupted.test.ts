/**
 * `pulumi up` interrupted while a pod is being created, then the CLI's own advice followed: the
 * stack ends with exactly the pods its state knows, none twice and none billed behind its back.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { livePodIds, podIdsIn, stackOnEmulator, TIME_SCALE, until } from "../support/stack.js";

const PROGRAM = join(__dirname, "program");

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 91 });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  stack?.dispose();
  emu.control.reset();
});

const livePods = () => livePodIds(emu);

/** A stack whose one pod takes 5 minutes of emulator time (6 s of wall time) to start. */
async function slowPodStack() {
  stack = await stackOnEmulator(emu, PROGRAM);
  await stack.setConfig({ "engine-features:pods": JSON.stringify({ a: {} }) });
  emu.control.setSettings({ provisioningMs: 300_000 });
  const up = stack.start(["up", "--yes", "--skip-preview"]);
  // The create was accepted: the pod exists and bills.
  await until(() => livePods().length === 1);
  await until(() => up.cliPid() !== undefined);
  return up;
}

describe("interrupted pulumi up", { timeout: 180_000 }, () => {
  it("SIGINT: the engine lets the create finish and records the pod; the next up changes nothing", async () => {
    const up = await slowPodStack();
    process.kill(up.cliPid() ?? 0, "SIGINT");
    const r = await up.done;
    const { deployment } = await stack.exportState();
    expect([r.code, r.stdout.includes("update canceled"), deployment.pending_operations ?? []]).toEqual([
      1,
      true,
      [],
    ]);
    expect(podIdsIn(deployment)).toEqual(livePods());
    const again = await stack.run(["up", "--yes", "--expect-no-changes"]);
    expect([again.code, livePods().length]).toEqual([0, 1]);
  });

  it("SIGKILL: a locked stack and a pending create; cancel, refresh --clear-pending-creates, up: one pod, known to state", async () => {
    const up = await slowPodStack();
    process.kill(up.cliPid() ?? 0, "SIGKILL");
    const killed = await up.done;
    const orphan = livePods();

    // What the CLI says next, and its advice followed as written.
    const locked = await stack.run(["up", "--yes", "--skip-preview"]);
    expect([killed.code, locked.code, locked.stderr]).toEqual([
      137,
      1,
      expect.stringMatching(/pulumi cancel/),
    ]);
    await stack.expect(["cancel", "--yes"]);
    const pending = (await stack.exportState()).deployment.pending_operations ?? [];
    expect(pending.map((p) => [p.type, p.resource.urn.split("::").pop()])).toEqual([["creating", "a"]]);

    await stack.expect(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    const resumed = await stack.expect(["up", "--yes", "--skip-preview"]);
    const { deployment } = await stack.exportState();
    expect([
      resumed.stdout.includes(`taking over pod ${orphan[0]}`),
      deployment.pending_operations ?? [],
      podIdsIn(deployment),
      livePods(),
    ]).toEqual([true, [], orphan, orphan]);
  });
});
