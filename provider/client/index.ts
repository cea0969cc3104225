/**
 * runpod-dynamic/client: the typed RunPod API client the provider and the CLI use. One request
 * pipeline (transport, errors, retry, rate limits) and the zod schemas of the API's bodies.
 * @packageDocumentation
 * @module runpod-dynamic/client
 */
export { RunpodApi } from "./api.js";
export { type Clock, realClock, scaledClock } from "./clock.js";
export { checkBaseUrl, type RunpodSettings, requireApiKey, resolveSettings, SETTINGS } from "./config.js";
export {
  adviceFor,
  ERROR_CODES,
  FAILURE_CODES,
  type FailureCode,
  hasFailureCode,
  isCapacityError,
  isRunpodApiError,
  isTransient,
  isUnanswered,
  mayHaveLanded,
  messageOf,
  type RequestOutcome,
  RunpodApiError,
  type RunpodErrorCode,
  redact,
} from "./errors.js";
export { sharedBudget } from "./pools.js";
export {
  type BackgroundReader,
  type BudgetSnapshot,
  RateLimitBudget,
  RateLimitBudgets,
} from "./rate-limit.js";
export { parseRateLimitHeaders, type RateLimitWindow } from "./rate-limit-headers.js";
export { type ApiBase, type ClientOptions, type RequestSpec, RunpodClient } from "./request.js";
export { DEFAULT_RETRY, type RetryDecision, type RetryOptions, retryDecision } from "./retry.js";
export * as schemas from "./schemas/index.js";
