/**
 * When the pod watcher reads next, written once: the watcher's loop sleeps until it, and the plan
 * the watcher gives the rate-limit budget steps through it. The two must agree for the budget to
 * hold back from creates as many requests as the watcher will read. When a pod is due is learned
 * here too (`ArrivalTimes`), from how long pods of its kind (image, GPU type, data center) took
 * from create to RUNNING: the pods the watcher saw arrive, and any pod of the kind on the account
 * (its `createdAt` and `startedAt`, docs/api-model.md, Pods).
 */
import type { Pod } from "../client/schemas/pods.js";

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
  /**
   * Shared with other callers of the key: the shortest time between reads of waits that have no
   * due window to go by (a kind never seen arrive, a late pod, a pod to go or stop). Every caller's
   * watcher reads from what creates leave, a fifth of the window, so each takes a few a minute.
   * @default 20000
   */
  readonly sharedIntervalMs: number;
  /**
   * Time between reads while a pod waited for is of a kind never seen arrive (nothing says when it
   * is due): its arrival time is learned to within it. Alone, never sooner than the budget affords
   * either. @default 2000
   */
  readonly firstOfKindMs: number;
  /**
   * The same among other callers of the key: every caller's first pods are read from the watchers'
   * share of what creates leave. A batch arrives over the second or two its creates took, and a read
   * takes its own time: 6 s between reads keeps a batch seen within 10 s of its first pod, where 10 s
   * saw one 10.3 s late when a read fell just before it. @default 6000
   */
  readonly sharedFirstOfKindMs: number;
  /**
   * The same while creates wait for more than the window has left (`ReadState.backlog`), alone or
   * not: every read then takes a create's place. @default 10000
   */
  readonly backlogFirstOfKindMs: number;
}

/** The watcher's intervals unless told otherwise (each field's `@default`). */
export const DEFAULT_READ_INTERVALS: ReadIntervals = {
  minIntervalMs: 1000,
  maxIntervalMs: 10_000,
  followUpMs: 400,
  idleIntervalMs: 30_000,
  sharedIntervalMs: 20_000,
  firstOfKindMs: 2000,
  sharedFirstOfKindMs: 6000,
  backlogFirstOfKindMs: 10_000,
};

/** When a pod is expected to reach RUNNING, learned from pods of its kind. */
export interface DueWindow {
  readonly start: number;
  readonly end: number;
}

/**
 * How one wait wants to be read. `relaxed`: only a failure is news (a probe decides success), so
 * at the longest interval. `steady`: at the normal interval. `first`: a pod of a kind never seen
 * arrive, at the first-of-kind interval. `logged`: the same, while a pod's log is followed for its
 * container's start (start-signals.ts): at the idle interval, read for failures only, since the log
 * calls for the read that sees it run (`ReadState.started`). A due window: rarely before it starts,
 * at the shortest interval within it, and at the normal interval once the pod is late (the plan,
 * which counts reads at the longest interval, then holds the reads that find it).
 */
export type ReadPace = "relaxed" | "steady" | "first" | "logged" | DueWindow;

export interface ReadState {
  /**
   * The last read saw a pod change status (shared: reach its target): pods created together tend
   * to change together.
   */
  readonly followUp: boolean;
  /** A followed log said a container started since the last read: read now, the shortest interval after it. */
  readonly started: boolean;
  /** The interval the rate-limit budget can afford. */
  readonly affordable: number;
  /**
   * Other callers of the key draw on the same quota window (`RateLimitBudget.shared`): the reads
   * that creates leave are every caller's watcher's, so this one reads pods of a known kind only
   * when they are due (none before their due window, a few spread over it), the rest at the shared
   * interval, and follows up no sooner than the shortest interval.
   */
  readonly shared: boolean;
  /**
   * Foreground work waits for more than the quota window has left (`RateLimitBudget.backlogged`: a
   * fleet's creates): every read of a kind never seen arrive takes a create's place, so those are
   * read at the backlog first-of-kind interval, with no follow-up, and the plan counts them (the
   * budget then holds only those for the watcher, not its whole share).
   */
  readonly backlog: boolean;
  /**
   * How reads of a due pod are paced: at the shortest interval (`"shortest"`: the plan, what the
   * watcher wants the budget to hold for it, and the loop while the budget covers that plan), or
   * at what the budget affords, no sooner (`"affordable"`: the plan outgrew what the creates left,
   * which is spread to the window's reset).
   */
  readonly dueReads: "affordable" | "shortest";
}

/**
 * Shared, the reads of a due window: one each of this many steps into it (its width over this, no
 * shorter than the shortest interval), so the last is at its end. Each batch of pods of a kind then
 * learns a window this many times narrower than the one before.
 */
const SHARED_DUE_READS = 5;

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
  const next = state.started
    ? now
    : Math.min(...paces.map((pace) => wantedAt(pace, lastReadAt, now, state, intervals)));
  // Pods created a moment apart fall due a moment apart: one read serves them all.
  const soonest = state.followUp && !state.shared ? intervals.followUpMs : intervals.minIntervalMs;
  return Math.max(next, lastReadAt + soonest);
}

