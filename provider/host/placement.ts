/**
 * Placement: a create places exactly one GPU type in one data center, and the service neither
 * searches for capacity nor falls back (docs/api-model.md, What the service does, 3). The provider walks an
 * ordered list of (data center, GPU type) candidates, one create per candidate, reacting to each
 * status as the contract's Errors table says.
 */

import type { PlacementCandidate } from "../catalog/candidates.js";
import type { RunpodApi } from "../client/api.js";
import type { Clock } from "../client/clock.js";
import { resendBackoffMs, settling, waitUntil } from "../client/create-once.js";
import {
  ERROR_CODES,
  isCapacityError,
  isRunpodApiError,
  mayHaveLanded,
  messageOf,
  RunpodApiError,
  type RunpodErrorCode,
} from "../client/errors.js";
import type { CreatePodRequest, Pod } from "../client/schemas/pods.js";

/** One candidate's outcome, for the report. */
export interface PlacementAttempt {
  readonly candidate: PlacementCandidate;
  /** The HTTP status; or what went wrong without one: a broken connection, the deadline, a 2xx body that could not be read. */
  readonly status: number | "network" | "timeout" | "unreadable";
  readonly detail: string;
  /** A 400 whose detail says the data center has no machine for the request. */
  readonly capacity?: boolean;
  /**
   * For a create that went unanswered and whose pod was not found: the wall-clock time after which
   * it is taken to have landed or died (Date.now() scale). A pod it makes later is a duplicate.
   */
  readonly settlesAt?: number;
  /** What placement does after this answer, as progress says it ("trying the next candidate"). */
  readonly next?: string;
}

export function describeCandidate(c: PlacementCandidate): string {
  return `${c.dataCenterId ?? "any data center"}${c.gpuTypeId ? ` / ${c.gpuTypeId}` : ""}`;
}

/** The candidates, each once, in the order tried; one tried several times says how often. */
function where(attempts: readonly PlacementAttempt[]): string {
  const times = new Map<string, number>();
  for (const a of attempts) {
    const c = describeCandidate(a.candidate);
    times.set(c, (times.get(c) ?? 0) + 1);
  }
  return [...times].map(([c, n]) => (n > 1 ? `${c} (${n} times)` : c)).join(", ");
}

/**
 * Every attempt, grouped by answer: one line per distinct answer naming the candidates that gave
 * it, so twelve candidates refused in the service's one sentence read as one entry, not twelve.
 */
function report(attempts: readonly PlacementAttempt[]): string {
  const byAnswer = new Map<string, PlacementAttempt[]>();
  for (const a of attempts) {
    const answer = `${a.status} ${a.detail}`;
    byAnswer.set(answer, [...(byAnswer.get(answer) ?? []), a]);
  }
  return [...byAnswer].map(([answer, group]) => `${where(group)}: ${answer}`).join("; ");
}

/**
 * Why placement failed, with every candidate tried. Its code is always RUNPOD_PLACEMENT_FAILED;
 * the decisive answer's code (a 402's, the last 400's) is `answerCode`, and its status and detail
 * are this error's.
 */
export class PlacementError extends RunpodApiError {
  /** The code of the answer that decided the failure. */
  readonly answerCode: RunpodErrorCode;
  constructor(
    base: RunpodApiError | undefined,
    message: string,
    readonly tried: readonly PlacementAttempt[],
  ) {
    super({
      code: ERROR_CODES.PLACEMENT_FAILED,
      message,
      status: base?.status,
      title: base?.title,
      detail: base?.detail,
      errors: base?.errors,
      outcome: "rejected",
      attempts: base?.attempts,
    });
    this.answerCode = base?.code ?? ERROR_CODES.BAD_REQUEST;
  }
}

/** Whether an error is a PlacementError, by its code (works across module copies). */
export function isPlacementError(err: unknown): err is PlacementError {
  return isRunpodApiError(err, ERROR_CODES.PLACEMENT_FAILED);
}

export interface PlacementContext {
  readonly api: RunpodApi;
  /** The service's clock: what a found pod's `createdAt` is compared with, and what backoff sleeps on. */
  readonly clock: Clock;
  /** Ids this process already owns; an ambiguous create never adopts one of them. */
  readonly claimed: Set<string>;
  readonly onAttempt?: (attempt: PlacementAttempt) => void;
  /** An unanswered create whose pod was found: it is taken, nothing is created again. */
  readonly onFound?: (attempt: PlacementAttempt, pod: Pod) => void;
  /** Recognises the pod an unanswered create of this resource made: its create key. */
  readonly isOwnPod: (pod: Pod) => boolean;
}

