/**
 * runpod-dynamic: RunPod resources for Pulumi programs, catalog and job functions, and the errors
 * they throw. The typed API client is `runpod-dynamic/client`.
 *
 * Nothing declared here reaches zod: a program compiled with the tsconfig `pulumi new typescript`
 * writes (no `esModuleInterop`, no `skipLibCheck`) fails inside zod's declaration files otherwise.
 * The client and the resources' schemas stay out of this entry for that reason.
 *
 * Each resource input says what a change to it does, under "On Change": `replace` (a new object
 * replaces the old), `update` (changed in place), `none` (no diff: read at create, or by the
 * provider only); a field with two says which change does which. Inputs without a default are
 * required.
 * @packageDocumentation
 * @module runpod-dynamic
 */

export {
  type CandidateQuery,
  type CatalogCandidate,
  type CatalogRow,
  type PlacementCandidate,
  placementSource,
  rankCandidates,
} from "./catalog/candidates.js";
export type {
  CpuFlavor,
  DataCenter,
  GpuType,
  NamedAvailability,
  PublicTemplate,
} from "./catalog/types.js";
export {
  ERROR_CODES,
  FAILURE_CODES,
  type FailureCode,
  isRunpodApiError,
  type RequestOutcome,
  RunpodApiError,
  type RunpodErrorCode,
} from "./client/errors.js";
export type { Availability, Region } from "./client/vocabulary.js";
export { type Estimate, estimate, type GpuRate, type PricedResource } from "./cost/estimate.js";
export { HIDDEN } from "./cost/estimate-fields.js";
export { type CostPart, type HourlyRange, perMonth } from "./cost/hourly-range.js";
export { fromSnapshot, type PriceSnapshot, SNAPSHOT_FORMAT, toSnapshot } from "./cost/price-snapshot.js";
export {
  type CpuPrice,
  type DataCenterTiers,
  type GpuPrice,
  HOURS_PER_MONTH,
  type PriceList,
  priceList,
  STORAGE_RATES,
} from "./cost/prices.js";
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
  isJobFailed,
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
export { checkCluster } from "./resources/cluster/check.js";
export { diffCluster } from "./resources/cluster/diff.js";
export type {
  ClusterArgs,
  ClusterComputeArgs,
  ClusterInputs,
  ClusterMember,
  ClusterMountsArgs,
  ClusterOutputs,
  ClusterTimeoutsArgs,
} from "./resources/cluster/types.js";
export { CLUSTER_TYPE, Cluster } from "./resources/cluster.js";
export { PLAIN_ENV_KEYS } from "./resources/common.js";
export type { ContainerArgs } from "./resources/container.js";
export { decodeArgs, encodeArgs } from "./resources/container.js";
export type { GlobalMountArgs, NetworkMountArgs, PersistentMountArgs } from "./resources/mounts.js";
export { checkNetworkVolume } from "./resources/network-volume/check.js";
export { diffNetworkVolume } from "./resources/network-volume/diff.js";
export type {
  NetworkVolumeArgs,
  NetworkVolumeInputs,
  NetworkVolumeOutputs,
} from "./resources/network-volume/types.js";
export { NETWORK_VOLUME_TYPE, NetworkVolume } from "./resources/network-volume.js";
export type {
  PlacementCandidateArgs,
  PodArgs,
  PodCpuArgs,
  PodFailFastArgs,
  PodGpuArgs,
  PodMountsArgs,
  PodPlacementArgs,
  PodReadinessArgs,
  PodTimeoutsArgs,
} from "./resources/pod/args.js";
export { checkPod, podRuleFailures } from "./resources/pod/check.js";
export { diffPod } from "./resources/pod/diff.js";
export type { PodGpuOutput, PodInputs, PodOutputs, SshEndpoint } from "./resources/pod/types.js";
export { POD_TYPE, Pod } from "./resources/pod.js";
export { checkRegistry } from "./resources/registry/check.js";
export { diffRegistry } from "./resources/registry/diff.js";
export type { RegistryArgs, RegistryInputs, RegistryOutputs } from "./resources/registry/types.js";
export { REGISTRY_TYPE, Registry } from "./resources/registry.js";
export { secretReference } from "./resources/secret/body.js";
export { checkSecret } from "./resources/secret/check.js";
export { diffSecret } from "./resources/secret/diff.js";
export type { SecretArgs, SecretInputs, SecretOutputs } from "./resources/secret/types.js";
export { SECRET_TYPE, Secret } from "./resources/secret.js";
export {
  checkServerlessEndpoint,
  serverlessEndpointRuleFailures,
} from "./resources/serverless-endpoint/check.js";
export { ENDPOINT_API_DEFAULTS } from "./resources/serverless-endpoint/defaults.js";
export { diffServerlessEndpoint } from "./resources/serverless-endpoint/diff.js";
export type {
  EndpointCpuArgs,
  EndpointGpuArgs,
  EndpointScalingArgs,
  EndpointWorkersArgs,
  QueueDelayScalingArgs,
  RequestCountScalingArgs,
  ServerlessEndpointArgs,
  ServerlessEndpointInputs,
  ServerlessEndpointOutputs,
} from "./resources/serverless-endpoint/types.js";
export { SERVERLESS_ENDPOINT_TYPE, ServerlessEndpoint } from "./resources/serverless-endpoint.js";
export { checkServerlessJob } from "./resources/serverless-job/check.js";
export type { ServerlessJobArgs, ServerlessJobOutputs } from "./resources/serverless-job/types.js";
export { SERVERLESS_JOB_TYPE, ServerlessJob } from "./resources/serverless-job.js";
export { checkSshKey, parsePublicKey } from "./resources/ssh-key/check.js";
export type { SshKeyArgs, SshKeyOutputs } from "./resources/ssh-key/types.js";
export { SSH_KEY_TYPE, SshKey } from "./resources/ssh-key.js";
export { checkTemplate, templateRuleFailures } from "./resources/template/check.js";
export { TEMPLATE_API_DEFAULTS } from "./resources/template/defaults.js";
export { diffTemplate } from "./resources/template/diff.js";
export type {
  TemplateArgs,
  TemplateInputs,
  TemplateMountsArgs,
  TemplateOutputs,
} from "./resources/template/types.js";
export { TEMPLATE_TYPE, Template } from "./resources/template.js";
export { runpodTypeName } from "./resources/type-tokens.js";
export { type CheckFailure, formatFailures } from "./validation/check-failure.js";
export { containsUnknown, isUnknown, UNKNOWN } from "./validation/unknown.js";
