/**
 * The process-wide budget built on the RateLimit / RateLimit-Policy headers (docs/api-model.md, Limits):
 * rate-limit-headers.ts parses them, rate-limit-window.ts keeps each window's count. In a
 * `pulumi up` every dynamic resource runs in one provider process, so one budget per API origin and
 * key spaces every request of that process and keeps it inside the quota.
 */
import type { Clock } from "./clock.js";
import { parseRateLimitHeaders } from "./rate-limit-headers.js";
import type { BackgroundReader, BudgetSnapshot, BudgetTicket, RequestPriority } from "./rate-limit-types.js";
import { isShort, observedWindow, rolledOver, type WindowState } from "./rate-limit-window.js";

/**
 * `RUNPOD_DYNAMIC_DEBUG=ratelimit` prints the budget's decisions to stderr (what each answer's
 * headers left, each wait and why), so a user can tell why a deployment is pacing. Counts and
 * times only: nothing of a request or its key.
 */
function debug(line: () => string): void {
  if (!/(^|,)\s*ratelimit\s*(,|$)/.test(process.env.RUNPOD_DYNAMIC_DEBUG ?? "")) return;
  process.stderr.write(`runpod-dynamic ratelimit: ${line()}\n`);
}

/** Fraction of a window's quota below which background requests are spread out rather than sent at once. */
const LOW_WATER_FRACTION = 0.2;

/**
 * At most this part of a short window is held back from foreground work for the status watcher,
 * and only as much of it as the watcher says it will read before the window resets: one list
 * request serves every waiting pod, so a few reads a window keep detection prompt while creates
 * fill the quota.
 */
const BACKGROUND_SHARE = 0.2;

/**
 * The same among other deployments on the key, every caller's creates leaving it to all callers'
 * watchers: several watchers each read a kind never seen at the shared first-of-kind interval, and
 * four of them spent a fifth within half a window, the rest of their pods seen at its reset.
 */
const SHARED_BACKGROUND_SHARE = 0.3;

/**
 * The part of every window's quota a process leaves to the key's other callers unless told
 * otherwise: a tool that reads every ten seconds (a notebook, runpodctl in a loop, a CI job
 * starting) fits in it (docs/decisions.md, "Room for the neighbours").
 */
export const DEFAULT_SHARE_FOR_OTHERS = 0.1;

/**
 * Requests held for the reader beyond its plan: creates already in flight when the plan grows take
 * a request or two of what it holds, and a plan the budget no longer covers is read spread thin.
 */
const HELD_MARGIN = 2;

/** Answers after which requests no longer ramp up (one more in flight per answer until then). */
const SLOW_START = 32;

/** How often a request held until more answers are in looks again. */
const ANSWER_WAIT_MS = 25;

/** How often a foreground request held back for the watcher looks again (the watcher's plan shrinks as it reads). */
const HELD_RECHECK_MS = 1000;

/**
 * Spaces requests so the process stays inside every window's remaining quota instead of running
 * into 429s. At zero, every request waits for the window's reset. Below a window's low-water mark,
 * background requests are spread evenly until the reset. A 429's Retry-After pauses every request
 * of the process, not only the one that got it.
 *
 * The status watcher's reads are planned (`setBackgroundReader`): foreground work leaves that many
 * requests of a short window to it, up to BACKGROUND_SHARE, so a fleet's creates cannot starve the
 * one list request that tells every waiting pod it is RUNNING.
 *
 * Other processes may use the same key (several deployments at once). The headers count every
 * caller's requests, so headers showing more used since the window's first one than we sent since,
 * and than we had in flight then (answers out of order count some late), say another caller is
 * there. Two fresher headers in a row must say so, since one alone can be our own requests counted
 * at a window's edge, unless it shows more than such an edge could. Then, for two windows, a
 * request waits while as many are in flight as half our part of what is left (our part: what we
 * sent of what those headers show used), so the callers together take about what remains, answer
 * by answer, instead of each bursting the whole window at its reset. The first answers of a process
 * ramp up (one more in flight per answer) so a caller that starts beside others sees them before it
 * bursts, and so do the first requests of every window; once it has met another caller, or a 429,
 * no more are in flight than half of what is left.
 *
 * In a shared window every caller's creates draw on one count, so each leaves the whole share to
 * the watchers, and our watcher reads only when pods are due and no more often than one of several
 * callers may (`shared`, provider/host/read-schedule.ts): creates that left only our own watcher's
 * part would see it taken by the others' creates.
 */