/** Retries of one candidate after a 5xx or an unknown outcome. */
const RETRIES_PER_CANDIDATE = 3;

/** Whether an attempt went unanswered and may have created a pod nobody heard about. */
export function wasAmbiguous(attempt: PlacementAttempt): boolean {
  return attempt.settlesAt !== undefined;
}

/**
 * A pod this process created but never heard back about: the newest carrying this resource's
 * create key that no resource of this process owns. Nothing else is ever taken for it: a pod of
 * the same name may be another stack's.
 */
export async function findUnacknowledged(ctx: PlacementContext): Promise<Pod | undefined> {
  const pods = await ctx.api.pods.list();
  const newestFirst = (a: Pod, b: Pod) => Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return pods.filter((p) => ctx.isOwnPod(p) && !ctx.claimed.has(p.id)).sort(newestFirst)[0];
}

/** Where placement ended: the pod, every refused attempt before it, and the candidate that took it. */
export interface Placed {
  readonly pod: Pod;
  readonly attempts: PlacementAttempt[];
  readonly candidate: PlacementCandidate;
}

/**
 * Walks the candidates until one create answers 201 (docs/api-model.md, Errors):
 * 400 next candidate; 402 stop; 403 skip; 404/413/422 fail at once; 429 is waited out by the
 * client; 5xx and unknown outcomes (reset, timeout) first look the pod up by its create key so a
 * create is never doubled, then retry the same candidate with backoff; a create that
 * could not be sent at all, after the client's retries, stops (docs/retries.md).
 */
export async function placePod(
  ctx: PlacementContext,
  body: CreatePodRequest,
  candidates: readonly PlacementCandidate[],
): Promise<Placed> {
  const walk = new Walk(ctx);
  for (const [index, candidate] of candidates.entries()) {
    const moveOn = index < candidates.length - 1 ? "trying the next candidate" : "no candidate is left";
    const pod = await tryCandidate(ctx, walk, candidate, bodyFor(body, candidate), moveOn);
    if (pod) return { pod, attempts: walk.attempts, candidate };
  }
  throw walkFailed(walk, ctx.api.client.settings.configNamespace);
}

/** What a walk has heard so far: each attempt (reported as it is made) and the answers that decide its failure. */
class Walk {
  readonly attempts: PlacementAttempt[] = [];
  /** The last 400, which decides a walk every candidate refused. */
  last400: RunpodApiError | undefined;
  /** The last error of any kind. */
  last: RunpodApiError | undefined;
  constructor(private readonly ctx: PlacementContext) {}

  record(attempt: PlacementAttempt): void {
    this.attempts.push(attempt);
    this.ctx.onAttempt?.(attempt);
  }
}

/** The create's body pinned to one candidate's data center and GPU type. */
function bodyFor(body: CreatePodRequest, candidate: PlacementCandidate): CreatePodRequest {
  return {
    ...body,
    ...(candidate.dataCenterId ? { dataCenterIds: [candidate.dataCenterId] } : {}),
    ...(candidate.gpuTypeId && body.gpu ? { gpu: { ...body.gpu, id: candidate.gpuTypeId } } : {}),
  };
}

/**
 * What a failed create means for the walk, by the contract's Errors table: this candidate refused
 * (400) or is not open to the key (403), so the next is tried; the balance is out (402), so none
 * can succeed; the request may have landed (5xx, reset, timeout, unreadable 2xx), so the pod is
 * looked for before the candidate is tried again; it never left this process, after the client's
 * retries; or the request itself is wrong (401, 404, 413, 422, a local validation failure, an
 * exhausted 429 wait), so every candidate would answer the same.
 */
type Meaning = "refused" | "no access" | "balance exhausted" | "unanswered" | "not sent" | "request is wrong";

function meaningOf(err: RunpodApiError): Meaning {
  switch (err.code) {
    case ERROR_CODES.BAD_REQUEST:
      return "refused";
    case ERROR_CODES.FORBIDDEN:
      return "no access";
    case ERROR_CODES.PAYMENT_REQUIRED:
      return "balance exhausted";
    case ERROR_CODES.SERVER_ERROR:
    case ERROR_CODES.NETWORK:
    case ERROR_CODES.TIMEOUT:
    case ERROR_CODES.INVALID_RESPONSE:
      return mayHaveLanded(err) ? "unanswered" : "not sent";
    default:
      return "request is wrong";
  }
}

