/**
 * `pulumi up` of a YAML program on the provider plugin killed while its pod is being created, then
 * the CLI's own advice followed: the stack ends with exactly the pod its state knows, none twice and
 * none billed behind its back. The plugin's create key comes from its provider's id, which the
 * engine kept in state before the pod's create (provider/plugin/marks.ts).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { livePodIds, TIME_SCALE, until } from "../support/stack.js";

const PROGRAM = join(__dirname, "yaml-one-pod");

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 92 });
  const asset = await pluginAsset();
  stack = await pluginStackOnEmulator(emu, asset, PROGRAM);
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

const podIds = async () =>
  ((await stack.exportState()).deployment.resources ?? [])
    .filter((r) => r.type === "runpod-dynamic:index:Pod")
    .map((r) => r.id);

describe("pulumi up of a plugin program killed mid-create", { timeout: 180_000 }, () => {
  it("SIGKILL, then cancel, refresh --clear-pending-creates and up: one pod, known to state", async () => {
    // The pod takes 5 minutes of emulator time (6 s of wall time) to start.
    emu.control.setSettings({ provisioningMs: 300_000 });
    const up = stack.start(["up", "--yes", "--skip-preview"]);
    await until(() => livePodIds(emu).length === 1);
    await until(() => up.cliPid() !== undefined);
    process.kill(up.cliPid() ?? 0, "SIGKILL");
    const killed = await up.done;
    const orphan = livePodIds(emu);

    await stack.expect(["cancel", "--yes"]);
    const pending = (await stack.exportState()).deployment.pending_operations ?? [];
    expect([killed.code, pending.map((p) => [p.type, p.resource.urn.split("::").pop()])]).toEqual([
      137,
      [["creating", "a"]],
    ]);
    await stack.expect(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
    const resumed = await stack.expect(["up", "--yes", "--skip-preview"]);
    expect([
      `${resumed.stdout}${resumed.stderr}`.includes(`taking over pod ${orphan[0]}`),
      (await stack.exportState()).deployment.pending_operations ?? [],
      await podIds(),
      livePodIds(emu),
    ]).toEqual([true, [], orphan, orphan]);
  });
});
