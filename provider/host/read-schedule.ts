/**
 * When the pod watcher reads next, written once: the watcher's loop sleeps until it, and the plan
 * the watcher gives the rate-limit budget steps through it. The two must agree for the budget to
 * hold back from creates as many requests as the watcher will read.
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
