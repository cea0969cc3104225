/**
 * One rate-limit window as the budget tracks it, and the arithmetic of its updates: what an answer's
 * headers make of it, and where it stands once its reset has passed. Pure functions: the budget
 * (rate-limit.ts) decides what to do with the windows.
 */
import type { RateLimitWindow } from "./rate-limit-headers.js";

export interface WindowState {
  name: string;
  remaining: number;
  resetAt: number;
  /** Whether `resetAt` was read from a header (an upper bound) or guessed at a rollover. */
  resetFromHeader: boolean;
  quota: number | undefined;
  windowMs: number | undefined;
  lastGrantAt: number;
  /** Answers whose headers told of this window: a window's first requests ramp up by them. */
  answers: number;
  /** Our requests granted since this window began, as far as we can tell where it began. */
  ours: number;
  /**
   * Until when other callers of the key are assumed to share this window: the headers showed more
   * used than we sent. Requests then go out a part at a time, as answers come back.
   */
  sharedUntil: number;
  /** Our part of what the headers show used of this window (1 when alone), at least MIN_PART. */
  part: number;
  /** The most a header has shown used of this window. */
  seenUsed: number;
  /**
   * Where we began counting this window: the first header's count (0 at a rollover), ours then,
   * and how many of ours were in flight then (that header may not count them yet).
   */
  base: { used: number; ours: number; inFlight: number };
  /**
   * Whether the freshest header showed more used than we could have caused: if the next does too,
   * another caller is there.
   */
  suspect: boolean;
  /**
   * The most the headers have shown other callers use of this window since its first header: never
   * more than they used, since ours sent since and ours then in flight are taken off.
   */
  othersUsed: number;
}

/**
 * Requests a header may show used beyond all we could have caused before we suspect another
 * caller: our own requests near a window's edge can count in a window we have not begun yet.
 */
const SHARED_TOLERANCE = 3;

/**
 * Beyond this part of a window's quota, one header's excess is another caller's without waiting
 * for the next header to agree. A window's edge misplaces the few requests sent within the second
 * its reset time is rounded to, never a quarter of the window; and a caller that takes that much
 * between two of our answers is bursting, which is what sharing is for: waiting one more answer
 * would let us burst into it too.
 */
const CONCLUSIVE_EXCESS_FRACTION = 0.25;

/** Windows longer than this (hour, day) are long: a deployment lives within minutes of one. */
const SHORT_WINDOW_MS = 10 * 60_000;

/** A window whose quota the headers told, of a length a deployment lives within (long ones hold nothing back). */
export function isShort<W extends Pick<WindowState, "quota" | "windowMs">>(
  w: W,
): w is W & { quota: number; windowMs: number } {
  return w.quota !== undefined && w.windowMs !== undefined && w.windowMs <= SHORT_WINDOW_MS;
}

/** The smallest part of a shared window we count as ours when sizing what the watcher may hold. */
const MIN_PART = 1 / 8;

/**
 * The window `header` describes, given what we knew of it (`prev`), how many of our requests are
 * in flight (the one answered included), how many answers the process has had (a window first
 * told of is as far ramped up as the process) and the part of the window left to the key's other
 * callers (`shareForOthers`: their use within it is no sign of another deployment): undefined while
 * the headers never said what is left.
 * `suspectedExcess` is how many more a fresher header showed used than we could have sent, when
 * that makes another caller suspected but not yet seen.
 */
