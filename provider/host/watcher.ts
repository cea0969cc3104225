/**
 * One process-wide watcher for every pod that is waiting for a status.
 *
 * Tools that poll each pod on its own burn the per-user quota: 50 pods polled every second is 50
 * requests a second. Here, when several pods wait, one `GET /v2/pods` serves all of them; a lone
 * pod is read with `GET /v2/pods/{id}`. The interval adapts: it never goes below what the
 * rate-limit budget can afford while leaving room for creates, it wakes when a spent quota window
 * resets, it reads again soon after seeing pods change status (pods created together tend to
 * change together), and it never sleeps past the earliest deadline. Polls are background requests:
 * when the quota runs low they yield to creates and deletes.
 *
 * Pods of one kind (image, GPU type, data center) take about as long from create to RUNNING. The
 * watcher learns that time from the pods it has seen arrive and from the pods of the kind already on
 * the account (the first read of a pod of a kind it does not know is a list read, to see them),
 * then reads rarely while the pods it waits for cannot be ready yet and every second while they are
 * due. A pod of a kind nobody has seen arrive is read every few seconds, not as often as the
 * budget affords: its arrival teaches the time of the rest. When the account runs none of its kind
 * either, one such pod's log is followed instead (start-signals.ts), and the status is read when
 * the log says the container started. It tells the
 * rate-limit budget how many reads that plan needs (it is the budget's `BackgroundReader`), and
 * creates leave those to it: in a fleet that fills the quota, the pods still get seen RUNNING within
 * a second or two of getting there. With other callers on the key (`RateLimitBudget.shared`), what
 * creates leave is every caller's watcher's: it reads pods only when they are due, a few reads over
 * the time they are expected. When it reads is one function (read-schedule.ts) for the loop and
 * the plan alike.
 */
import type { RunpodApi } from "../client/api.js";
import type { Clock } from "../client/clock.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { RateLimitBudget } from "../client/rate-limit.js";
import type { BackgroundReader } from "../client/rate-limit-types.js";
import type { Pod, PodLogLine, PodStatus } from "../client/schemas/pods.js";
import {
  ArrivalTimes,
  DEFAULT_READ_INTERVALS,
  nextReadAt,
  type ReadIntervals,
  type ReadPace,
  serviceStartTime,
} from "./read-schedule.js";
import { StartSignals, type UnknownKindWait } from "./start-signals.js";
import { WaitFailure } from "./wait-failure.js";
import { type Waiter, type WaitTarget, waitOutcome } from "./waiter.js";

export interface WatcherOptions extends ReadIntervals {
  /** Requests of the current rate-limit window left for other work (creates, deletes). @default 5 */
  readonly reserve: number;
}

const DEFAULTS: WatcherOptions = { ...DEFAULT_READ_INTERVALS, reserve: 5 };

/**
 * A service start time (`serviceStartTime`) of a pod waited for is believed when it is at most this
 * much longer than the watcher saw (the create's answer took that long at most to come back).
 */
const CREATE_ANSWER_SLACK_MS = 5000;

/** The most reads `plannedReads` counts: a plan beyond it is as good as reading all the time. */
const MOST_PLANNED_READS = 1000;

/** Reads held for a followed log's signal: the read it calls for, and the due reads of its batch after. */
const START_READS = 3;

export class PodWatcher implements BackgroundReader {
  private readonly waiters = new Set<Waiter>();
  private readonly options: WatcherOptions;
  private loop: Promise<void> | undefined;
  private wake: AbortController | undefined;
  private closed = false;
  private readonly arrivals = new ArrivalTimes();
  /** Kinds whose pods on the account were looked for (a list read), so a lone pod's reads are by id after. */
  private readonly kindsLookedUp = new Set<string>();
  private lastReadAt = Number.NEGATIVE_INFINITY;
  /** Kinds never seen arrive whose pod's log is followed, and whether one said its container started. */
  private readonly starts: StartSignals;
  private startSignalled = false;

  constructor(
    private readonly api: RunpodApi,
    private readonly clock: Clock,
    /** The budget of the API the reads go to: it paces them and is told the plan. */
    private readonly budget: RateLimitBudget,
    options: Partial<WatcherOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const signalled = (started: boolean) => {
      if (started) this.startSignalled = true;
      this.wake?.abort();
    };
    this.starts = new StartSignals(api, signalled, (podId, line) => {
      for (const w of this.waiters) if (w.podId === podId) w.logLines?.(line);
    });
  }