/** An attempt's status for the report: the HTTP status, or what went wrong without one. */
function statusOf(err: RunpodApiError): PlacementAttempt["status"] {
  if (err.status !== undefined) return err.status;
  if (err.code === ERROR_CODES.TIMEOUT) return "timeout";
  if (err.code === ERROR_CODES.INVALID_RESPONSE) return "unreadable";
  return "network";
}

/**
 * Creates the pod on one candidate, sending again after an unanswered create whose pod is not
 * found (at most RETRIES_PER_CANDIDATE times). The pod, when it was created or found; undefined
 * when the walk moves on; throws when the walk stops.
 */
async function tryCandidate(
  ctx: PlacementContext,
  walk: Walk,
  candidate: PlacementCandidate,
  body: CreatePodRequest,
  moveOn: string,
): Promise<Pod | undefined> {
  for (let retry = 0; ; retry += 1) {
    const startedAt = Date.now();
    let err: RunpodApiError;
    try {
      const pod = await ctx.api.pods.create(body);
      ctx.claimed.add(pod.id);
      return pod;
    } catch (caught) {
      if (!isRunpodApiError(caught)) throw caught;
      err = caught;
    }
    walk.last = err;
    const answer = { candidate, status: statusOf(err), detail: err.detail ?? err.message };
    switch (meaningOf(err)) {
      case "refused":
        walk.last400 = err;
        walk.record({ ...answer, next: moveOn, ...(isCapacityError(err) ? { capacity: true } : {}) });
        return undefined;
      case "no access":
        walk.record({ ...answer, next: moveOn });
        return undefined;
      case "balance exhausted":
        walk.record({ ...answer, next: "stopping: with the balance exhausted no candidate can succeed" });
        throw new PlacementError(err, failureText.balanceExhausted(walk.attempts), walk.attempts);
      case "not sent":
        // Never left this process, and the client has already retried it (docs/retries.md):
        // nothing to look for, and sending it again here would be a second retry. Every
        // candidate goes through the same connection, so placement stops.
        walk.record({
          ...answer,
          next: "stopping: the request could not be sent, after the client's retries",
        });
        throw new PlacementError(
          err,
          failureText.notSent(candidate, answer.detail, walk.attempts),
          walk.attempts,
        );
      case "unanswered": {
        const delay = retry < RETRIES_PER_CANDIDATE ? resendBackoffMs(retry) : undefined;
        const look = await lookAfterUnanswered(ctx, startedAt);
        if ("lookupFailed" in look) {
          walk.record({
            ...answer,
            settlesAt: look.settlesAt,
            next: "stopping: the pod it may have made could not be looked for",
          });
          const lookup = look.lookupFailed;
          throw new PlacementError(
            isRunpodApiError(lookup) ? lookup : err,
            failureText.lookupFailed(candidate, answer.detail, lookup),
            walk.attempts,
          );
        }
        if (look.found) {
          ctx.claimed.add(look.found.id);
          ctx.onFound?.(answer, look.found);
          return look.found;
        }
        const again = (ms: number) =>
          `trying ${describeCandidate(candidate)} again in ${(ms / 1000).toFixed(1)} s (retry ${retry + 1} of ${RETRIES_PER_CANDIDATE})`;
        walk.record({
          ...answer,
          settlesAt: look.settlesAt,
          next: `no pod of it was found; ${delay === undefined ? moveOn : again(delay)}`,
        });
        if (delay === undefined) return undefined;
        // The pause before sending again is slept on the service's clock.
        await ctx.clock.sleep(delay);
        continue;
      }
      case "request is wrong":
        walk.record({ ...answer, next: "stopping: every candidate would answer the same" });
        throw err;
    }
  }
}

/**
 * Looks for the pod an unanswered create may have made, once the request has had time to land
 * (create-once.ts: the settle policy, on the wall clock like the request deadline). A pod that
 * lands after this look still carries the create key, and is terminated once the creates have
 * settled (provider/resources/pod/start.ts).
 */
async function lookAfterUnanswered(
  ctx: PlacementContext,
  startedAt: number,
): Promise<{ settlesAt: number } & ({ found: Pod | undefined } | { lookupFailed: unknown })> {
  const settle = settling(startedAt);
  await waitUntil(settle.lookAt);
  try {
    return { settlesAt: settle.settlesAt, found: await findUnacknowledged(ctx) };
  } catch (lookupFailed) {
    return { settlesAt: settle.settlesAt, lookupFailed };
  }
}

