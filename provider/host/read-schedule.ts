/**
 * When the pod watcher reads next, written once: the watcher's loop sleeps until it, and the plan
 * the watcher gives the rate-limit budget steps through it. The two must agree for the budget to
 * hold back from creates as many requests as the watcher will read. When a pod is due is learned
 * here too (`ArrivalTimes`), from how long pods of its kind (image, GPU type, data center) took
 * from create to RUNNING.
 */

/** The intervals of the schedule. */
export interface ReadIntervals {
  /** Shortest time between two reads. @default 1000 */
  readonly minIntervalMs: number;
  /** Longest time between two reads. @default 10000 */
  readonly maxIntervalMs: number;
  /** The next read after one that saw a pod change status. @default 400 */
  readonly followUpMs: number;
  /** Time between reads while every pod waited for is not due yet (read for failures only). @default 30000 */
  readonly idleIntervalMs: number;
}

/** When a pod is expected to reach RUNNING, learned from pods of its kind. */
export interface DueWindow {
  readonly start: number;
  readonly end: number;
}

/**
 * How one wait wants to be read. `relaxed`: only a failure is news (a probe decides success), so
 * at the longest interval. `steady`: at the normal interval. A due window: rarely before it
 * starts, at the shortest interval within it, and at the normal interval once the pod is late.
 */
export type ReadPace = "relaxed" | "steady" | DueWindow;

export interface ReadState {
  /** The last read saw a pod change status: pods created together tend to change together. */
  readonly followUp: boolean;
  /** The interval the rate-limit budget can afford. */
  readonly affordable: number;
  /** A pod past its due window is read at the normal interval, or taken for arrived (`"arrived"`). */
  readonly late: "read" | "arrived";
}

/**
 * When the next read is, given when the last one was and how each wait wants to be read at `now`:
 * the soonest any wait wants, never sooner than the shortest interval (or the follow-up) after the
 * last read. Infinity when no wait wants a read.
 */
export function nextReadAt(
  lastReadAt: number,
  now: number,
  paces: readonly ReadPace[],
  state: ReadState,
  intervals: ReadIntervals,
): number {
  const next = Math.min(...paces.map((pace) => wantedAt(pace, lastReadAt, now, state, intervals)));
  // Pods created a moment apart fall due a moment apart: one read serves them all.
  return Math.max(next, lastReadAt + (state.followUp ? intervals.followUpMs : intervals.minIntervalMs));
}

/** When one wait wants its next read. */
function wantedAt(
  pace: ReadPace,
  lastReadAt: number,
  now: number,
  state: ReadState,
  intervals: ReadIntervals,
): number {
  if (pace === "relaxed") return lastReadAt + Math.max(intervals.maxIntervalMs, state.affordable);
  const normal =
    lastReadAt + Math.min(Math.max(intervals.minIntervalMs, state.affordable), intervals.maxIntervalMs);
  if (pace === "steady") return state.followUp ? lastReadAt + intervals.followUpMs : normal;
  if (now < pace.start) return Math.min(lastReadAt + intervals.idleIntervalMs, pace.start);
  if (now > pace.end && state.late === "arrived") return Number.POSITIVE_INFINITY;
  if (state.followUp) return lastReadAt + intervals.followUpMs;
  return now <= pace.end ? lastReadAt + intervals.minIntervalMs : normal;
}

/** How many create-to-RUNNING times of one kind of pod are kept to predict the next. */
const SAMPLES_KEPT = 16;

/** A due pod is read every second this long past the latest time pods of its kind have taken. */
const DUE_SLACK_MS = 1000;

/** When a pod of one kind reached RUNNING: after `lo` and by `hi` milliseconds from its wait's start. */
interface Sample {
  readonly lo: number;
  readonly hi: number;
}

/**
 * How long pods of one kind take from create to RUNNING, learned from the ones the watcher has seen
 * arrive: it predicts when the next pod of that kind is due.
 */
export class ArrivalTimes {
  private readonly samples = new Map<string, Sample[]>();

  /** A pod of `kind` was last read not RUNNING `lo` ms into its wait, and RUNNING `hi` ms in. */
  learn(kind: string, lo: number, hi: number): void {
    const kept = this.samples.get(kind) ?? [];
    kept.push({ lo, hi });
    this.samples.set(kind, kept.slice(-SAMPLES_KEPT));
  }

  /**
   * When pods of `kind` have reached RUNNING, counted from `since`: after the median of their last
   * misses, by the median of their first sightings (plus a second). Undefined until one has been seen.
   */
  dueWindow(kind: string, since: number): DueWindow | undefined {
    const samples = this.samples.get(kind);
    if (!samples || samples.length === 0) return undefined;
    const start = since + median(samples.map((x) => x.lo));
    return { start, end: Math.max(start, since + median(samples.map((x) => x.hi))) + DUE_SLACK_MS };
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
