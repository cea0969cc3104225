/** The autostop watcher's decision on one pod, pass after pass (cli/autostop/decide.ts). */
import { describe, expect, it } from "vitest";
import { type AutostopPolicy, decide, type PodMemory, type PodSeen } from "../../cli/autostop/decide.js";

const POLICY: AutostopPolicy = {
  idleMinutes: 60,
  gpuUtilBelow: 5,
  cpuUtilBelow: 50,
  action: "stop",
  allowDataLoss: false,
};
const MAX_GAP = 40 * 60;

/** A RUNNING pod's look at uptime `minutes`, its GPUs at `gpu` and its CPU at `cpu`. */
function running(minutes: number, gpu: number | number[] = 0, cpu = 2, more: Partial<PodSeen> = {}): PodSeen {
  const gpus = (Array.isArray(gpu) ? gpu : [gpu]).map((util) => ({ util, memoryUtil: 0 }));
  return {
    status: "RUNNING",
    locked: false,
    startedAt: "2026-11-29T00:00:00Z",
    keepsData: true,
    runtime: { uptime: minutes * 60, gpus, cpu: { util: cpu }, memory: { util: 9 } },
    ...more,
  };
}

/** Passes at the given uptimes (minutes), each seeing what `at` says; the verdict of each. */
function passes(
  at: readonly number[],
  seen: (minutes: number) => PodSeen,
  policy: AutostopPolicy = POLICY,
): string[] {
  let memory: PodMemory | undefined;
  return at.map((m) => {
    const d = decide(policy, memory, seen(m), MAX_GAP);
    memory = d.memory;
    return d.verdict;
  });
}

const every5 = (from: number, to: number) =>
  Array.from({ length: (to - from) / 5 + 1 }, (_, i) => from + i * 5);

describe("an idle pod", () => {
  it("is watched until its samples cover the window, warned once, then acted on at the next idle pass", () => {
    const verdicts = passes(every5(0, 70), (m) => running(m));
    expect(verdicts).toEqual([...Array(12).fill("watching"), "warned", "act", "act"]);
  });

  it("every GPU must be idle: one busy GPU of two keeps the pod", () => {
    expect(passes(every5(0, 70), (m) => running(m, [0, 40])).every((v) => v === "busy")).toBe(true);
  });

  it("a pod busy on its CPU is not idle, unless cpuUtilBelow leaves the CPU out", () => {
    const cpuBusy = (m: number) => running(m, 0, 85);
    expect([
      passes(every5(0, 70), cpuBusy).at(-1),
      passes(every5(0, 70), cpuBusy, { ...POLICY, cpuUtilBelow: 101 }).at(-1),
    ]).toEqual(["busy", "act"]);
  });
});

describe("what keeps a pod running", () => {
  it("a burst just inside the window: busy until it leaves the window, then watched anew", () => {
    // Busy at 10 min; idle otherwise. Windows up to the one starting at 10 min hold the burst.
    const verdicts = passes(every5(0, 85), (m) => running(m, m === 10 ? 80 : 0));
    expect(verdicts.slice(12)).toEqual(["busy", "busy", "busy", "warned", "act", "act"]);
  });

  it("too few samples: a gap wider than the longest allowed leaves the window uncovered until it passes", () => {
    // Passes at 0..20, then none until 65 (45 min), then every 5.
    const at = [...every5(0, 20), ...every5(65, 130)];
    const verdicts = passes(at, (m) => running(m));
    const byMinute = Object.fromEntries(at.map((m, i) => [m, verdicts[i]]));
    expect([byMinute[65], byMinute[120], byMinute[125], byMinute[130]]).toEqual([
      "watching",
      "watching",
      "warned",
      "act",
    ]);
  });

  it("a late pass within the longest gap still covers: 35 minutes between two samples", () => {
    const at = [...every5(0, 30), 65, 70];
    expect(passes(at, (m) => running(m)).slice(-2)).toEqual(["warned", "act"]);
  });

  it("a restart (a new container) starts the window again, and so does a smaller uptime", () => {
    const before = passes([...every5(0, 65)], (m) => running(m));
    let memory: PodMemory | undefined;
    for (const m of every5(0, 65)) memory = decide(POLICY, memory, running(m), MAX_GAP).memory;
    const restarted = decide(
      POLICY,
      memory,
      running(3, 0, 2, { startedAt: "2026-11-29T01:06:00Z" }),
      MAX_GAP,
    );
    const smaller = decide(POLICY, memory, running(3), MAX_GAP);
    expect([before.at(-1), restarted.verdict, restarted.memory.samples.length, smaller.verdict]).toEqual([
      "act",
      "watching",
      1,
      "watching",
    ]);
  });

  it("a busy pass between the warning and the act: no act, the warning is forgotten", () => {
    // Busy at 65 min: windows up to the one starting at 65 min hold it; the one from 70 min warns again.
    const verdicts = passes(every5(0, 135), (m) => running(m, m === 65 ? 60 : 0));
    expect([verdicts.slice(12, 15), verdicts.indexOf("warned", 13) * 5, verdicts.indexOf("act") * 5]).toEqual(
      [["warned", "busy", "busy"], 130, 135],
    );
  });

  it("locked: idle but never acted on", () => {
    expect(passes(every5(0, 75), (m) => running(m, 0, 2, { locked: true })).slice(-2)).toEqual([
      "locked",
      "locked",
    ]);
  });

  it("no volume: a stop would lose its data, unless allowDataLoss", () => {
    const noVolume = (m: number) => running(m, 0, 2, { keepsData: false });
    expect([
      passes(every5(0, 75), noVolume).at(-1),
      passes(every5(0, 75), noVolume, { ...POLICY, allowDataLoss: true }).at(-1),
    ]).toEqual(["keeps-data", "act"]);
  });

  it("not running: nothing sampled, and a runtime without what is read is left alone", () => {
    const exited = decide(POLICY, undefined, { ...running(0), status: "EXITED", runtime: null }, MAX_GAP);
    const unreadable = decide(
      POLICY,
      undefined,
      { ...running(0), runtime: { uptime: 10, gpus: [] } },
      MAX_GAP,
    );
    expect([exited.verdict, unreadable.verdict, unreadable.detail]).toEqual([
      "not-running",
      "unreadable",
      "its runtime has no readable cpu (Invalid input: expected object, received undefined)",
    ]);
  });
});

describe("what it keeps", () => {
  it("only the samples the window still needs", () => {
    let memory: PodMemory | undefined;
    for (const m of every5(0, 300)) memory = decide(POLICY, memory, running(m, m % 20), MAX_GAP).memory;
    expect(memory?.samples.map((s) => s.uptime / 60)).toEqual(every5(240, 300));
  });
});