/** Why a walk that tried every candidate failed, decided by the answers it heard. */
function walkFailed(walk: Walk, namespace: string): PlacementError {
  const { attempts, last400, last } = walk;
  if (last400 && outOfCapacity(attempts)) {
    return new PlacementError(last400, failureText.outOfCapacity(last400, attempts), attempts);
  }
  if (last400 && attempts.length > 0 && attempts.every((a) => a.status === 400)) {
    return new PlacementError(last400, failureText.everyOneRefused(last400, attempts), attempts);
  }
  if (last && attempts.length > 0 && attempts.every((a) => a.status === 403)) {
    return new PlacementError(last, failureText.noAccess(attempts, namespace), attempts);
  }
  return new PlacementError(last, failureText.noCandidatePlaced(attempts), attempts);
}

/** Every message a failed placement ends with, each naming what to do next. */
const failureText = {
  balanceExhausted: (attempts: readonly PlacementAttempt[]) =>
    `The account balance is exhausted (402); no candidate can succeed, so placement stopped. Add funds and run again. Tried: ${report(attempts)}.`,
  notSent: (candidate: PlacementCandidate, detail: string, attempts: readonly PlacementAttempt[]) =>
    `A create in ${describeCandidate(candidate)} could not be sent (${detail}); nothing was created, and placement stopped. Tried: ${report(attempts)}.`,
  lookupFailed: (candidate: PlacementCandidate, detail: string, lookup: unknown) =>
    `A create in ${describeCandidate(candidate)} went unanswered (${detail}) and looking for the pod it may have made failed too (${messageOf(lookup)}). If that pod exists, the next run of this stack finds it by its create key and takes it over.`,
  outOfCapacity: (last400: RunpodApiError, attempts: readonly PlacementAttempt[]) =>
    `Every candidate is out of capacity ("${last400.detail}"). Tried: ${where(attempts)}. Add candidates (placement.candidates, placement.regions, placement.gpuTypeIds, placement.anyDataCenter), or let placement.retryFor walk the list again for a while.`,
  everyOneRefused: (last400: RunpodApiError, attempts: readonly PlacementAttempt[]) =>
    `No candidate accepted the pod: every one answered 400. A rule violation fails the same way on every candidate, so treat the last answer as a problem with the request: "${last400.detail}". Tried: ${report(attempts)}.`,
  noAccess: (attempts: readonly PlacementAttempt[], namespace: string) =>
    `No candidate could place the pod: the API key has no access to the pool of any of them (403). Use a key with that permission, or set ${namespace}:teamId (or RUNPOD_TEAM_ID) for a team's pools. Tried: ${report(attempts)}.`,
  noCandidatePlaced: (attempts: readonly PlacementAttempt[]) =>
    `No candidate could place the pod (${attempts.length} attempt${attempts.length === 1 ? "" : "s"}). Tried: ${report(attempts)}. Add candidates (placement.candidates, placement.regions or placement.gpuTypeIds) or try again later.`,
};

/** Whether every attempt was refused for capacity, so the same list may succeed later. */
export function outOfCapacity(attempts: readonly PlacementAttempt[]): boolean {
  return attempts.length > 0 && attempts.every((a) => a.capacity === true);
}

/** The first wait before walking the list again, doubled each round up to the last. */
const RETRY_FIRST_MS = 10_000;
const RETRY_MAX_MS = 120_000;

/**
 * `placePod`, walked again while every candidate is out of capacity, backing off, until
 * `retryForMs` have passed since the first walk (then the last walk's error stands). Any other
 * failure ends it at once.
 */
export async function placePodRetrying(
  ctx: PlacementContext,
  body: CreatePodRequest,
  candidates: readonly PlacementCandidate[],
  retryForMs: number,
  onRetry: (round: number, waitMs: number, leftMs: number) => void,
): Promise<Placed> {
  const until = ctx.clock.now() + retryForMs;
  let waitMs = RETRY_FIRST_MS;
  for (let round = 1; ; round += 1) {
    try {
      return await placePod(ctx, body, candidates);
    } catch (err) {
      const left = until - ctx.clock.now();
      if (!isPlacementError(err) || !outOfCapacity(err.tried) || left <= 0) throw err;
      const wait = Math.min(waitMs, left);
      onRetry(round, wait, left);
      await ctx.clock.sleep(wait);
      waitMs = Math.min(RETRY_MAX_MS, waitMs * 2);
    }
  }
}