export class RateLimitBudget {
  private readonly windows = new Map<string, WindowState>();
  private pausedUntil = 0;
  private inFlight = 0;
  /** Answers seen so far: until the first the quota is unknown, so one request probes it. */
  private answered = 0;
  private reader: BackgroundReader | undefined;
  /** Foreground requests waiting in `acquire`, the one asking included. */
  private queued = 0;
  /**
   * Whether another caller of the key has ever been seen, or a 429 answered: from then on no more
   * requests are in flight than half of what is left. A process that never met another caller
   * sends what the window has room for.
   */
  private contested = false;

  /**
   * @param shareForOthers the part of each window's quota never taken (0 to 0.5): the key's other
   * callers, which know nothing of this budget, find it there.
   */
  constructor(
    private readonly clock: Clock,
    private readonly shareForOthers = DEFAULT_SHARE_FOR_OTHERS,
  ) {}

  /**
   * Requests of `w` still left to the key's other callers: their part of its quota, less what the
   * headers showed them use of it already (a neighbour that has read its part leaves the rest of the
   * window to us). Among other deployments the whole part stays: it is also the cushion that lets
   * every caller, each with a request in flight, stop short of a 429. Others that used more than
   * the part are taken for a deployment already, before two headers agree on it.
   */
  private leftToOthers(w: WindowState, now: number): number {
    if (w.quota === undefined) return 0;
    const part = Math.floor(w.quota * this.shareForOthers);
    return now < w.sharedUntil || w.othersUsed > part ? part : part - w.othersUsed;
  }

  /** What this process may still take of `w`: what is left, less the others' part. */
  private room(w: WindowState, now: number): number {
    return w.remaining - this.leftToOthers(w, now);
  }

