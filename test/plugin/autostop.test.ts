/**
 * Autostop through the real CLI: a YAML program on the provider plugin with two GPU pods that
 * declare autostop, one idle and one busy (their load scripted on the emulator), the
 * `runpod-dynamic autostop` binary run pass after pass, the emulator's clock moved between passes. The idle pod is
 * stopped and the busy one is not; then the stack sees no change, `up --refresh` starts nothing,
 * `runpod-dynamic pods start` brings the pod back, and the stack sees no change again. And the
 * policy pack and the cost report on the program's preview.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { ProgramStack } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { TIME_SCALE, until } from "../support/stack.js";

const PROGRAM = join(__dirname, "yaml-autostop");
const POLICY = join(REPO_ROOT, "policy");

let emu: RunningEmulator;
let stack: ProgramStack;
let dir: string;
let idle: string;
let busy: string;

const statusOf = (id: string) => emu.control.snapshot().pods.find((p) => p.id === id)?.status;
const startActions = () =>
  emu.control.requests().entries.filter((e) => e.route === "POST /v2/pods/:id/action").length;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 47,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  stack = await pluginStackOnEmulator(emu, await pluginAsset(), PROGRAM);
  dir = mkdtempSync(join(tmpdir(), "runpod-autostop-cli-"));
  await stack.expect(["up", "--yes", "--skip-preview"]);
  const outputs = await stack.outputs();
  idle = String(outputs.idleId);
  busy = String(outputs.busyId);
  emu.control.setPodLoad(idle, { segments: [{ atMs: 0, gpu: 0, cpu: 3 }] });
  emu.control.setPodLoad(busy, { segments: [{ atMs: 0, gpu: 72, cpu: 40 }] });
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("autostop through the real CLI", { timeout: 240_000 }, () => {
  it("the watcher stops the idle pod and not the busy one", async () => {
    const state = join(dir, "state.json");
    writeFileSync(state, (await stack.expect(["stack", "export"])).stdout);
    const files = ["--samples", join(dir, "samples.json"), "--audit", join(dir, "audit.jsonl")];
    // A pass, then the emulator's clock moved 3 minutes on: the 10-minute window takes 5 passes.
    for (let i = 0; i < 12 && statusOf(idle) !== "EXITED"; i++) {
      const pass = await runCli(["autostop", state, ...files], emu.env());
      if (pass.code !== 0) throw new Error(pass.stderr);
      emu.control.advance(3 * 60_000);
    }
    const audit = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect([statusOf(idle), statusOf(busy), audit.map((a) => [a.podId, a.name, a.stack, a.action])]).toEqual([
      "EXITED",
      "RUNNING",
      [[idle, "idle", "plugin-yaml-autostop/dev", "stop"]],
    ]);
  });

  it("the stack sees no change, and up --refresh starts nothing", async () => {
    await stack.expect(["preview", "--expect-no-changes"]);
    const before = startActions();
    await stack.expect(["up", "--refresh", "--yes", "--skip-preview"]);
    await stack.expect(["preview", "--expect-no-changes"]);
    const pod = (await stack.exportState()).deployment.resources?.find((r) => r.id === idle);
    expect([
      statusOf(idle),
      startActions() - before,
      pod?.outputs?.stoppedOutside,
      pod?.outputs?.desiredStatus,
    ]).toEqual(["EXITED", 0, true, "RUNNING"]);
  });

  it("pods start brings it back, and the stack sees no change again", async () => {
    const started = await runCli(["pods", "start", idle], emu.env());
    await until(() => statusOf(idle) === "RUNNING", 60_000);
    await stack.expect(["refresh", "--yes", "--skip-preview"]);
    await stack.expect(["preview", "--expect-no-changes"]);
    const pod = (await stack.exportState()).deployment.resources?.find((r) => r.id === idle);
    expect([started.code, pod?.outputs?.status, pod?.outputs?.stoppedOutside]).toEqual([0, "RUNNING", false]);
  });

  it("the pack lets the program through, and the cost report says what an idle spell bills", async () => {
    const checked = await stack.run(["preview", "--policy-pack", POLICY]);
    const preview = await stack.run(["preview", "--json", "--show-sames"]);
    const cost = await runCli(["cost", "-o", "markdown"], emu.env(), preview.stdout);
    expect([
      checked.code,
      checked.stdout.includes("pod-autostop-data-loss"),
      checked.stdout.includes("pod-gpu-autostop"),
    ]).toEqual([0, false, false]);
    // The pods in the engine's step order, which varies for two pods that do not depend on each other.
    const note =
      /autostop: stopped after 10 min with every GPU under 5 %, so an idle spell bills about \$0\.\d{4} before it stops \(Pod "(\w+)", Pod "(\w+)"\)/.exec(
        cost.stdout,
      );
    expect([note?.[1], note?.[2]].sort()).toEqual(["busy", "idle"]);
  });

  it("the pack refuses autostop on a pod without a volume, before any API call", async () => {
    const noVolume = await pluginStackOnEmulator(
      emu,
      await pluginAsset(),
      join(__dirname, "yaml-autostop-no-volume"),
    );
    try {
      const pods = emu.control.snapshot().pods.length;
      const res = await noVolume.run(["preview", "--policy-pack", POLICY]);
      expect([res.code, emu.control.snapshot().pods.length]).toEqual([1, pods]);
      expect(res.stdout).toMatch(/\[mandatory\] +pod-autostop-data-loss/);
      expect(res.stdout).toMatch(
        /Pod "scratch", autostop: autostop stops this pod when idle, and it has no volume/,
      );
    } finally {
      noVolume.dispose();
    }
  });

  it("destroys both", async () => {
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
    expect(
      [statusOf(idle) ?? "gone", statusOf(busy) ?? "gone"].every((s) => s === "gone" || s === "TERMINATED"),
    ).toBe(true);
  });
});
