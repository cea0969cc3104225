/**
 * runpod-dynamic: RunPod resources for Pulumi programs, catalog and job functions, and the errors
 * they throw. What the policy pack and the CLI share with the provider (checks, estimates, type
 * tokens) is `runpod-dynamic/review`; the typed API client is `runpod-dynamic/client`.
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

export type { CandidateQuery, CatalogCandidate } from "./catalog/candidates.js";
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
export {
  type GpuTypeQuery,
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
export type {
  ClusterArgs,
  ClusterComputeArgs,
  ClusterMember,
  ClusterMountsArgs,
  ClusterOutputs,
  ClusterTimeoutsArgs,
} from "./resources/cluster/types.js";
export { Cluster } from "./resources/cluster.js";
export type { ContainerArgs } from "./resources/container.js";
export type { GlobalMountArgs, NetworkMountArgs, PersistentMountArgs } from "./resources/mounts.js";
export type { NetworkVolumeArgs, NetworkVolumeOutputs } from "./resources/network-volume/types.js";
export { NetworkVolume } from "./resources/network-volume.js";
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
export type { PodGpuOutput, PodOutputs, SshEndpoint } from "./resources/pod/types.js";
export { Pod } from "./resources/pod.js";
export type { RegistryArgs, RegistryOutputs } from "./resources/registry/types.js";
export { Registry } from "./resources/registry.js";
export type { SecretArgs, SecretOutputs } from "./resources/secret/types.js";
export { Secret, secretReference } from "./resources/secret.js";
export type {
  EndpointCpuArgs,
  EndpointGpuArgs,
  EndpointScalingArgs,
  EndpointWorkersArgs,
  QueueDelayScalingArgs,
  RequestCountScalingArgs,
  ServerlessEndpointArgs,
  ServerlessEndpointOutputs,
} from "./resources/serverless-endpoint/types.js";
export { ServerlessEndpoint } from "./resources/serverless-endpoint.js";
export type { ServerlessJobArgs, ServerlessJobOutputs } from "./resources/serverless-job/types.js";
export { ServerlessJob } from "./resources/serverless-job.js";
export type { SshKeyArgs, SshKeyOutputs } from "./resources/ssh-key/types.js";
export { SshKey } from "./resources/ssh-key.js";
export type { TemplateArgs, TemplateMountsArgs, TemplateOutputs } from "./resources/template/types.js";
export { Template } from "./resources/template.js";