  /** Waits until a request may be sent without exceeding a known window, then reserves it. */
  async acquire(signal?: AbortSignal, priority: RequestPriority = "foreground"): Promise<BudgetTicket> {
    if (priority === "foreground") this.queued += 1;
    try {
      let said = "";
      for (;;) {
        signal?.throwIfAborted();
        const wait = this.waitNeeded(this.clock.now(), priority);
        if (wait <= 0) break;
        const why = this.describe();
        // A request held for a long while looks again every second: say so once, not every time.
        if (why !== said) debug(() => `wait ${Math.round(wait)} ms (${priority}); ${why}`);
        said = why;
        await this.clock.sleep(wait, signal);
      }
    } finally {
      if (priority === "foreground") this.queued -= 1;
    }
    const now = this.clock.now();
    for (const w of this.windows.values()) {
      w.remaining -= 1;
      w.ours += 1;
      w.lastGrantAt = now;
    }
    this.inFlight += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
      },
    };
  }

  /** Milliseconds to wait before the next request may go out; 0 when it may go now. */
  private waitNeeded(now: number, priority: RequestPriority = "foreground"): number {
    let wait = this.pausedUntil - now;
    // A burst of first requests must not all go out blind: the first answer says what is left,
    // and the next few say whether another caller is draining the same key. Until SLOW_START
    // answers are in, no more requests are in flight than answers have come back.
    if (this.answered < SLOW_START && this.inFlight >= Math.max(1, this.answered)) {
      wait = Math.max(wait, ANSWER_WAIT_MS);
    }
    for (const known of this.windows.values()) {
      const w = this.current(known, now);
      if (!Number.isFinite(w.remaining)) continue;
      const room = this.room(w, now);
      if (room <= 0) {
        wait = Math.max(wait, w.resetAt - now);
        continue;
      }
      const lowWater = w.quota === undefined ? 0 : Math.ceil(w.quota * LOW_WATER_FRACTION);
      const shared = now < w.sharedUntil;
      const held = this.held(w, now);
      // A window's first requests ramp up as a process's do: another caller may have begun it while
      // we waited for its reset (one we never saw: it started after our requests of the window
      // before, or a 429 was our only sign of it), and its answers show that before we burst into
      // what the others took.
      if (w.answers < SLOW_START && this.inFlight >= Math.max(1, w.answers)) {
        wait = Math.max(wait, ANSWER_WAIT_MS);
      }
      // Once contested, a caller has no more in flight than half of what it may take before answers
      // say how much is left now: not seeing the others now, what is left (they may be taking the
      // rest); with other callers, its part of what is left, above the watchers' reads for creates.
      // The callers' parts add up to what remains, the half is headroom for the ones it has not
      // seen, and nobody takes all of it at a reset.
      const planned = priority === "background" && this.reader !== undefined && room <= held;
      const mayTake = !shared ? room : (priority === "foreground" ? room - held : room) * w.part;
      if (this.contested && !planned && this.inFlight >= Math.max(1, Math.floor(mayTake / 2))) {
        wait = Math.max(wait, ANSWER_WAIT_MS);
      }
      // A watcher that plans its reads (setBackgroundReader) paces itself: its reads go when its
      // plan says, not spread.
      if (priority === "background" && room <= lowWater && !this.reader) {
        const spacing = (w.resetAt - now) / room;
        wait = Math.max(wait, w.lastGrantAt + spacing - now);
      }
      if (priority === "foreground" && held > 0 && this.holdsBack(room, held, shared, w.part)) {
        wait = Math.max(wait, Math.min(w.resetAt - now, HELD_RECHECK_MS));
      }
    }
    return Math.max(0, wait);
  }

  /**
   * Whether foreground work waits so that `held` requests of a window with `room` left to this
   * process stay for the watchers' reads. Alone, only a queue the window cannot take whole waits: a
   * fleet that fits goes now. Shared, a caller cannot see the others' queues (an engine hands
   * creates over a few at a time, so its own queue is no measure of them either): it waits once its
   * `part` of the room above the held reads is less than one request, since every other caller may
   * have one in flight by then.
   */
  private holdsBack(room: number, held: number, shared: boolean, part: number): boolean {
    if (shared) return (room - held) * part < 1;
    return room <= held && this.queued > room;
  }

  /**
   * Requests of `w` that foreground work must leave to the watchers' planned reads. Shared with
   * other callers, every caller's creates draw on the one count the headers show, and no caller
   * sees when the others' watchers will read: each leaves SHARED_BACKGROUND_SHARE while its own
   * watcher waits for pods, so that no caller's creates take what the others' watchers need (a
   * caller whose own pods are not due before the reset would otherwise take the reads of one whose
   * pods are).
   */
  private held(w: WindowState, now: number): number {
    if (!this.reader || !isShort(w)) return 0;
    if (now < w.sharedUntil) return Math.ceil(w.quota * SHARED_BACKGROUND_SHARE);
    const cap = Math.ceil(w.quota * BACKGROUND_SHARE);
    const planned = this.reader.plannedReads(now, w.resetAt);
    if (!Number.isFinite(planned)) return cap;
    return planned > 0 ? Math.min(cap, Math.ceil(planned) + HELD_MARGIN) : 0;
  }

  /**
   * Whether what this process may still take of each short window covers the background reader's
   * plan until the window resets: the reader then reads as it planned; when creates have left less
   * (its plan outgrew the held share), it spreads what is left (`affordableInterval`).
   */
  coversPlan(): boolean {
    const reader = this.reader;
    if (!reader) return true;
    const now = this.clock.now();
    return this.shortWindows(now).every((w) => reader.plannedReads(now, w.resetAt) <= this.room(w, now));
  }

  /**
   * Whether foreground requests wait for more than some short window has left to this process (a
   * fleet's creates): a read then takes a create's place, which the watcher weighs (ReadState.backlog).
   */
  backlogged(): boolean {
    const now = this.clock.now();
    return this.queued > 0 && this.shortWindows(now).some((w) => this.room(w, now) < this.queued);
  }

  /**
   * Whether other callers of the key draw on a short window now (seen in the headers): the
   * watcher then reads only when pods are due, and no more often than a caller among several may.
   */
  shared(): boolean {
    const now = this.clock.now();
    return this.shortWindows(now).some((w) => now < w.sharedUntil);
  }

  /** The short windows whose quota the headers told, as they stand at `now`. */
  private shortWindows(now: number): WindowState[] {
    return [...this.windows.values()].map((known) => this.current(known, now)).filter(isShort);
  }

  /**
   * The reader whose planned reads foreground work leaves to it, up to BACKGROUND_SHARE of each
   * short window (the status watcher while pods wait). Undefined when nothing waits.
   */
  setBackgroundReader(reader: BackgroundReader | undefined): void {
    this.reader = reader;
  }

  /** Updates the windows from a response's headers. Other requests still in flight are assumed uncounted. */
  observe(headers: { rateLimit?: string | undefined; policy?: string | undefined }): void {
    this.answered += 1;
    const now = this.clock.now();
    for (const header of parseRateLimitHeaders(headers.rateLimit, headers.policy).values()) {
      const prev = this.windows.get(header.name);
      const observed = observedWindow(prev, header, now, this.inFlight, this.answered, this.shareForOthers);
      const { state, suspectedExcess: excess } = observed;
      if (state) this.windows.set(header.name, state);
      if (state && now < state.sharedUntil) this.contested = true;
      if (excess !== undefined)
        debug(() => `${header.name}: ${excess} more used than we could have sent: another caller suspected`);
    }
    debug(() => `observed ${this.describe()}`);
  }

  /** Stops every request until `seconds` from now (a 429's Retry-After). */
  pauseFor(seconds: number): void {
    this.contested = true;
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + seconds * 1000);
    debug(() => `429: every request paused for ${seconds} s; ${this.describe()}`);
  }

  /** One line: each window's remaining quota and reset, requests in flight, a pause. */
  describe(): string {
    const snap = this.snapshot();
    const windows = snap.windows.map(
      (w) =>
        `${w.name} ${w.remaining}/${w.quota ?? "?"} left, resets in ${Math.ceil(w.resetInMs / 1000)} s` +
        (w.held > 0 ? `, ${w.held} held for status reads` : "") +
        (w.shared ? ", shared with other callers of the key: sent in parts" : ""),
    );
    return [
      ...(windows.length > 0 ? windows : ["quota not known yet"]),
      `${snap.inFlight} in flight`,
      ...(snap.pausedForMs > 0 ? [`paused ${Math.ceil(snap.pausedForMs / 1000)} s`] : []),
    ].join(", ");
  }

  snapshot(): BudgetSnapshot {
    const now = this.clock.now();
    return {
      windows: [...this.windows.values()].map((w) => ({
        name: w.name,
        remaining: w.remaining,
        resetInMs: Math.max(0, w.resetAt - now),
        quota: w.quota,
        held: this.held(w, now),
        shared: now < w.sharedUntil,
      })),
      pausedForMs: Math.max(0, this.pausedUntil - now),
      inFlight: this.inFlight,
    };
  }

  /**
   * Whether every known window has at least `fraction` of its quota left: room for requests that
   * are worth sending only when they take nothing from the work at hand (a pod's log stream).
   */
  hasSpare(fraction: number): boolean {
    const now = this.clock.now();
    if (now < this.pausedUntil) return false;
    for (const known of this.windows.values()) {
      const w = this.current(known, now);
      if (w.quota !== undefined && w.remaining < w.quota * fraction) return false;
    }
    return true;
  }

  /**
   * Milliseconds between polls that a periodic reader can afford: spreads what is left of the
   * tightest window over the time until it resets, keeping `reserve` requests for other work (but
   * never less than what foreground work holds back for the reader). A
   * long window (hour, day) is only looked at `horizonMs` ahead: a deployment polls for minutes,
   * and spreading a day's quota over the whole day would slow it down for nothing.
   */
  affordableInterval(reserve: number, horizonMs = 10 * 60_000): number {
    const now = this.clock.now();
    let interval = 0;
    for (const known of this.windows.values()) {
      const w = this.current(known, now);
      if (!Number.isFinite(w.remaining)) continue;
      // What foreground work leaves to the watcher is the watcher's to spend, reserve or not; what
      // is left to other callers is nobody's here.
      const room = this.room(w, now);
      // Shared, every caller's reader spends the same count: one whose creates wait affords its part
      // of it (its creates make that part). One with none waiting is watching what it created, which
      // the held share is for, and reads as its schedule's shared intervals say.
      const part = now < w.sharedUntil && this.queued > 0 ? w.part : 1;
      const usable = Math.max(room - reserve, Math.min(room, this.held(w, now))) * part;
      const left = w.resetAt - now;
      // Less than one read to the reset: the next at the reset, when the window is whole again.
      interval = Math.max(interval, usable > 0 ? Math.min(left, Math.min(left, horizonMs) / usable) : left);
    }
    return interval;
  }

  /** `w` as it stands at `now`: in its next window once its reset has passed. */
  private current(w: WindowState, now: number): WindowState {
    if (now < w.resetAt) return w;
    const next = rolledOver(w, now, this.inFlight);
    this.windows.set(w.name, next);
    return next;
  }
}
