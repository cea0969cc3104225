/**
 * A Pod's outputs from the API's pod (the provider's read of it) and the inputs that made it. Kept
 * out of provider/resources/pod.ts because its signature names the API's zod-inferred pod type,
 * and the declarations programs compile against must not reach zod.
 */
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import type { PodStatus } from "../../client/vocabulary.js";
import { commandOutputs } from "../common.js";
import type { PodInputs, PodOutputs } from "./types.js";

/** Outputs from the API's pod and the inputs that made it; JSON-clean (null, never undefined). */
export function podOutputs(pod: ApiPod, inputs: Partial<PodInputs>): PodOutputs {
  const declared = Object.keys(inputs.env ?? {});
  const env = Object.fromEntries(declared.filter((k) => k in pod.env).map((k) => [k, pod.env[k] as string]));
  const endpoint = (e: { host: string; port: number; username: string; command: string } | null) =>
    e ? { host: e.host, port: e.port, username: e.username, command: e.command } : null;
  return {
    name: pod.name,
    status: pod.status,
    actions: [...(pod.actions ?? [])],
    image: pod.image,
    args: pod.args,
    ...commandOutputs(pod.args, pod.cmd, pod.entrypoint),
    disk: pod.disk,
    env,
    ports: [...pod.ports],
    registry: pod.registry,
    mounts: jsonClean(pod.mounts) as PodOutputs["mounts"],
    gpu: pod.gpu
      ? {
          id: pod.gpu.id,
          count: pod.gpu.count ?? inputs.gpu?.count ?? 1,
          vcpuCount: pod.gpu.vcpuCount ?? null,
          memory: pod.gpu.memory ?? null,
          allowedCudaVersions: inputs.gpu?.allowedCudaVersions ?? null,
          minCudaVersion: inputs.gpu?.minCudaVersion ?? null,
          minRamPerGpu: inputs.gpu?.minRamPerGpu ?? null,
          minVcpuCountPerGpu: inputs.gpu?.minVcpuCountPerGpu ?? null,
        }
      : null,
    cpu: pod.cpu ? { id: pod.cpu.id, vcpuCount: pod.cpu.vcpuCount, memory: pod.cpu.memory ?? null } : null,
    cloud: pod.cloud,
    dataCenterId: pod.dataCenterId,
    dataCenterIds: inputs.dataCenterIds ?? null,
    cudaVersion: pod.cudaVersion ?? null,
    ssh: { proxy: endpoint(pod.ssh?.proxy ?? null), direct: endpoint(pod.ssh?.direct ?? null) },
    cluster: pod.cluster
      ? {
          id: pod.cluster.id,
          rank: pod.cluster.rank,
          role: pod.cluster.role ?? null,
          ip: pod.cluster.ip ?? null,
        }
      : null,
    template: pod.template ?? null,
    templateId: inputs.templateId ?? null,
    cost: pod.cost ?? null,
    locked: pod.locked,
    desiredStatus: desiredStatusOf(pod.status, inputs.desiredStatus),
    globalNetworking: {
      enabled: pod.globalNetworking.enabled,
      ip: pod.globalNetworking.ip ?? null,
      internalDns: pod.globalNetworking.internalDns ?? null,
    },
    requestedGlobalNetworking: inputs.globalNetworking ?? pod.globalNetworking.enabled,
    runtime: pod.runtime === null ? null : (jsonClean(pod.runtime) as Record<string, unknown>),
    createdAt: pod.createdAt,
    startedAt: pod.startedAt ?? null,
    startSsh: inputs.startSsh ?? false,
    startJupyter: inputs.startJupyter ?? false,
    jupyterPassword: pod.env.JUPYTER_PASSWORD ?? null,
    placement: inputs.placement ?? null,
    requestedGpuId: inputs.gpu?.id ?? pod.gpu?.id ?? null,
    timeouts: inputs.timeouts ?? null,
  };
}

function jsonClean(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

/**
 * What a pod in this status is doing, as a Pod's `desiredStatus` says it: a stopped pod is
 * STOPPED. A failed pod (ERROR) counts as what was asked of it, so the next run does not start a
 * pod kept for inspection (and bill its GPU again) unless an input changes.
 */
export function desiredStatusOf(
  status: PodStatus | undefined,
  asked: "RUNNING" | "STOPPED" = "RUNNING",
): "RUNNING" | "STOPPED" {
  if (status === "ERROR") return asked;
  return status === "EXITED" ? "STOPPED" : "RUNNING";
}