  /** Resolves with the pod once it reaches `target` (undefined for GONE); rejects with a WaitFailure. */
  waitFor(request: {
    podId: string;
    target: WaitTarget;
    timeoutMs: number;
    onStatus?: (status: PodStatus, pod: Pod) => void;
    /** Called with the pod at every read, changed or not. */
    onRead?: (pod: Pod) => void;
    /** The pod belongs to an instant cluster. @default false */
    clusterMember?: boolean;
    /** With target RUNNING: also wait until this holds for the pod as read. */
    until?: (pod: Pod) => boolean;
    /** Ends the wait early: it rejects with the signal's reason. */
    signal?: AbortSignal;
    /**
     * Only a failure (ERROR, EXITED, gone) is news, because something else decides success (a
     * readiness probe that goes to the pod): when every waiter is relaxed, reads come at the
     * longest interval. @default false
     */
    relaxed?: () => boolean;
    /**
     * What kind of pod this is (image, GPU type, data center) when it was just created: its time
     * to RUNNING is learned and predicts the next pod's of that kind.
     */
    kind?: string;
    /** Lines of the pod's log, when the watcher reads it (a kind never seen arrive); without it, never. */
    logLines?: (line: PodLogLine) => void;
  }): Promise<Pod | undefined> {
    return new Promise((resolve, reject) => {
      if (request.signal?.aborted) {
        reject(request.signal.reason);
        return;
      }
      const since = this.clock.now();
      const waiter: Waiter = {
        podId: request.podId,
        target: request.target,
        clusterMember: request.clusterMember ?? false,
        deadline: this.clock.now() + request.timeoutMs,
        onStatus: request.onStatus,
        onRead: request.onRead,
        until: request.until,
        relaxed: request.relaxed ?? (() => false),
        logLines: request.logLines,
        kind: request.kind,
        since,
        lastMissAt: since,
        seenRunning: false,
        lastStatus: undefined,
        lastPod: undefined,
        resolve,
        reject,
      };
      this.waiters.add(waiter);
      request.signal?.addEventListener(
        "abort",
        () => {
          if (this.waiters.delete(waiter)) reject(request.signal?.reason);
        },
        { once: true },
      );
      this.loop ??= this.run().finally(() => {
        this.loop = undefined;
        this.starts.update([]);
        this.budget.setBackgroundReader(undefined);
      });
    });
  }

  /** Stops polling; pending waits fail. */
  close(): void {
    this.closed = true;
    this.starts.close();
    this.wake?.abort();
    for (const w of this.waiters) {
      w.reject(new WaitFailure(w.podId, "CLOSED", w.lastStatus, w.lastPod, "the pod watcher was closed"));
    }
    this.waiters.clear();
  }

  /**
   * Sleep, read, evaluate, until nobody waits. The first read comes one interval after the first
   * waiter arrived: a pod just created is PROVISIONING, so reading it at once would be wasted.
   */
  private async run(): Promise<void> {
    let seen = { changed: 0, ended: 0 };
    this.budget.setBackgroundReader(this);
    this.lastReadAt = this.clock.now();
    while (this.waiters.size > 0 && !this.closed) {
      this.starts.update(this.unknownKindWaits());
      const now = this.clock.now();
      const earliest = Math.min(...[...this.waiters].map((w) => w.deadline));
      const affordable = this.budget.affordableInterval(this.options.reserve);
      const paces = [...this.waiters].map((w) => this.readPace(w));
      const shared = this.budget.shared();
      // Shared, only a wait that ended is worth a read soon after: a status on the way (STARTING)
      // says nothing about when the pods get there.
      const followUp = (shared ? seen.ended : seen.changed) > 0;
      const dueReads = this.budget.coversPlan() ? "shortest" : "affordable";
      const backlog = this.budget.backlogged();
      const started = this.startSignalled;
      const state = { followUp, started, affordable, shared, backlog, dueReads } as const;
      const next = Math.min(earliest, nextReadAt(this.lastReadAt, now, paces, state, this.options));
      this.wake = new AbortController();
      const woken = await this.clock.sleep(Math.max(0, next - now), this.wake.signal).then(
        () => false,
        () => true,
      );
      this.wake = undefined;
      if (this.closed) return;
      // A log's signal: the schedule, which now knows of it, says when to read.
      if (woken) continue;
      this.startSignalled = false;
      try {
        seen = await this.poll();
      } catch (err) {
        if (
          isRunpodApiError(err, ERROR_CODES.UNAUTHORIZED, ERROR_CODES.FORBIDDEN, ERROR_CODES.INVALID_CONFIG)
        ) {
          for (const w of this.waiters) w.reject(err);
          this.waiters.clear();
          return;
        }
        // The client owns retries of the read: the next one follows the schedule, until the deadlines.
        seen = { changed: 0, ended: 0 };
      }
      this.expire();
    }
  }

