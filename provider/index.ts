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
 * required. The resources and their types are generated from their declarations
 * (provider/resources/<name>/fields.ts) into provider/dynamic/resources/.
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
export type { Availability } from "./client/vocabulary.js";
export { Cluster } from "./dynamic/resources/cluster.js";
export { NetworkVolume } from "./dynamic/resources/network-volume.js";
export { Pod } from "./dynamic/resources/pod.js";
export { Registry } from "./dynamic/resources/registry.js";
export { Secret } from "./dynamic/resources/secret.js";
export { ServerlessEndpoint } from "./dynamic/resources/serverless-endpoint.js";
export { ServerlessJob } from "./dynamic/resources/serverless-job.js";
export { SshKey } from "./dynamic/resources/ssh-key.js";
export { Template } from "./dynamic/resources/template.js";
export type * from "./dynamic/resources/types.js";
export type {
  /** The name 0.3.0 gave a GPU pod's `gpu` output; `PodGpuAllocation` now. */
  PodGpuAllocation as PodGpuOutput,
} from "./dynamic/resources/types.js";
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
export { secretReference } from "./resources/secret/reference.js";
