/**
 * runpod-dynamic: RunPod resources for Pulumi programs, catalog and job functions, and the typed
 * API client they use.
 * @packageDocumentation
 */

export {
  getCpuFlavors,
  getDataCenters,
  getGpuTypes,
  getPublicTemplates,
  placementCandidates,
} from "./catalog.js";
export * from "./client/index.js";
export { decodeArgs, encodeArgs } from "./container-args.js";
export {
  getJobStatus,
  type ImageModelInput,
  JobFailedError,
  type JobOptions,
  type JobResult,
  type MediaOutput,
  run,
  runSync,
  waitForJob,
} from "./jobs.js";
export {
  type CandidateQuery,
  type CatalogCandidate,
  type PlacementCandidate,
  placementSource,
  rankCandidates,
} from "./placement.js";
export {
  checkNetworkVolume,
  diffNetworkVolume,
  NETWORK_VOLUME_TYPE,
  NetworkVolume,
  type NetworkVolumeArgs,
  NetworkVolumeArgsSchema,
  type NetworkVolumeInputs,
  type NetworkVolumeOutputs,
} from "./resources/network-volume.js";
export {
  checkPod,
  diffPod,
  POD_TYPE,
  Pod,
  type PodArgs,
  PodArgsSchema,
  type PodInputs,
  type PodOutputs,
  podRuleFailures,
} from "./resources/pod.js";
export {
  checkServerlessEndpoint,
  diffServerlessEndpoint,
  ENDPOINT_API_DEFAULTS,
  SERVERLESS_ENDPOINT_TYPE,
  ServerlessEndpoint,
  type ServerlessEndpointArgs,
  ServerlessEndpointArgsSchema,
  type ServerlessEndpointOutputs,
  serverlessEndpointRuleFailures,
} from "./resources/serverless-endpoint.js";
export {
  checkServerlessJob,
  SERVERLESS_JOB_TYPE,
  ServerlessJob,
  type ServerlessJobArgs,
  type ServerlessJobOutputs,
} from "./resources/serverless-job.js";
export {
  checkSshKey,
  parsePublicKey,
  SSH_KEY_TYPE,
  SshKey,
  type SshKeyArgs,
  type SshKeyOutputs,
} from "./resources/ssh-key.js";
export {
  checkTemplate,
  diffTemplate,
  TEMPLATE_API_DEFAULTS,
  TEMPLATE_TYPE,
  Template,
  type TemplateArgs,
  TemplateArgsSchema,
  type TemplateInputs,
  type TemplateOutputs,
  templateRuleFailures,
} from "./resources/template.js";
export { containsUnknown, isUnknown, UNKNOWN } from "./unknown.js";
export { type CheckFailure, formatFailures } from "./validation.js";
