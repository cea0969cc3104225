/**
 * Scenario 10: a simulated week of autostop (docs/autostop.md). 100 GPU pods with autostop at 60
 * minutes under 5 %, created by the Pod provider, their load scripted on the emulator: 40 training
 * steadily, 20 serving in bursts with gaps up to 20 minutes, 20 development pods busy on weekdays
 * from 9:00 to 18:00 with a 45-minute lunch and idle at night and at weekends (their users start
 * them again at 9:00), 10 idle from the start (two of them locked in the console, two without a
 * volume), 10 busy on their CPUs with their GPUs near 0. The watcher (cli/autostop/pass.ts, the
 * command's own pass) is due every 5 minutes; some passes run up to 30 minutes late and 5 % never
 * run. The emulator's clock is moved from one event to the next. The same week without autostop
 * gives what idle GPUs would have billed; both from the emulator's billing records.
 */

import type { Memories } from "../cli/autostop/memory-file.js";
import { autostopPass } from "../cli/autostop/pass.js";
import { startEmulator } from "../emulator/index.js";
import { RunpodApi } from "../provider/client/api.js";
import { resolveSettings } from "../provider/client/config.js";
import { RunpodClient } from "../provider/client/request.js";
import { autostopPolicy } from "../provider/resources/pod/autostop.js";
import type { PodInputs, PodOutputs } from "../provider/resources/pod/types.js";
import { FLEET_DC, FLEET_GPU, useEmulatorRuntime } from "./fleet.js";
import { writeResult } from "./write-result.js";

const MIN = 60_000;
const WEEK = 7 * 24 * 60 * MIN;
/** A Monday, 00:00 UTC. */
const WEEK_START = Date.parse("2030-01-07T00:00:00Z");
/** Every autostop default: 60 minutes under 5 % on the GPUs and 50 % on the CPU, a stop. */
const POLICY = autostopPolicy({});
const MAX_GAP_SECONDS = 40 * 60;

type Kind = "training" | "serving" | "development" | "idle" | "idle-locked" | "idle-no-volume" | "cpu-busy";
interface Segment {
  readonly atMs: number;
  readonly gpu: number;
  readonly cpu: number;
}
interface SimPod {
  readonly kind: Kind;
  readonly segments: readonly Segment[];
}

/** A seeded source of numbers in [0, 1) (mulberry32): the same week every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const IDLE = { gpu: 0, cpu: 2 };
const between = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function servingSegments(r: () => number): Segment[] {
  const out: Segment[] = [];
  for (let t = 0; t < WEEK; ) {
    out.push({ atMs: t, gpu: 65, cpu: 20 });
    t += between(r, 5, 12) * MIN;
    out.push({ atMs: t, gpu: 1, cpu: 5 });
    t += between(r, 2, 20) * MIN;
  }
  return out;
}

function developmentSegments(): Segment[] {
  const out: Segment[] = [{ atMs: 0, ...IDLE }];
  for (let day = 0; day < 5; day++) {
    const d = day * 24 * 60 * MIN;
    out.push(
      { atMs: d + 9 * 60 * MIN, gpu: 45, cpu: 25 },
      { atMs: d + 12 * 60 * MIN, ...IDLE },
      { atMs: d + (12 * 60 + 45) * MIN, gpu: 45, cpu: 25 },
      { atMs: d + 18 * 60 * MIN, ...IDLE },
    );
  }
  return out;
}

function fleet(quick: boolean, r: () => number): SimPod[] {
  const n = (k: number) => (quick ? Math.max(1, k / 5) : k);
  const same = (kind: Kind, count: number, segments: Segment[]) =>
    Array.from({ length: count }, () => ({ kind, segments }));
  return [
    ...same("training", n(40), [{ atMs: 0, gpu: 92, cpu: 35 }]),
    ...Array.from({ length: n(20) }, () => ({ kind: "serving" as const, segments: servingSegments(r) })),
    ...same("development", n(20), developmentSegments()),
    ...same("idle", quick ? 2 : 6, [{ atMs: 0, ...IDLE }]),
    ...same("idle-locked", 2, [{ atMs: 0, ...IDLE }]),
    ...same("idle-no-volume", 2, [{ atMs: 0, ...IDLE }]),
    ...same("cpu-busy", n(10), [{ atMs: 0, gpu: 1, cpu: 85 }]),
  ];
}

const loadAt = (segments: readonly Segment[], offsetMs: number): Segment =>
  segments.findLast((s) => s.atMs <= offsetMs) ?? { atMs: 0, ...IDLE };
const idleAt = (segments: readonly Segment[], offsetMs: number) => {
  const l = loadAt(segments, offsetMs);
  return l.gpu < POLICY.gpuUtilBelow && l.cpu < POLICY.cpuUtilBelow;
};

/** When the watcher runs: due every 5 minutes, 5 % never run, 5 % late by up to 30 minutes. */
function passTimes(r: () => number): { runs: number[]; dropped: number; late: number } {
  const runs: number[] = [];
  let dropped = 0;
  let late = 0;
  for (let due = 5 * MIN; due < WEEK; due += 5 * MIN) {
    const x = r();
    if (x < 0.05) dropped++;
    else if (x < 0.1) {
      late++;
      runs.push(due + between(r, 1, 30) * MIN);
    } else runs.push(due);
  }
  return { runs: runs.filter((t) => t < WEEK).sort((a, b) => a - b), dropped, late };
}

