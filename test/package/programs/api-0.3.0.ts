// A program written against 0.3.0: every resource, argument and output type that version exported,
// used as a program would. It must still type-check and preview with no change (CHANGELOG,
// "Unreleased": the one change it may not make is reading a pod's `cost` as a number, now nullable).
import * as pulumi from "@pulumi/pulumi";
import {
  Cluster,
  type ClusterArgs,
  type ClusterComputeArgs,
  type ClusterMember,
  type ClusterMountsArgs,
  type ClusterOutputs,
  type ClusterTimeoutsArgs,
  type ContainerArgs,
  type EndpointCpuArgs,
  type EndpointGpuArgs,
  type EndpointScalingArgs,
  type EndpointWorkersArgs,
  type GlobalMountArgs,
  type NetworkMountArgs,
  NetworkVolume,
  type NetworkVolumeArgs,
  type NetworkVolumeOutputs,
  type PersistentMountArgs,
  type PlacementCandidateArgs,
  Pod,
  type PodArgs,
  type PodCpuArgs,
  type PodFailFastArgs,
  type PodGpuArgs,
  type PodGpuOutput,
  type PodMountsArgs,
  type PodOutputs,
  type PodPlacementArgs,
  type PodReadinessArgs,
  type PodTimeoutsArgs,
  type QueueDelayScalingArgs,
  type Region,
  Registry,
  type RegistryArgs,
  type RegistryOutputs,
  type RequestCountScalingArgs,
  Secret,
  type SecretArgs,
  type SecretOutputs,
  ServerlessEndpoint,
  type ServerlessEndpointArgs,
  type ServerlessEndpointOutputs,
  ServerlessJob,
  type ServerlessJobArgs,
  type ServerlessJobOutputs,
  type SshEndpoint,
  SshKey,
  type SshKeyArgs,
  type SshKeyOutputs,
  secretReference,
  Template,
  type TemplateArgs,
  type TemplateMountsArgs,
  type TemplateOutputs,
} from "runpod-dynamic";