export function observedWindow(
  prev: WindowState | undefined,
  header: RateLimitWindow,
  now: number,
  inFlight: number,
  answered: number,
  shareForOthers = 0,
): { state: WindowState | undefined; suspectedExcess: number | undefined } {
  const quota = header.quota ?? prev?.quota;
  const windowMs = header.windowSeconds !== undefined ? header.windowSeconds * 1000 : prev?.windowMs;
  if (header.remaining === undefined || header.resetSeconds === undefined) {
    return { state: prev && { ...prev, quota, windowMs }, suspectedExcess: undefined };
  }
  // Other requests still in flight are assumed uncounted.
  const othersInFlight = Math.max(0, inFlight - 1);
  const resetAt = now + header.resetSeconds * 1000;
  const remaining = header.remaining - othersInFlight;
  // Responses arrive out of order; within one window the lowest count is the freshest. Every
  // header's reset time (rounded up to whole seconds) is an upper bound, so the lowest one is
  // the best; a reset time guessed at a rollover is replaced by the first header, since the
  // service may start its next window only with the next request.
  const sameWindow = prev !== undefined && Math.abs(prev.resetAt - resetAt) < 1500;
  // A window the service began since we last counted holds at most our requests in flight.
  const ours = prev === undefined ? 1 : sameWindow ? prev.ours : Math.min(prev.ours, inFlight + 1);
  // Every caller's requests count in the header: what it shows used since the window's first
  // header beyond what we sent since, and beyond those of ours then in flight (that header may
  // not have counted them: answers come out of order), is theirs. (Counting from the window's
  // start instead would take a deployment that ran before us in it, and ended, for one running.)
  const used = quota === undefined ? 0 : quota - header.remaining;
  const fresher = sameWindow && used > prev.seenUsed;
  const base = sameWindow ? prev.base : { used, ours, inFlight };
  const excess = fresher ? used - base.used - (ours - base.ours) - base.inFlight : 0;
  // Only a fresher header is evidence, either way: an older one arriving late says nothing new.
  // One header's excess is a suspicion, which the next fresher one confirms or clears.
  // What we leave to the key's other callers is theirs to use: a tool reading now and then within
  // it is expected, not another deployment to share the rest with.
  const allowance = quota === undefined ? 0 : Math.floor(quota * shareForOthers);
  const seen = fresher && excess > SHARED_TOLERANCE + allowance;
  const conclusive = quota !== undefined && excess > quota * CONCLUSIVE_EXCESS_FRACTION;
  const others = seen && (prev.suspect || conclusive);
  // The process's first answer showing others took more than a quarter of a short window: a caller
  // bursting there, most likely still running (several deployments started together). Not counted
  // as its use of the window (that began before ours), but the window is shared: otherwise this
  // process takes the next one whole at its reset, the others' watchers' reads with it.
  const told = { quota, windowMs };
  const begunByOthers =
    prev === undefined &&
    answered === 1 &&
    isShort(told) &&
    used - inFlight > told.quota * CONCLUSIVE_EXCESS_FRACTION;
  const sharedUntil = others || begunByOthers ? now + 2 * (windowMs ?? 60_000) : (prev?.sharedUntil ?? 0);
  // Our part counts only what this header can have counted of ours (those in flight at the first
  // header but the one it answered, less those in flight now): every caller has requests in flight,
  // and counting ours in flight but not theirs makes each caller's part larger than it is, so the
  // parts add up to more than the window and the callers' creates take their watchers' reads.
  const oursCounted = ours - base.ours + Math.max(0, base.inFlight - 1) - othersInFlight;
  const part = others ? Math.max(MIN_PART, Math.max(0, oursCounted) / (used - base.used)) : (prev?.part ?? 1);
  return {
    state: {
      name: header.name,
      remaining: sameWindow ? Math.min(prev.remaining, remaining) : remaining,
      resetAt: sameWindow && prev.resetFromHeader ? Math.min(prev.resetAt, resetAt) : resetAt,
      resetFromHeader: true,
      quota,
      windowMs,
      lastGrantAt: prev?.lastGrantAt ?? 0,
      answers: sameWindow ? prev.answers + 1 : prev === undefined ? answered : 1,
      ours,
      sharedUntil,
      part,
      seenUsed: sameWindow ? Math.max(prev.seenUsed, used) : used,
      base,
      suspect: fresher ? seen : sameWindow && prev.suspect,
      othersUsed: Math.max(sameWindow ? prev.othersUsed : 0, excess),
    },
    suspectedExcess: seen && !others ? excess : undefined,
  };
}

/** `w` once its reset has passed at `now`, with `inFlight` of our requests still out. */
export function rolledOver(w: WindowState, now: number, inFlight: number): WindowState {
  if (w.quota !== undefined && w.windowMs !== undefined) {
    const periods = Math.floor((now - w.resetAt) / w.windowMs) + 1;
    return {
      ...w,
      // Requests still in flight may reach the service after its reset and count in the new window.
      remaining: w.quota - inFlight,
      answers: 0,
      ours: inFlight,
      seenUsed: 0,
      // Those in flight count in `ours` already.
      base: { used: 0, ours: 0, inFlight: 0 },
      suspect: false,
      othersUsed: 0,
      resetAt: w.resetAt + periods * w.windowMs,
      resetFromHeader: false,
    };
  }
  // Without a policy we know nothing about the next window: let requests through until a
  // response tells us again.
  return { ...w, remaining: Number.POSITIVE_INFINITY, resetAt: Number.POSITIVE_INFINITY };
}
