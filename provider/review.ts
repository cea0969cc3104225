/**
 * runpod-dynamic/review: what reviews a stack before or beside `pulumi up` shares with the
 * provider, so that a review and `up` cannot disagree. The policy pack (policy/) and the CLI's
 * `cost` and `billing stack` commands use it: the provider's own input checks, the list-price
 * estimate and the price snapshot it reads, the type tokens resources register under, preview's
 * unknown value, and the input that lists env keys given as plain text.
 *
 * Like the root entry, nothing declared here reaches zod: the policy pack compiles against it in a
 * project of its own, with whatever tsconfig that project has.
 * @packageDocumentation
 * @module runpod-dynamic/review
 */

export { placementSource } from "./catalog/candidates.js";
export { type Estimate, estimate, type GpuRate, type PricedResource } from "./cost/estimate.js";
export { type CostPart, type HourlyRange, perMonth } from "./cost/hourly-range.js";
export { fromSnapshot } from "./cost/price-snapshot.js";
export type { CpuPrice, DataCenterTiers, GpuPrice, PriceList } from "./cost/prices.js";
export { PLAIN_ENV_KEYS } from "./resources/common.js";
export { checkPod } from "./resources/pod/check.js";
export { checkServerlessEndpoint } from "./resources/serverless-endpoint/check.js";
export { ENDPOINT_API_DEFAULTS } from "./resources/serverless-endpoint/defaults.js";
export {
  CLUSTER_TYPE,
  NETWORK_VOLUME_TYPE,
  POD_TYPE,
  runpodTypeName,
  SERVERLESS_ENDPOINT_TYPE,
  SSH_KEY_TYPE,
} from "./resources/type-tokens.js";
export type { CheckFailure } from "./validation/check-failure.js";
export { isUnknown, UNKNOWN } from "./validation/unknown.js";
