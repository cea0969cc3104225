/**
 * What the autostop watcher decides about one pod on one pass, from what it kept of the pod's
 * earlier passes and what the list answered now (docs/autostop.md, "How a pod is judged idle").
 * Pure: the command (cli/autostop.ts) reads, keeps and acts.
 *
 * Time is the pod's own: a sample's place in time is the container's `runtime.uptime`, so passes
 * run by different machines, late or on an emulator's clock, compare without a shared clock; a new
 * `startedAt` or a smaller uptime is a restart, and the window starts again.
 */
import { z } from "zod";
import type { AutostopPolicy } from "../../provider/resources/pod/autostop.js";

export type { AutostopPolicy };

/** One pass's look at a running pod: the busiest GPU and the CPU, at this container uptime. */
export interface Sample {
  /** Seconds since the container started (`runtime.uptime`). */
  readonly uptime: number;
  /** The highest utilization of the pod's GPUs (0 for a pod without GPUs), percent. */
  readonly gpu: number;
  readonly cpu: number;
}

/** What the watcher keeps of a pod between passes. */
export interface PodMemory {
  /** The container the samples are of (`startedAt`). */
  readonly startedAt: string | null;
  /** Oldest first, each pass's sample of this container; only what the window still needs. */
  readonly samples: readonly Sample[];
  /** The uptime of the pass that found the window idle and warned; the next idle pass acts. */
  readonly warnedAt?: number | undefined;
}

/** The pod as the list answered it, the part the decision reads. */
export interface PodSeen {
  readonly status: string;
  readonly locked: boolean;
  readonly startedAt: string | null;
  /** Whether the pod's data outlives the action (pass.ts, `keepsData`): else it is lost unless allowed. */
  readonly keepsData: boolean;
  readonly runtime: unknown;
}

export type Verdict =
  /** Not RUNNING: nothing to sample, the window starts again when it runs. */
  | "not-running"
  /** RUNNING, but its runtime lacks what the decision reads: nothing is done. */
  | "unreadable"
  /** A sample of the window is busy. */
  | "busy"
  /** Idle so far, but the samples do not yet cover the window. */
  | "watching"
  /** Idle for the whole window, but locked: the API never stops a locked pod. */
  | "locked"
  /** Idle for the whole window, but a stop would lose its data and autostop does not allow that. */
  | "keeps-data"
  /** Idle for the whole window, first time: warned; the next pass acts if it is still idle. */
  | "warned"
  /** Idle for the whole window on two passes in a row: act (stop, or terminate if named). */
  | "act";

export interface Decision {
  readonly verdict: Verdict;
  /** Why, in words, for the pass's report and the audit log. */
  readonly detail: string;
  readonly memory: PodMemory;
  /** The samples the verdict rests on (the window's), when it rests on any. */
  readonly window: readonly Sample[];
}

/** The runtime fields the decision reads: a pod whose answer lacks them is left alone. */
const Runtime = z.looseObject({
  uptime: z.number().min(0),
  gpus: z.array(z.looseObject({ util: z.number() })),
  cpu: z.looseObject({ util: z.number() }),
});

const isIdle = (s: Sample, p: AutostopPolicy) => s.gpu < p.gpuUtilBelow && s.cpu < p.cpuUtilBelow;

/**
 * The pass's decision. `maxGapSeconds`: the longest stretch between two samples the window may
 * have; a longer one could hide a busy spell, so the window is not covered until it has passed.
 */
export function decide(
  policy: AutostopPolicy,
  memory: PodMemory | undefined,
  pod: PodSeen,
  maxGapSeconds: number,
): Decision {
  const fresh: PodMemory = { startedAt: pod.startedAt, samples: [] };
  if (pod.status !== "RUNNING") {
    return { verdict: "not-running", detail: `the pod is ${pod.status}`, memory: fresh, window: [] };
  }
  const runtime = Runtime.safeParse(pod.runtime);
  if (!runtime.success) {
    const issue = runtime.error.issues[0];
    return {
      verdict: "unreadable",
      detail: `its runtime has no readable ${issue?.path.join(".") || "block"} (${issue?.message})`,
      memory: memory ?? fresh,
      window: [],
    };
  }
  const r = runtime.data;
  const sample: Sample = {
    uptime: r.uptime,
    gpu: Math.max(0, ...r.gpus.map((g) => g.util)),
    cpu: r.cpu.util,
  };
  const last = memory?.samples.at(-1);
  const sameContainer =
    memory !== undefined &&
    memory.startedAt === pod.startedAt &&
    (last === undefined || last.uptime <= sample.uptime);
  const kept = sameContainer ? memory.samples.filter((s) => s.uptime < sample.uptime) : [];
  const samples = [...kept, sample];
  const windowSeconds = policy.idleMinutes * 60;
  const start = sample.uptime - windowSeconds;
  // The window's samples: from the last one at or before its start (which shows the start) to now.
  const anchor = samples.findLastIndex((s) => s.uptime <= start);
  const window = samples.slice(Math.max(anchor, 0));
  // Only what a later window can still need is kept: a later start is later than this one.
  const remembered = { startedAt: pod.startedAt, samples: window };
  const busy = window.find((s) => !isIdle(s, policy));
  if (busy) {
    const what =
      busy.gpu >= policy.gpuUtilBelow
        ? `a GPU at ${busy.gpu} % (idle is under ${policy.gpuUtilBelow} %)`
        : `the CPU at ${busy.cpu} % (idle is under ${policy.cpuUtilBelow} %)`;
    return {
      verdict: "busy",
      detail: `${what} at uptime ${minutes(busy.uptime)}`,
      memory: remembered,
      window,
    };
  }
  const widest = Math.max(0, ...window.slice(1).map((s, i) => s.uptime - (window[i]?.uptime ?? s.uptime)));
  if (anchor < 0 || widest > maxGapSeconds) {
    const seen = sample.uptime - (window[0]?.uptime ?? sample.uptime);
    const why =
      anchor < 0
        ? `idle for the ${minutes(seen)} watched of its ${policy.idleMinutes} min window`
        : `idle, but ${minutes(widest)} passed between two samples (at most ${minutes(maxGapSeconds)})`;
    return { verdict: "watching", detail: why, memory: remembered, window };
  }
  const idle = `idle for ${policy.idleMinutes} min (${window.length} samples: GPUs at most ${Math.max(...window.map((s) => s.gpu))} %, CPU at most ${Math.max(...window.map((s) => s.cpu))} %)`;
  if (pod.locked) return { verdict: "locked", detail: `${idle}, but locked`, memory: remembered, window };
  if (!pod.keepsData && !policy.allowDataLoss) {
    return {
      verdict: "keeps-data",
      detail: `${idle}, but ${policy.action === "terminate" ? "a terminate" : "a stop"} would lose its data (autostop.allowDataLoss)`,
      memory: remembered,
      window,
    };
  }
  const warnedBefore = sameContainer && memory?.warnedAt !== undefined && memory.warnedAt < sample.uptime;
  if (!warnedBefore) {
    return {
      verdict: "warned",
      detail: `${idle}: ${policy.action === "terminate" ? "terminated" : "stopped"} on the next pass if still idle`,
      memory: { ...remembered, warnedAt: sample.uptime },
      window,
    };
  }
  // The warning stays: should the action fail, the next idle pass acts again.
  return { verdict: "act", detail: idle, memory: { ...remembered, warnedAt: memory?.warnedAt }, window };
}

function minutes(seconds: number): string {
  return `${Math.round(seconds / 60)} min`;
}
