/**
 * runpod-dynamic: RunPod resources for Pulumi programs, catalog and job functions, and the errors
 * they throw. The typed API client is `runpod-dynamic/client`.
 *
 * Nothing declared here reaches zod: a program compiled with the tsconfig `pulumi new typescript`
 * writes (no `esModuleInterop`, no `skipLibCheck`) fails inside zod's declaration files otherwise.
 * The client and the resources' schemas stay out of this entry for that reason.
 * @packageDocumentation
 */

export {
  type CandidateQuery,
  type CatalogCandidate,
  type CatalogRow,
  type PlacementCandidate,
  placementSource,
  rankCandidates,
} from "./both/candidates.js";
export type {
  CpuFlavor,
  DataCenter,
  GpuType,
  NamedAvailability,
  PublicTemplate,
} from "./both/catalog-types.js";
export { type CheckFailure, formatFailures } from "./both/check-failure.js";
export { decodeArgs, encodeArgs } from "./both/container-args.js";
export { containsUnknown, isUnknown, UNKNOWN } from "./both/unknown.js";
export {
  ERROR_CODES,
  isRunpodApiError,
  type RequestOutcome,
  RunpodApiError,
  type RunpodErrorCode,
} from "./client/errors.js";
export type { Availability, Region } from "./client/vocabulary.js";
export {
  getCpuFlavors,
  getDataCenters,
  getGpuTypes,
  getPublicTemplates,
  placementCandidates,
} from "./program/catalog.js";
export {
  getJobStatus,
  type ImageModelInput,
  type JobApi,
  JobFailedError,
  type JobOptions,
  type JobResult,
  type JobState,
  type MediaOutput,
  run,
  runSync,
  waitForJob,
} from "./program/jobs.js";
export {
  CLUSTER_TYPE,
  Cluster,
  type ClusterArgs,
  type ClusterInputs,
  type ClusterMember,
  type ClusterOutputs,
  checkCluster,
  diffCluster,
} from "./resources/cluster.js";
export {
  checkNetworkVolume,
  diffNetworkVolume,
  NETWORK_VOLUME_TYPE,
  NetworkVolume,
  type NetworkVolumeArgs,
  type NetworkVolumeInputs,
  type NetworkVolumeOutputs,
} from "./resources/network-volume.js";
export { checkPod, podRuleFailures } from "./resources/pod/check.js";
export { diffPod } from "./resources/pod/diff.js";
export type { PodArgs, PodInputs, PodOutputs } from "./resources/pod/types.js";
export { POD_TYPE, Pod } from "./resources/pod.js";
export {
  checkRegistry,
  diffRegistry,
  REGISTRY_TYPE,
  Registry,
  type RegistryArgs,
  type RegistryInputs,
  type RegistryOutputs,
} from "./resources/registry.js";
export {
  checkServerlessEndpoint,
  diffServerlessEndpoint,
  ENDPOINT_API_DEFAULTS,
  SERVERLESS_ENDPOINT_TYPE,
  ServerlessEndpoint,
  type ServerlessEndpointArgs,
  type ServerlessEndpointInputs,
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
  type TemplateInputs,
  type TemplateOutputs,
  templateRuleFailures,
} from "./resources/template.js";
