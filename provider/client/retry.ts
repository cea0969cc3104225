/**
 * The retry policy, in one place (docs/api-model.md, Errors).
 *
 * - 5xx, network failures and timeouts: retried with exponential backoff and jitter, but only for
 *   idempotent requests (GET, PUT, PATCH, DELETE). A POST that creates something is never retried
 *   here: whether a second POST could create a duplicate is the caller's decision (the pod placer
 *   looks the pod up by name first).
 * - 429: every method waits `Retry-After` (the request was not processed), through the shared
 *   budget so the whole process pauses; waits longer than `maxRetryAfterSeconds` fail clearly.
 * - Any other 4xx, invalid responses, local validation and configuration errors: never retried.
 */
import pRetry from "p-retry";
import { ERROR_CODES, isRunpodApiError, type RunpodApiError } from "./errors.js";
import type { RateLimitBudget } from "./rate-limit.js";

export interface RetryOptions {
  /** Retries after the first attempt for 5xx, network failures and timeouts. @default 4 */
  readonly retries: number;
  /** First backoff. @default 250 */
  readonly minTimeoutMs: number;
  /** Longest backoff. @default 8000 */
  readonly maxTimeoutMs: number;
  /** Backoff growth per retry. @default 2 */
  readonly factor: number;
  /** Multiplies each backoff by a random factor in [1, 2). @default true */
  readonly randomize: boolean;
  /** A 429 asking to wait longer than this fails instead. @default 90 */
  readonly maxRetryAfterSeconds: number;
  /** 429s tolerated for one request before it fails. @default 10 */
  readonly maxRateLimitRetries: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  retries: 4,
  minTimeoutMs: 250,
  maxTimeoutMs: 8000,
  factor: 2,
  randomize: true,
  maxRetryAfterSeconds: 90,
  maxRateLimitRetries: 10,
};

export type RetryDecision =
  | { readonly kind: "backoff" }
  | { readonly kind: "wait"; readonly seconds: number }
  | { readonly kind: "fail"; readonly error: RunpodApiError };

/** What to do after a failed attempt. Pure: the table above, as code. */
export function retryDecision(
  error: RunpodApiError,
  idempotent: boolean,
  rateLimitRetriesSoFar: number,
  options: RetryOptions,
): RetryDecision {
  switch (error.code) {
    case ERROR_CODES.RATE_LIMITED: {
      const seconds = error.retryAfterSeconds ?? 1;
      if (seconds > options.maxRetryAfterSeconds) {
        return {
          kind: "fail",
          error: withMessage(
            error,
            `${error.message} The service asks to wait ${seconds} s, more than the ${options.maxRetryAfterSeconds} s this client waits: the quota window is exhausted. Try again after it resets.`,
          ),
        };
      }
      if (rateLimitRetriesSoFar >= options.maxRateLimitRetries) {
        return {
          kind: "fail",
          error: withMessage(
            error,
            `${error.message} Still rate limited after ${rateLimitRetriesSoFar} waits.`,
          ),
        };
      }
      return { kind: "wait", seconds };
    }
    case ERROR_CODES.SERVER_ERROR:
      // 501 Not Implemented will not change on a retry.
      return idempotent && error.status !== 501 ? { kind: "backoff" } : { kind: "fail", error };
    case ERROR_CODES.NETWORK:
    case ERROR_CODES.TIMEOUT:
      return idempotent || error.outcome === "not-sent" ? { kind: "backoff" } : { kind: "fail", error };
    default:
      return { kind: "fail", error };
  }
}

function withMessage(error: RunpodApiError, message: string): RunpodApiError {
  error.message = message;
  return error;
}

/** Runs `attempt` under the policy. Each attempt waits for the budget itself. */
export function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  context: {
    readonly idempotent: boolean;
    readonly options: RetryOptions;
    readonly budget: RateLimitBudget;
    readonly signal?: AbortSignal | undefined;
  },
): Promise<T> {
  const { options } = context;
  let rateLimitRetries = 0;
  let backoffs = 0;
  return pRetry(attempt, {
    // The decision above is the only limit. p-retry stops once `retries` are used up before it asks
    // whether an attempt consumes one, so a 429 after the last backoff retry would fail unwaited
    // (found by the chaos suite).
    retries: Number.POSITIVE_INFINITY,
    factor: options.factor,
    minTimeout: options.minTimeoutMs,
    maxTimeout: options.maxTimeoutMs,
    randomize: options.randomize,
    ...(context.signal ? { signal: context.signal } : {}),
    onFailedAttempt: ({ error, attemptNumber }) => {
      if (!isRunpodApiError(error)) throw error;
      error.attempts = attemptNumber;
      const decision = retryDecision(error, context.idempotent, rateLimitRetries, options);
      if (decision.kind === "fail") throw decision.error;
      if (decision.kind === "backoff" && ++backoffs > options.retries) throw error;
      if (decision.kind === "wait") {
        rateLimitRetries += 1;
        context.budget.pauseFor(decision.seconds);
      }
    },
    // A 429 is waited out through the budget; it does not use up a backoff retry.
    shouldConsumeRetry: ({ error }) => !isRunpodApiError(error, ERROR_CODES.RATE_LIMITED),
  });
}