const regions: Region[] = ["EUROPE", "NORTH_AMERICA"];
const candidate: PlacementCandidateArgs = { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA A40" };
const placement: PodPlacementArgs = { regions, maxCandidates: 4, order: "price" };
const gpu: PodGpuArgs = { id: "NVIDIA A40", count: 1, minCudaVersion: "12.4" };
const readiness: PodReadinessArgs = { check: "TCP", port: 22, settle: 10 };
const failFast: PodFailFastArgs = { logs: true, afterSeconds: 20 };
const timeouts: PodTimeoutsArgs = { create: 900 };
const network: NetworkMountArgs = { volumeId: "nv1", path: "/data" };
const persistent: PersistentMountArgs = { size: 20, path: "/workspace" };
const global: GlobalMountArgs = { volumeId: "gv1" };
const mounts: PodMountsArgs = { network: [network], global: [global] };
const container: ContainerArgs = { disk: 20, ports: ["22/tcp"], env: { A: "1" }, registry: null };

const volume = new NetworkVolume("data", {
  name: "data",
  size: 20,
  dataCenterId: "EU-RO-1",
  type: "STANDARD",
} satisfies NetworkVolumeArgs);
const podArgs: PodArgs = {
  ...container,
  name: "p",
  image: "runpod/base:0.6.2-cuda12.4.1",
  gpu,
  cloud: "SECURE",
  mounts: { ...mounts, network: [{ volumeId: volume.id, path: "/data" }] },
  placement: { candidates: [candidate], retryFor: 60 },
  readiness,
  failFast,
  timeouts,
  waitFor: "RUNNING",
  desiredStatus: "RUNNING",
  onCreateFailure: "keep",
};
const pod = new Pod("p", podArgs);
const fromCatalog = new Pod("f", { name: "f", image: "runpod/base:0.6.2-cuda12.4.1", gpu, placement });
const cpuPod = new Pod("c", {
  name: "c",
  image: "runpod/base:0.6.2-cpu",
  cpu: { id: "cpu3c", vcpuCount: 2 } satisfies PodCpuArgs,
});
const tpl = new Template("t", {
  name: "t",
  image: "nginx:1.27",
  mounts: { persistent } satisfies TemplateMountsArgs,
  category: "CPU",
  env: { TOKEN: secretReference("token") },
} satisfies TemplateArgs);
const scaling: EndpointScalingArgs = { type: "QUEUE_DELAY", queueDelay: 4 } satisfies QueueDelayScalingArgs;
const byRequests: RequestCountScalingArgs = { type: "REQUEST_COUNT", requestCount: 2 };
const endpointArgs: ServerlessEndpointArgs = {
  name: "e",
  templateId: tpl.id,
  gpu: { pools: ["ADA_24"], count: 1 } satisfies EndpointGpuArgs,
  workers: { min: 0, max: 2 } satisfies EndpointWorkersArgs,
  scaling,
  flashboot: "FLASHBOOT",
};
const endpoint = new ServerlessEndpoint("e", endpointArgs);
const cpuEndpoint = new ServerlessEndpoint("ce", {
  name: "ce",
  image: "nginx:1.27",
  cpu: [{ id: "cpu3c", vcpuCount: 2 } satisfies EndpointCpuArgs],
  type: "LOAD_BALANCER",
  scaling: byRequests,
});
const job = new ServerlessJob("j", {
  endpointId: endpoint.id,
  input: { prompt: "ping" },
  mode: "async",
} satisfies ServerlessJobArgs);
const key = new SshKey("k", {
  publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIN/kYBsHsSNY/xVMbie90xjQAWfJUeU6xvyQ4Lu9ugQ me",
} satisfies SshKeyArgs);
const registry = new Registry("r", {
  name: "r",
  username: "u",
  password: pulumi.secret("p"),
} satisfies RegistryArgs);
const secret = new Secret("s", { name: "token", value: pulumi.secret("v") } satisfies SecretArgs);
const cluster = new Cluster("cl", {
  name: "cl",
  type: "TRAINING",
  compute: {
    gpuTypeId: "NVIDIA H100 80GB HBM3",
    gpuCountPerPod: 8,
    podCount: 2,
  } satisfies ClusterComputeArgs,
  image: "runpod/base:0.6.2-cuda12.4.1",
  mounts: { network: [network] } satisfies ClusterMountsArgs,
  timeouts: { create: 1800 } satisfies ClusterTimeoutsArgs,
} satisfies ClusterArgs);

// Outputs, read as 0.3.0 typed them.
export const fallbackGpu = fromCatalog.gpu.apply((g) => g?.id);
export const gpuType = pod.gpu.apply((g: PodGpuOutput | null) => g?.id ?? "cpu");
export const disk = pod.disk.apply((gb: number) => gb + 1);
export const locked = pod.locked.apply((l: boolean) => !l);
export const ssh = pod.ssh.apply((s: PodOutputs["ssh"]) => (s.direct as SshEndpoint | null)?.command);
export const network0 = pod.mounts.apply((m: PodOutputs["mounts"]) => m.network?.[0]?.volumeId);
export const cpuMemory = cpuPod.cpu.apply((c: PodOutputs["cpu"]) => c?.memory ?? null);
export const volumeSize = volume.size.apply((gb: NetworkVolumeOutputs["size"]) => gb * 2);
export const tplMount = tpl.mounts.apply((m: TemplateOutputs["mounts"]) => m.persistent?.path ?? null);
export const pools = endpoint.gpu.apply((g: ServerlessEndpointOutputs["gpu"]) => g?.pools ?? []);
export const lbUrl = cpuEndpoint.jobUrl;
export const delay = job.delayTime.apply((ms: ServerlessJobOutputs["delayTime"]) => ms ?? 0);
export const keyType = key.keyType.apply((t: SshKeyOutputs["keyType"]) => t);
export const registryName = registry.name.apply((n: RegistryOutputs["name"]) => n);
export const reference = secret.reference.apply((r: SecretOutputs["reference"]) => r);
export const members = cluster.members.apply((ms: ClusterMember[]) => ms.map((m) => m.podId));
export const clusterType = cluster.type.apply((t: ClusterOutputs["type"]) => t);
