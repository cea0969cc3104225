/**
 * The cluster record and what a cluster's member pods are made of, shared by routes.ts (the
 * routes) and platform/seed-resources.ts (the seed's clusters), so the store imports no route module.
 */
import type { ClusterType } from "../schemas/clusters.js";
import type { Machine } from "../store/pod-records.js";
import type { GpuStock } from "../store/records.js";

export function roleOf(type: ClusterType, rank: number): string | undefined {
  if (type === "SLURM") return rank === 0 ? "SLURM_CONTROLLER" : "SLURM_COMPUTE";
  if (type === "RAY") return rank === 0 ? "RAY_HEAD" : "RAY_WORKER";
  return undefined;
}

export function overlayIp(rank: number): string {
  const n = rank + 2;
  return `10.65.${n >> 8}.${n & 255}`;
}

/** A member's machine: `count` GPUs of the data center's stock of the type (`stock`, if it has one). */
export function memberMachine(
  stock: GpuStock | undefined,
  dc: string,
  gpuTypeId: string,
  count: number,
  host: Pick<Machine, "portMap" | "held" | "publicIp">,
): Machine {
  return {
    dataCenterId: dc,
    gpuTypeId,
    gpuCount: count,
    vcpuCount: (stock?.vcpuPerGpu ?? 16) * count,
    memoryGb: (stock?.ramPerGpu ?? 100) * count,
    cudaVersion: stock?.cudaVersions.at(-1) ?? null,
    ...host,
  };
}
