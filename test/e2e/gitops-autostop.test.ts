/**
 * examples/gitops's schedule with autostop, through the real CLI: the notebook pod idle (its load
 * scripted on the emulator), the workflow's autostop job (the watcher binary on the stack's export)
 * stops it; then the evening park and the morning wake leave it stopped, and the stack sees no
 * change.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { type ExampleRun, exampleRun, INSTALL_TIMEOUT_MS, TIME_SCALE } from "./phases.js";

let emu: RunningEmulator;
let run: ExampleRun;
let dir: string;
let pod: string;

const statusOf = (id: string) => emu.control.snapshot().pods.find((p) => p.id === id)?.status;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 72 });
  run = await exampleRun(emu, "gitops", { "runpod-gitops:hfToken": "hf_GITOPS_SECRET" }, [
    "runpod-gitops:hfToken",
  ]);
  dir = mkdtempSync(join(tmpdir(), "runpod-gitops-autostop-"));
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  run?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("examples/gitops: autostop, then the park and the wake", { timeout: 300_000 }, () => {
  it("the autostop job stops the idle notebook", async () => {
    const up = await run.up("up");
    pod = await run.idOf("notebook");
    emu.control.setPodLoad(pod, { segments: [{ atMs: 0, gpu: 1, cpu: 4 }] });
    const state = join(dir, "state.json");
    writeFileSync(state, (await run.stack.expect(["stack", "export"])).stdout);
    const job = [
      "autostop",
      state,
      "--samples",
      join(dir, "samples.json"),
      "--audit",
      join(dir, "audit.jsonl"),
    ];
    // The job's schedule: a pass, then the emulator's clock moved 10 minutes on.
    for (let pass = 0; pass < 20 && statusOf(pod) !== "EXITED"; pass++) {
      const result = await runCli(job, emu.env());
      if (result.code !== 0) throw new Error(result.stderr);
      emu.control.advance(10 * 60_000);
    }
    expect([up.code, statusOf(pod)]).toEqual([0, "EXITED"]);
  });

  it("the evening park and the morning wake leave it stopped, with no API write", async () => {
    const park = await run.up("park", { "runpod-gitops:parked": "true" });
    const wake = await run.up("wake", { "runpod-gitops:parked": "false" });
    const after = await run.up("no-op");
    expect([
      [park.code, park.ops, park.writes],
      [wake.code, wake.ops, wake.writes],
      [after.code, after.ops],
      statusOf(pod),
    ]).toEqual([
      [0, ["same workspace", "update notebook"], 0],
      [0, ["same workspace", "update notebook"], 0],
      [0, ["same notebook", "same workspace"]],
      "EXITED",
    ]);
  });
});