interface Stop {
  readonly pod: number;
  readonly at: number;
}

export interface AutostopWeekResult {
  readonly pods: number;
  readonly passes: {
    readonly due: number;
    readonly ran: number;
    readonly dropped: number;
    readonly late: number;
  };
  /** List requests per pass that ran, and actions per stop. */
  readonly listsPerPass: number;
  readonly actionsPerStop: number;
  readonly stops: Readonly<Record<Kind, number>>;
  /** Stops of a pod with a busy sample in its window, or locked, CPU-busy, or losing its data. */
  readonly wrongStops: number;
  /**
   * Idle spells that outlast the window plus 15 minutes after the first pass that ran in them, and
   * those stopped by then.
   */
  readonly spells: number;
  readonly spellsOnTime: number;
  /** The worst time from that first pass's window end to the stop, minutes. */
  readonly worstDelayMinutes: number;
  /** GPU dollars over the week, from the billing records, without and with autostop. */
  readonly gpuUsd: { readonly without: number; readonly with: number };
  /** What the GPUs billed while idle without autostop: in spells of at least the window, and all. */
  readonly idleUsd: { readonly inSpells: number; readonly all: number };
  /** Pods whose refresh and diff after the week show a change (`pulumi preview`'s view)... */
  readonly podsWithChanges: number;
  /** ... beside the pods locked in the console, whose `locked` drift the program would revert. */
  readonly consoleLocks: number;
  readonly wallSeconds: number;
}

