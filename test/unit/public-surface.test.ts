/**
 * The public entries name exactly these exports, types included (read from the emitted declarations
 * with the TypeScript checker): the root what a program uses, `runpod-dynamic/review` what the
 * policy pack and the CLI share. A name added to or dropped from either is a change of the
 * package's public surface: it belongs in the CHANGELOG, and here.
 */
import { join } from "node:path";
import type * as TS from "typescript";
import { describe, expect, it } from "vitest";
import { nodeRequire, REPO_ROOT } from "../support/dist.js";

const ts = nodeRequire("typescript") as typeof TS;

function exportNames(declarations: string): string[] {
  const program = ts.createProgram([declarations], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(declarations);
  const module = file && checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`${declarations} is not a module`);
  return checker
    .getExportsOfModule(module)
    .map((s) => s.name)
    .sort();
}

const ROOT = [
  "AutostopAction",
  "Availability",
  "CandidateQuery",
  "CatalogCandidate",
  "Cloud",
  "Cluster",
  "ClusterArgs",
  "ClusterCompute",
  "ClusterComputeArgs",
  "ClusterMember",
  "ClusterMounts",
  "ClusterMountsArgs",
  "ClusterNetwork",
  "ClusterOutputs",
  "ClusterPrimary",
  "ClusterTimeouts",
  "ClusterTimeoutsArgs",
  "ClusterType",
  "ContainerArgs",
  "CpuFlavor",
  "DataCenter",
  "ERROR_CODES",
  "EndpointCpuArgs",
  "EndpointGpuArgs",
  "EndpointScalingArgs",
  "EndpointType",
  "EndpointWorkersArgs",
  "FAILURE_CODES",
  "FailureCode",
  "Flashboot",
  "GlobalMount",
  "GlobalMountArgs",
  "GpuType",
  "GpuTypeQuery",
  "ImageModelInput",
  "JobApi",
  "JobFailedError",
  "JobMode",
  "JobOptions",
  "JobResult",
  "JobState",
  "MediaOutput",
  "MinAvailability",
  "NamedAvailability",
  "NetworkMount",
  "NetworkMountArgs",
  "NetworkVolume",
  "NetworkVolumeArgs",
  "NetworkVolumeOutputs",
  "OnCreateFailure",
  "PersistentMount",
  "PersistentMountArgs",
  "PlacementCandidate",
  "PlacementCandidateArgs",
  "PlacementOrder",
  "Pod",
  "PodAction",
  "PodArgs",
  "PodAutostop",
  "PodAutostopArgs",
  "PodCluster",
  "PodCpuAllocation",
  "PodCpuArgs",
  "PodDesiredStatus",
  "PodFailFastArgs",
  "PodGlobalNetworking",
  "PodGpuAllocation",
  "PodGpuArgs",
  "PodGpuOutput",
  "PodMounts",
  "PodMountsArgs",
  "PodOutputs",
  "PodPlacement",
  "PodPlacementArgs",
  "PodReadinessArgs",
  "PodSsh",
  "PodStatus",
  "PodTimeouts",
  "PodTimeoutsArgs",
  "PodWaitFor",
  "PublicTemplate",
  "QueueDelayScalingArgs",
  "ReadinessCheck",
  "Region",
  "Registry",
  "RegistryArgs",
  "RegistryOutputs",
  "RequestCountScalingArgs",
  "RequestOutcome",
  "RunpodApiError",
  "RunpodErrorCode",
  "ScalerType",
  "Secret",
  "SecretArgs",
  "SecretOutputs",
  "ServerlessEndpoint",
  "ServerlessEndpointArgs",
  "ServerlessEndpointCpu",
  "ServerlessEndpointGpu",
  "ServerlessEndpointOutputs",
  "ServerlessEndpointScaling",
  "ServerlessEndpointWorkers",
  "ServerlessJob",
  "ServerlessJobArgs",
  "ServerlessJobOutputs",
  "SshEndpoint",
  "SshKey",
  "SshKeyArgs",
  "SshKeyOutputs",
  "Template",
  "TemplateArgs",
  "TemplateCategory",
  "TemplateMountsArgs",
  "TemplateOutputs",
  "TemplateStorage",
  "VolumeType",
  "getCpuFlavors",
  "getDataCenters",
  "getGpuTypes",
  "getJobStatus",
  "getPublicTemplates",
  "isJobFailed",
  "isRunpodApiError",
  "placementCandidates",
  "run",
  "runSync",
  "secretReference",
  "waitForJob",
];

const REVIEW = [
  "CLUSTER_TYPE",
  "CheckFailure",
  "CostPart",
  "CpuPrice",
  "DataCenterTiers",
  "ENDPOINT_API_DEFAULTS",
  "Estimate",
  "GpuPrice",
  "GpuRate",
  "HourlyRange",
  "NETWORK_VOLUME_TYPE",
  "PLAIN_ENV_KEYS",
  "POD_TYPE",
  "PriceList",
  "PricedResource",
  "SERVERLESS_ENDPOINT_TYPE",
  "SSH_KEY_TYPE",
  "UNKNOWN",
  "checkPod",
  "checkServerlessEndpoint",
  "estimate",
  "fromSnapshot",
  "isUnknown",
  "perMonth",
  "placementSource",
  "runpodTypeName",
];

describe("the public entries", () => {
  it("runpod-dynamic exports what a program uses, and nothing else", () => {
    expect(exportNames(join(REPO_ROOT, "dist", "provider", "index.d.ts"))).toEqual(ROOT);
  });

  it("runpod-dynamic/review exports what the policy pack and the CLI share, and nothing else", () => {
    expect(exportNames(join(REPO_ROOT, "dist", "provider", "review.d.ts"))).toEqual(REVIEW);
  });
});
