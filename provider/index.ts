/**
 * runpod-dynamic: RunPod resources for Pulumi programs, plus the typed API client they use.
 * @packageDocumentation
 */
export * from "./client/index.js";
export { decodeArgs, encodeArgs } from "./container-args.js";
export { candidatesFromCatalog, type PlacementCandidate } from "./placement.js";
export {
  checkPod,
  diffPod,
  POD_TYPE,
  Pod,
  type PodArgs,
  type PodInputs,
  type PodOutputs,
  podRuleFailures,
} from "./resources/pod.js";
export { isUnknown, UNKNOWN } from "./unknown.js";
export { type CheckFailure, formatFailures } from "./validation.js";