/** When one wait wants its next read. */
function wantedAt(
  pace: ReadPace,
  lastReadAt: number,
  now: number,
  state: ReadState,
  intervals: ReadIntervals,
): number {
  const shared = state.shared ? intervals.sharedIntervalMs : 0;
  if (pace === "relaxed") return lastReadAt + Math.max(intervals.maxIntervalMs, state.affordable, shared);
  const affordable = Math.max(intervals.minIntervalMs, state.affordable);
  const normal =
    lastReadAt +
    (state.shared ? Math.max(affordable, shared) : Math.min(affordable, intervals.maxIntervalMs));
  // A follow-up only ever brings a read sooner, and never sooner than the budget affords: in a
  // window the creates have filled, reads it did not plan would take the held reads of pods due later.
  const followUpAt =
    lastReadAt + Math.max(state.shared ? intervals.minIntervalMs : intervals.followUpMs, state.affordable);
  const followedUp = (otherwise: number) => (state.followUp ? Math.min(followUpAt, otherwise) : otherwise);
  if (pace === "steady") return followedUp(normal);
  // A change seen (placed: STARTING) says nothing of when the container starts; the log will.
  if (pace === "logged") return lastReadAt + Math.max(intervals.idleIntervalMs, state.affordable, shared);
  if (pace === "first") {
    const first = state.backlog
      ? Math.max(affordable, intervals.backlogFirstOfKindMs)
      : state.shared
        ? Math.max(affordable, intervals.sharedFirstOfKindMs)
        : Math.max(Math.min(affordable, intervals.maxIntervalMs), intervals.firstOfKindMs);
    return state.backlog ? lastReadAt + first : followedUp(lastReadAt + first);
  }
  if (state.shared) {
    if (now > pace.end) return followedUp(normal);
    // No read before the due window. Its start is when the last pod of the kind was last seen not
    // there yet, so the first read is a step into it; a wide window (learned from reads far apart)
    // gets a few reads, not one a second. The plan counts those steps, so a wait that ended calls
    // for a read no later than the next one.
    const step = Math.max(intervals.minIntervalMs, (pace.end - pace.start) / SHARED_DUE_READS);
    return Math.max(pace.start + step, followedUp(lastReadAt + step));
  }
  // Pods falling due one after another each start a window: the reads go at the due pace still, and
  // a change seen calls for no follow-up (the next pods' windows say when they are due).
  const due = lastReadAt + (state.dueReads === "affordable" ? affordable : intervals.minIntervalMs);
  if (now < pace.start) return Math.min(lastReadAt + intervals.idleIntervalMs, Math.max(pace.start, due));
  if (now <= pace.end) return due;
  return followedUp(normal);
}

/** Pods of one image on one GPU type (or CPU) in one data center take about as long to start. */
export function arrivalKind(pod: Pick<Pod, "image" | "gpu" | "dataCenterId">): string {
  return `${pod.image} ${pod.gpu?.id ?? "cpu"} ${pod.dataCenterId ?? ""}`;
}

/**
 * A pod's first start took longer than this only if it was started again later (`startedAt` is the
 * latest start): such a pod says nothing about how long its kind takes.
 */
const LONGEST_FIRST_START_MS = 30 * 60_000;

/**
 * How long `pod` took from create to RUNNING by the service's own clock (`startedAt` less
 * `createdAt`), free of this machine's clock and of when it was read; undefined when it is not
 * RUNNING, a time is missing or unreadable, or it took too long to be a first start.
 */
export function serviceStartTime(pod: Pick<Pod, "status" | "createdAt" | "startedAt">): number | undefined {
  if (pod.status !== "RUNNING" || !pod.startedAt) return undefined;
  const took = Date.parse(pod.startedAt) - Date.parse(pod.createdAt);
  return Number.isFinite(took) && took >= 0 && took <= LONGEST_FIRST_START_MS ? took : undefined;
}

/** Pods learned from are remembered by id up to this many. */
const MOST_LEARNED_IDS = 10_000;

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
  /** Pods whose start time has been learned, by id, so none counts twice. */
  private readonly learnedIds = new Set<string>();

  /** A pod of the account, not waited for, teaches how long its kind takes: once, when it runs. */
  learnFromPod(
    pod: Pick<Pod, "id" | "image" | "gpu" | "dataCenterId" | "status" | "createdAt" | "startedAt">,
  ): void {
    if (this.learnedIds.has(pod.id)) return;
    const took = serviceStartTime(pod);
    if (took === undefined) return;
    this.learned(pod.id);
    this.learn(arrivalKind(pod), took, took);
  }

  /** `podId`'s start time is learned (a pod waited for): the account's list teaches it no more. */
  learned(podId: string): void {
    if (this.learnedIds.size >= MOST_LEARNED_IDS) this.learnedIds.clear();
    this.learnedIds.add(podId);
  }

  /** A pod of `kind` was last read not RUNNING `lo` ms into its wait, and RUNNING `hi` ms in. */
  learn(kind: string, lo: number, hi: number): void {
    const kept = this.samples.get(kind) ?? [];
    kept.push({ lo, hi });
    this.samples.set(kind, kept.slice(-SAMPLES_KEPT));
  }

  /** Whether a pod of `kind` has been seen arrive. */
  knows(kind: string): boolean {
    return (this.samples.get(kind)?.length ?? 0) > 0;
  }

  /**
   * When pods of `kind` have reached RUNNING, counted from `since`: after the median of their last
   * misses, by the median of their first sightings (plus a second), over the narrower half of the
   * samples: a pod read seconds apart says more than one read far apart (a first pod of its kind
   * among other callers, read at the shared interval), and each batch of pods narrows the window.
   * Undefined until one has been seen.
   */
  dueWindow(kind: string, since: number): DueWindow | undefined {
    const samples = this.samples.get(kind);
    if (!samples || samples.length === 0) return undefined;
    const byWidth = [...samples].sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
    const narrow = byWidth.slice(0, Math.ceil(byWidth.length / 2));
    const start = since + median(narrow.map((x) => x.lo));
    return { start, end: Math.max(start, since + median(narrow.map((x) => x.hi))) + DUE_SLACK_MS };
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
