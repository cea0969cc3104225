/**
 * `runpod-dynamic autostop` against the emulator, its clock frozen and moved by the test between
 * passes, each pod's load scripted through the control plane: who is stopped, after how many passes,
 * with one list request per pass and one action per stop; what the audit log and the samples file
 * hold; dry runs; and what is never stopped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const h = cliHarnessForAllTests({ clockScale: 0, seed: WITHOUT_HISTORY_RESOURCES });
let dir: string;
beforeEach(() => {
  h.emu.control.reset(WITHOUT_HISTORY_RESOURCES);
  dir = mkdtempSync(join(tmpdir(), "runpod-autostop-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MINUTE = 60_000;
const A40 = "NVIDIA A40";
const WORKSPACE = { persistent: { size: 20, path: "/workspace" } };

/** A RUNNING GPU pod whose GPUs run at `gpu` % and CPU at `cpu` % from now on. */
async function pod(name: string, gpu: number, cpu = 2, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await h.api.pods.create({
    name,
    image: "img:1",
    gpu: { id: A40 },
    mounts: WORKSPACE,
    ...extra,
  });
  h.emu.control.setPodStatus(created.id, "RUNNING");
  h.emu.control.setPodLoad(created.id, { segments: [{ atMs: 0, gpu, cpu }] });
  return created.id;
}

/** A stack export declaring each pod with its autostop (undefined: none). */
function stateFile(pods: Record<string, [string, Record<string, unknown> | undefined]>): string {
  const resources = Object.entries(pods).map(([name, [id, autostop]]) => ({
    urn: `urn:pulumi:dev::lab::runpod-dynamic:index:Pod::${name}`,
    type: "runpod-dynamic:index:Pod",
    id,
    inputs: { name, ...(autostop ? { autostop } : {}) },
  }));
  const path = join(dir, "state.json");
  writeFileSync(path, JSON.stringify({ version: 3, deployment: { manifest: {}, resources } }));
  return path;
}

interface Pass {
  pods: { podId: string; name: string; verdict: string; detail: string; costPerHour: number | null }[];
  audit: {
    podId: string;
    action: string;
    window: { samples: number; minutes: number };
    costPerHour: number;
  }[];
}

/** One pass, then the clock moved `minutes` on. */
async function pass(state: string, minutes = 5, ...flags: string[]): Promise<Pass> {
  const res = await h.run([
    "autostop",
    state,
    "--json",
    "--samples",
    join(dir, "samples.json"),
    "--audit",
    join(dir, "audit.jsonl"),
    ...flags,
  ]);
  if (res.code !== 0) throw new Error(res.stderr);
  h.emu.control.advance(minutes * MINUTE);
  return JSON.parse(res.stdout) as Pass;
}

const verdicts = (p: Pass) => Object.fromEntries(p.pods.map((x) => [x.name, x.verdict]));
const status = (id: string) => h.emu.control.snapshot().pods.find((p) => p.id === id)?.status;