  /** How `w` wants to be read: by when pods of its kind are due, while it waits for one to run. */
  private readPace(w: Waiter): ReadPace {
    if (w.relaxed()) return "relaxed";
    if (w.target !== "RUNNING" || w.kind === undefined || w.seenRunning) return "steady";
    const due = this.arrivals.dueWindow(w.kind, w.since);
    if (due) return due;
    return this.starts.signal(w.kind) === "following" ? "logged" : "first";
  }

  /** Waits of a kind never seen arrive that the account runs none of: a pod's log may say when they start. */
  private unknownKindWaits(): UnknownKindWait[] {
    return [...this.waiters].flatMap((w) =>
      w.target === "RUNNING" &&
      w.logLines !== undefined &&
      w.kind !== undefined &&
      !w.seenRunning &&
      !this.arrivals.knows(w.kind) &&
      this.kindsLookedUp.has(w.kind)
        ? [{ podId: w.podId, kind: w.kind }]
        : [],
    );
  }

  /**
   * The reads this watcher plans in [from, to): what the rate-limit budget holds back from creates
   * for it. It steps through the schedule the loop follows (`nextReadAt`), and differs from the
   * loop only where it cannot see ahead, here:
   * - Infinity while some pod's time is unknown (a RUNNING wait of a kind never seen arrive): its
   *   reads depend on what the budget affords; unless creates wait for room (`backlogged`), when
   *   such a pod is read at a fixed interval the plan can count;
   * - a pod past its due window is read at the longest interval: it arrives a little late as
   *   often as a little early, or was missed by reads the budget spread, and the plan must hold the
   *   reads that find it;
   * - no follow-up reads: which read will see a change is not known ahead; but a followed log
   *   (`logged`) may call for a read at any moment, and the plan holds START_READS for it;
   * - the reads the budget paces (relaxed waits; waits for a pod to go, stop or be placed) are
   *   counted at the longest interval: what the budget affords depends on this plan.
   */
  plannedReads(from: number, to: number): number {
    if (this.waiters.size === 0) return 0;
    const backlog = this.budget.backlogged();
    const paces = new Map<string, ReadPace>();
    for (const w of this.waiters) {
      const pace = this.readPace(w);
      if ((pace === "first" && !backlog) || (pace === "steady" && w.target === "RUNNING")) {
        return Number.POSITIVE_INFINITY;
      }
      // Equal paces (pods of one kind created together) step as one.
      paces.set(typeof pace === "object" ? `${pace.start}:${pace.end}` : pace, pace);
    }
    const distinct = [...paces.values()];
    const state = {
      followUp: false,
      started: false,
      affordable: this.options.maxIntervalMs,
      shared: this.budget.shared(),
      backlog,
      dueReads: "shortest",
    } as const;
    let reads = 0;
    const started = paces.has("logged") ? START_READS : 0;
    for (let t = Math.max(from, this.lastReadAt); reads <= MOST_PLANNED_READS; reads += 1) {
      const next = nextReadAt(t, t, distinct, state, this.options);
      if (next >= to) return reads + started;
      t = next;
    }
    return Number.POSITIVE_INFINITY;
  }

