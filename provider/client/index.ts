/**
 * runpod-dynamic/client: the typed RunPod API client the provider and the CLI use. One request
 * pipeline (transport, errors, retry, rate limits) and the zod schemas of the API's bodies.
 * @packageDocumentation
 * @module runpod-dynamic/client
 */

export type { BillingApi } from "./api/billing.js";
export type { CallOptions } from "./api/call-options.js";
export type {
  CatalogApi,
  CpuFlavorsQuery,
  DataCentersQuery,
  GpuTypesQuery,
  PublicTemplatesQuery,
} from "./api/catalog.js";
export type { ClustersApi } from "./api/clusters.js";
export type { EndpointsApi } from "./api/endpoints.js";
export type { HubApi, HubListingRef, HubListingsInput } from "./api/hub.js";
export type { JobsApi, PollJobOptions } from "./api/jobs.js";
export type { LogCallOptions, LogEvent, LogQuery } from "./api/logs.js";
export type { NetworkVolumesApi } from "./api/network-volumes.js";
export type { ListPodsQuery, PodLogsQuery, PodsApi } from "./api/pods.js";
export type { DelegationsApi, RegistriesApi } from "./api/registries.js";
export type { SecretsApi } from "./api/secrets.js";
export type { SshKeysApi } from "./api/ssh-keys.js";
export type { TemplatesApi } from "./api/templates.js";
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
export { RateLimitBudget } from "./rate-limit.js";
export { RateLimitBudgets } from "./rate-limit-budgets.js";
export { parseRateLimitHeaders, type RateLimitWindow } from "./rate-limit-headers.js";
export type { BackgroundReader, BudgetSnapshot } from "./rate-limit-types.js";
export { type ApiBase, type ClientOptions, type RequestSpec, RunpodClient } from "./request.js";
export { DEFAULT_RETRY, type RetryDecision, type RetryOptions, retryDecision } from "./retry.js";
export * as schemas from "./schemas/index.js";