describe("autostop", () => {
  it("stops the idle pod after its window and a warning, never the busy one: one list per pass, one action per stop", async () => {
    const idle = await pod("idle", 0);
    const busy = await pod("busy", 60);
    const undeclared = await pod("undeclared", 0);
    const state = stateFile({
      idle: [idle, { idleMinutes: 30 }],
      busy: [busy, { idleMinutes: 30 }],
      undeclared: [undeclared, undefined],
    });
    const seen: Pass[] = [];
    for (let i = 0; i < 8; i++) seen.push(await pass(state));
    const routes = h.routes();
    expect([
      seen.map((p) => verdicts(p).idle),
      seen.map((p) => verdicts(p).busy),
      status(idle),
      status(busy),
      status(undeclared),
      routes,
    ]).toEqual([
      ["watching", "watching", "watching", "watching", "watching", "watching", "warned", "stopped"],
      Array(8).fill("busy"),
      "EXITED",
      "RUNNING",
      "RUNNING",
      ["base GET /v2/pods", `base POST /v2/pods/${idle}/action`],
    ]);
    const audit = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(audit).toEqual([
      {
        at: expect.any(String),
        podId: idle,
        name: "idle",
        stack: "lab/dev",
        action: "stop",
        window: { minutes: 30, samples: 7, fromUptime: 300, toUptime: 2100, maxGpuUtil: 0, maxCpuUtil: 2 },
        costPerHour: expect.any(Number),
      },
    ]);
    expect(seen[7]?.audit).toEqual(audit);
  });

  it("--dry-run says what it would stop, keeps the samples, stops nothing and writes no audit line", async () => {
    const idle = await pod("idle", 0);
    const state = stateFile({ idle: [idle, { idleMinutes: 10 }] });
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) seen.push(verdicts(await pass(state, 5, "--dry-run")).idle ?? "");
    expect([seen, status(idle), readFileSync(join(dir, "samples.json"), "utf8").includes(idle)]).toEqual([
      ["watching", "watching", "warned", "would-stop", "would-stop"],
      "RUNNING",
      true,
    ]);
    expect(() => readFileSync(join(dir, "audit.jsonl"))).toThrow(/ENOENT/);
  });

  it("terminates only a pod whose autostop names it, and only when nothing is lost or that is allowed", async () => {
    const scratch = await pod("scratch", 0);
    const keeps = await pod("keeps", 0);
    const state = stateFile({
      scratch: [scratch, { idleMinutes: 10, action: "terminate", allowDataLoss: true }],
      keeps: [keeps, { idleMinutes: 10, action: "terminate" }],
    });
    const seen: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const p = await pass(state);
      seen.push([verdicts(p).scratch ?? "", verdicts(p).keeps ?? ""]);
    }
    expect([seen.at(-1), status(scratch) ?? "gone", status(keeps)]).toEqual([
      ["terminated", "keeps-data"],
      expect.stringMatching(/^(TERMINATED|gone)$/),
      "RUNNING",
    ]);
  });

  it("never stops a locked pod, a CPU-busy pod, or a pod that would lose its data", async () => {
    const locked = await pod("locked", 0);
    await h.api.pods.update(locked, { locked: true });
    const cpuBusy = await pod("cpu-busy", 0, 90);
    const noVolume = await pod("no-volume", 0, 2, { mounts: {} });
    const state = stateFile({
      locked: [locked, { idleMinutes: 10 }],
      "cpu-busy": [cpuBusy, { idleMinutes: 10 }],
      "no-volume": [noVolume, { idleMinutes: 10 }],
    });
    let last: Pass | undefined;
    for (let i = 0; i < 6; i++) last = await pass(state);
    expect([last && verdicts(last), [locked, cpuBusy, noVolume].map(status)]).toEqual([
      { locked: "locked", "cpu-busy": "busy", "no-volume": "keeps-data" },
      ["RUNNING", "RUNNING", "RUNNING"],
    ]);
  });

  it("a restart starts the window again", async () => {
    const idle = await pod("idle", 0);
    const state = stateFile({ idle: [idle, { idleMinutes: 15 }] });
    for (let i = 0; i < 3; i++) await pass(state);
    await h.api.pods.action(idle, "restart");
    h.emu.control.setPodStatus(idle, "RUNNING");
    const after = [];
    for (let i = 0; i < 6; i++) after.push(verdicts(await pass(state)).idle);
    expect(after).toEqual(["watching", "watching", "watching", "warned", "stopped", "not-running"]);
  });

  it("--watch runs a pass every --interval, one JSON line each, until Ctrl-C ends it with exit 0", async () => {
    const idle = await pod("idle", 0);
    const state = stateFile({ idle: [idle, { idleMinutes: 10 }] });
    const files = ["--samples", join(dir, "samples.json"), "--audit", join(dir, "audit.jsonl")];
    const cli = h.start(["autostop", state, ...files, "--watch", "--interval", "1s", "--json"]);
    for (const n of [1, 2, 3]) {
      await cli.waitFor(new RegExp(`^(.*\n){${n}}$`));
      h.emu.control.advance(5 * MINUTE);
    }
    cli.interrupt();
    const res = await cli.exited;
    const passes = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Pass);
    expect([res.code, passes.slice(0, 3).map((p) => verdicts(p).idle)]).toEqual([
      0,
      ["watching", "watching", "warned"],
    ]);
  });

  it("refuses what is not a stack export, and a samples file that is not its own, naming them", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ steps: [] }));
    const notExport = await h.run(["autostop", bad]);
    writeFileSync(join(dir, "samples.json"), JSON.stringify({ version: 2 }));
    const state = stateFile({});
    const notSamples = await h.run(["autostop", state, "--samples", join(dir, "samples.json")]);
    expect([notExport.code, errorText(notExport), notSamples.code, errorText(notSamples)]).toEqual([
      2,
      expect.stringContaining(`${bad}: deployment: `),
      1,
      expect.stringContaining("not the autostop samples file (version: "),
    ]);
  });
});