async function weekOnEmulator(pods: readonly SimPod[], withAutostop: boolean, r: () => number) {
  const emu = await startEmulator({
    clockScale: 1,
    startTime: WEEK_START,
    randomSeed: 11,
    rateLimit: [{ name: "minute", quota: 1_000_000, seconds: 60 }],
  });
  try {
    emu.control.setCapacity({ dataCenterId: FLEET_DC, gpuTypeId: FLEET_GPU, free: 1000, total: 1000 });
    const { providers } = useEmulatorRuntime(emu);
    const api = new RunpodApi(new RunpodClient(resolveSettings(() => undefined, emu.env())));
    const made: { id: string; inputs: PodInputs; outs: PodOutputs }[] = [];
    for (const [i, p] of pods.entries()) {
      const inputs: PodInputs = {
        name: `${p.kind}-${i}`,
        image: "img:1",
        gpu: { id: FLEET_GPU },
        dataCenterIds: [FLEET_DC],
        waitFor: "NONE",
        ...(p.kind === "idle-no-volume" ? {} : { mounts: { persistent: { size: 20, path: "/workspace" } } }),
        autostop: { idleMinutes: POLICY.idleMinutes, gpuUtilBelow: POLICY.gpuUtilBelow },
      };
      const created = await providers.Pod.create(inputs);
      emu.control.setPodStatus(created.id, "RUNNING");
      if (p.kind === "idle-locked") await api.pods.update(created.id, { locked: true });
      emu.control.setPodLoad(created.id, { segments: [...p.segments], startsAt: WEEK_START });
      made.push({ id: created.id, inputs, outs: created.outs as PodOutputs });
    }
    const to = (t: number) => emu.control.advance(Math.max(0, WEEK_START + t - emu.control.now()));
    const stops: Stop[] = [];
    const schedule = passTimes(r);
    let lists = 0;
    let actions = 0;
    if (withAutostop) {
      const targets = made.map((m, i) => ({
        podId: m.id,
        name: `${pods[i]?.kind}-${i}`,
        stack: "bench/week",
        policy: POLICY,
      }));
      const starts = Array.from({ length: 5 }, (_, d) => d * 24 * 60 * MIN + 9 * 60 * MIN);
      let memories: Memories = {};
      const events = [
        ...schedule.runs.map((t) => ({ t, pass: true })),
        ...starts.map((t) => ({ t, pass: false })),
      ].sort((a, b) => a.t - b.t);
      for (const e of events) {
        to(e.t);
        if (!e.pass) {
          // The developers start their stopped pods in the morning (one list read for all of them).
          const stopped = new Set(
            (await api.pods.list()).filter((p) => p.status === "EXITED").map((p) => p.id),
          );
          for (const [i, m] of made.entries()) {
            if (pods[i]?.kind !== "development" || !stopped.has(m.id)) continue;
            await api.pods.action(m.id, "start");
            emu.control.setPodStatus(m.id, "RUNNING");
          }
          continue;
        }
        emu.control.clearRequests();
        const result = await autostopPass(api, targets, memories, {
          dryRun: false,
          maxGapSeconds: MAX_GAP_SECONDS,
          now: () => emu.control.now(),
        });
        memories = { ...result.memories };
        const byRoute = emu.control.requests().summary.byRoute;
        lists += byRoute["GET /v2/pods"] ?? 0;
        actions += byRoute["POST /v2/pods/:id/action"] ?? 0;
        for (const a of result.audit) stops.push({ pod: made.findIndex((m) => m.id === a.podId), at: e.t });
      }
    }
    to(WEEK);
    const billing = await api.billing.pods({
      bucketSize: "week",
      startTime: new Date(WEEK_START).toISOString(),
      endTime: new Date(WEEK_START + WEEK).toISOString(),
    });
    const gpuUsd = new Map<string, number>();
    for (const rec of billing.records) gpuUsd.set(rec.podId, (gpuUsd.get(rec.podId) ?? 0) + rec.gpuAmount);
    let podsWithChanges = 0;
    let consoleLocks = 0;
    for (const m of made) {
      const read = await providers.Pod.read(m.id, m.outs);
      const diff = await providers.Pod.diff(m.id, read.props as PodOutputs, m.inputs);
      const fields = (diff as { updates?: string[] }).updates ?? [];
      // A lock set in the console is drift the program reverts (it declares none): counted apart.
      if (fields.length === 1 && fields[0] === "locked") consoleLocks++;
      else if (diff.changes) podsWithChanges++;
    }
    return {
      ids: made.map((m) => m.id),
      stops,
      schedule,
      lists,
      actions,
      gpuUsd,
      podsWithChanges,
      consoleLocks,
    };
  } finally {
    await emu.close();
  }
}

/** Idle spells of a pod that ran all week: [start, end) offsets of each run of idle minutes. */
function idleSpells(segments: readonly Segment[]): [number, number][] {
  const spells: [number, number][] = [];
  let start: number | undefined;
  for (let t = 0; t <= WEEK; t += MIN) {
    const idle = t < WEEK && idleAt(segments, t);
    if (idle && start === undefined) start = t;
    if (!idle && start !== undefined) {
      spells.push([start, t]);
      start = undefined;
    }
  }
  return spells;
}