  /**
   * One read for every waiter: how many pods were seen in a new status, and how many waits ended.
   * The read counts as made when its answer came, not when it was asked for: a read the budget held
   * until a window's reset is followed by the next one an interval later, not at once.
   */
  private async poll(): Promise<{ changed: number; ended: number }> {
    const waiters = [...this.waiters];
    const pods = await this.read(waiters).finally(() => {
      this.lastReadAt = this.clock.now();
    });
    const readAt = this.lastReadAt;
    const waitedFor = new Set(waiters.map((w) => w.podId));
    for (const pod of pods.others) if (!waitedFor.has(pod.id)) this.arrivals.learnFromPod(pod);
    const seen = { changed: 0, ended: 0 };
    for (const w of waiters) {
      const waiting = this.waiters.has(w);
      if (this.evaluate(w, pods.byId(w.podId), readAt)) seen.changed += 1;
      if (waiting && !this.waiters.has(w)) seen.ended += 1;
    }
    return seen;
  }

  /**
   * The pods `waiters` wait for, by id: one pod read alone, several with one list; and the other
   * pods the read showed. A lone pod of a kind not yet looked for is read with the list too: the
   * account's pods of its kind may say when it is due.
   */
  private async read(
    waiters: readonly Waiter[],
  ): Promise<{ byId: (id: string) => Pod | undefined; others: readonly Pod[] }> {
    const lone = new Set(waiters.map((w) => w.podId)).size === 1;
    const unknownKinds = waiters.flatMap((w) =>
      w.kind !== undefined && !this.arrivals.knows(w.kind) && !this.kindsLookedUp.has(w.kind) ? [w.kind] : [],
    );
    if (lone && unknownKinds.length === 0) {
      let pod: Pod | undefined;
      try {
        pod = await this.api.pods.get(waiters[0]?.podId ?? "", { priority: "background" });
      } catch (err) {
        if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
      }
      return { byId: () => pod, others: [] };
    }
    const includeClusterPods = waiters.some((w) => w.clusterMember);
    const list = await this.api.pods.list(includeClusterPods ? { includeClusterPods } : {}, {
      priority: "background",
    });
    for (const kind of unknownKinds) this.kindsLookedUp.add(kind);
    const byId = new Map(list.map((p) => [p.id, p]));
    return { byId: (id) => byId.get(id), others: list };
  }

  /**
   * Applies one observation; true when it changed something (a new status, or the wait ended). An
   * absent pod has been deleted (the list drops TERMINATED pods).
   */
  private evaluate(w: Waiter, pod: Pod | undefined, readAt: number): boolean {
    if (!this.waiters.has(w)) return false;
    const status: PodStatus | undefined = pod?.status;
    if (status === "RUNNING" && !w.seenRunning) {
      w.seenRunning = true;
      if (w.kind !== undefined && w.target === "RUNNING" && pod) {
        // The service's own times say when it got there; the reads only that it was between two.
        const took = serviceStartTime(pod);
        const believed = took !== undefined && took <= readAt - w.since + CREATE_ANSWER_SLACK_MS;
        if (believed) this.arrivals.learn(w.kind, took, took);
        else this.arrivals.learn(w.kind, w.lastMissAt - w.since, readAt - w.since);
        this.arrivals.learned(w.podId);
      }
    } else if (status !== "RUNNING") {
      w.lastMissAt = readAt;
    }
    const moved = w.lastStatus !== undefined && status !== w.lastStatus;
    if (pod && status !== w.lastStatus) w.onStatus?.(pod.status, pod);
    if (pod) w.onRead?.(pod);
    if (pod) {
      w.lastStatus = pod.status;
      w.lastPod = pod;
    }
    const outcome = waitOutcome(w, pod);
    if (outcome === "waiting") return moved;
    this.waiters.delete(w);
    if ("done" in outcome) w.resolve(outcome.done);
    else w.reject(new WaitFailure(w.podId, outcome.reason, w.lastStatus, w.lastPod, outcome.message));
    return true;
  }

  private expire(): void {
    const now = this.clock.now();
    for (const w of [...this.waiters]) {
      if (now < w.deadline) continue;
      this.waiters.delete(w);
      w.reject(
        new WaitFailure(
          w.podId,
          "TIMEOUT",
          w.lastStatus,
          w.lastPod,
          `pod ${w.podId} did not reach ${w.target} in time (last status ${w.lastStatus ?? "unknown"})`,
        ),
      );
    }
  }
}