export async function runAutostopWeek(quick: boolean): Promise<AutostopWeekResult> {
  const began = Date.now();
  const pods = fleet(quick, random(42));
  const without = await weekOnEmulator(pods, false, random(7));
  const week = await weekOnEmulator(pods, true, random(7));
  const windowMs = POLICY.idleMinutes * MIN;

  const stops = Object.fromEntries(
    (
      ["training", "serving", "development", "idle", "idle-locked", "idle-no-volume", "cpu-busy"] as const
    ).map((k) => [k, week.stops.filter((s) => pods[s.pod]?.kind === k).length]),
  ) as Record<Kind, number>;
  // A stop is wrong when the pod's window (since its container started) held a busy minute, or it
  // was one that must never be stopped.
  const wrongStops = week.stops.filter((s) => {
    const p = pods[s.pod];
    if (!p || ["idle-locked", "idle-no-volume", "cpu-busy"].includes(p.kind)) return true;
    for (let t = Math.max(0, s.at - windowMs); t <= s.at; t += MIN) if (!idleAt(p.segments, t)) return true;
    return false;
  }).length;

  // Each idle spell the watcher should end: those of stoppable pods that outlast the window plus 15
  // minutes after the first pass that ran in them (before it, no pass could see the pod idle). On
  // time: stopped by then.
  let spells = 0;
  let spellsOnTime = 0;
  let worstDelay = 0;
  for (const [i, p] of pods.entries()) {
    if (!["training", "serving", "development", "idle"].includes(p.kind)) continue;
    for (const [start, end] of idleSpells(p.segments)) {
      const seen = week.schedule.runs.find((t) => t >= start);
      if (seen === undefined) continue;
      const deadline = seen + windowMs + 15 * MIN;
      if (end <= deadline) continue;
      spells++;
      const stop = week.stops.find((s) => s.pod === i && s.at >= start && s.at <= end);
      if (stop) worstDelay = Math.max(worstDelay, (stop.at - seen - windowMs) / MIN);
      if (stop && stop.at <= deadline) spellsOnTime++;
    }
  }

  // What idle GPUs bill without autostop: each pod's hourly GPU rate (its week's GPU dollars over
  // the week's hours) over its idle minutes.
  const idleUsd = { inSpells: 0, all: 0 };
  for (const [i, p] of pods.entries()) {
    if (!["training", "serving", "development", "idle"].includes(p.kind)) continue;
    const perMinute = (without.gpuUsd.get(without.ids[i] ?? "") ?? 0) / (WEEK / MIN);
    for (const [start, end] of idleSpells(p.segments)) {
      idleUsd.all += ((end - start) / MIN) * perMinute;
      if (end - start >= windowMs) idleUsd.inSpells += ((end - start) / MIN) * perMinute;
    }
  }
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const ran = week.schedule.runs.length;
  return {
    pods: pods.length,
    passes: {
      due: ran + week.schedule.dropped,
      ran,
      dropped: week.schedule.dropped,
      late: week.schedule.late,
    },
    listsPerPass: week.lists / ran,
    actionsPerStop: week.stops.length === 0 ? 0 : week.actions / week.stops.length,
    stops,
    wrongStops,
    spells,
    spellsOnTime,
    worstDelayMinutes: worstDelay,
    gpuUsd: { without: sum(without.gpuUsd), with: sum(week.gpuUsd) },
    idleUsd,
    podsWithChanges: week.podsWithChanges,
    consoleLocks: week.consoleLocks,
    wallSeconds: (Date.now() - began) / 1000,
  };
}

/** What bench/results/autostop.json holds: the week's figures, when and on which Node. */
export interface AutostopWeekReport extends AutostopWeekResult {
  readonly measuredAt: string;
  readonly node: string;
}

/** Scenario 10, alone or in a full run: run, written to bench/results/autostop.json, summed up in a line. */
export async function writeAutostopWeekReport(root: string, out: (line: string) => void): Promise<void> {
  const result = await runAutostopWeek(false);
  const report: AutostopWeekReport = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    ...result,
  };
  writeResult(root, "autostop", report);
  const saved = (result.gpuUsd.without - result.gpuUsd.with) / result.idleUsd.inSpells;
  out(
    `autostop week: ${result.pods} pods, ${result.passes.ran} passes; ${result.spellsOnTime} of ${result.spells} idle spells stopped on time, ${result.wrongStops} wrong stops, ${(saved * 100).toFixed(1)} % of idle GPU dollars not billed`,
  );
}
