/**
 * An endpoint's compute (v2 description: CreateEndpointRequest `gpu`/`cpu`): GPU pools and their
 * types, CPU instance ids, and the checks a create or PATCH applies to the endpoint it would
 * produce (400).
 */

import { badRequest } from "../http/errors.js";
import type { EndpointScaling, EndpointType } from "../schemas/serverless.js";
import { ownedVolume, requireCpuFlavor, requireDataCenter, requireRegistry } from "../store/lookups.js";
import type { GpuTypeRecord } from "../store/records.js";
import type { CpuCompute, EndpointRecord, GpuCompute } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";

/** GPU types per serverless pool, in catalog order (a type with a null pool is in none). */
export function poolTypes(state: Store, pool: string): GpuTypeRecord[] {
  return state.seed.gpuTypes.filter((g) => g.pool === pool);
}

/** The GPU types a selection runs on: its pools' types minus the exclusions. */
export function eligibleTypes(state: Store, gpu: GpuCompute): string[] {
  return gpu.pools
    .flatMap((p) => poolTypes(state, p).map((g) => g.id))
    .filter((id) => !gpu.excludedTypes.includes(id));
}

function checkGpu(state: Store, gpu: GpuCompute): void {
  const known = new Set(
    state.seed.gpuTypes.map((g) => g.pool).filter((p): p is string => typeof p === "string"),
  );
  for (const pool of gpu.pools) {
    if (!known.has(pool)) {
      throw badRequest(
        `gpu.pools: '${pool}' is not a serverless GPU pool; see the pool field of GET /v2/catalog/gpus.`,
      );
    }
  }
  const inPools = gpu.pools.flatMap((p) => poolTypes(state, p).map((g) => g.id));
  for (const type of gpu.excludedTypes) {
    if (!inPools.includes(type)) {
      throw badRequest(
        `gpu.excludedTypes: '${type}' is not a GPU type in the selected pools (${gpu.pools.join(", ")}).`,
      );
    }
  }
  if (eligibleTypes(state, gpu).length === 0) {
    throw badRequest("gpu.excludedTypes excludes every GPU type of the selected pools; keep at least one.");
  }
  if (gpu.allowedCudaVersions.length > 0 && gpu.minCudaVersion !== null) {
    throw badRequest(
      'gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion cannot be combined; use one of them, or send [] or "" to clear the other.',
    );
  }
}

function checkCpu(state: Store, cpu: CpuCompute): void {
  cpu.configs.forEach((c, i) => {
    const flavor = requireCpuFlavor(state, c.id, `cpu[${i}].id`);
    if ((c.vcpuCount & (c.vcpuCount - 1)) !== 0)
      throw badRequest(`cpu[${i}].vcpuCount ${c.vcpuCount} must be a power of two.`);
    if (c.vcpuCount < flavor.vcpu.min || c.vcpuCount > flavor.vcpu.max) {
      throw badRequest(
        `cpu[${i}].vcpuCount ${c.vcpuCount} is not valid for flavor ${flavor.id} (${flavor.vcpu.min}-${flavor.vcpu.max}).`,
      );
    }
  });
}

/** The rules every v2 create and update applies to the endpoint it would produce. */
export function checkEndpoint(state: Store, e: EndpointRecord): void {
  if (e.compute.kind === "GPU") checkGpu(state, e.compute);
  else checkCpu(state, e.compute);
  if (e.workers.min > e.workers.max) {
    throw badRequest(`workers.min (${e.workers.min}) cannot be greater than workers.max (${e.workers.max}).`);
  }
  if (e.type === "LOAD_BALANCER" && e.scaling.type !== "REQUEST_COUNT") {
    throw badRequest(
      "scaling: LOAD_BALANCER endpoints scale on REQUEST_COUNT; QUEUE_DELAY is for QUEUE endpoints.",
    );
  }
  for (const id of e.dataCenterIds) requireDataCenter(state, id, "dataCenterIds:");
  for (const id of e.networkVolumes) {
    if (!ownedVolume(state, id, e.account))
      throw badRequest(`networkVolumes: network volume '${id}' does not exist.`);
  }
  requireRegistry(state, e.account, e.container.registry);
}

/** idleTimeout is "rejected on create/update" for queue endpoints scaling on request count. */
export function refuseIdleTimeout(
  type: EndpointType,
  scaling: EndpointScaling,
  sent: number | undefined,
): void {
  if (sent !== undefined && type === "QUEUE" && scaling.type === "REQUEST_COUNT") {
    throw badRequest(
      "workers.idleTimeout does not apply to a QUEUE endpoint scaling on REQUEST_COUNT; leave it out.",
    );
  }
}

export function instanceIds(state: Store, cpu: CpuCompute): string[] {
  return cpu.configs.map((c) => `${c.id}-${c.vcpuCount}-${memoryOf(state, c)}`);
}

export function memoryOf(state: Store, c: { id: string; vcpuCount: number }): number {
  return Math.round(c.vcpuCount * (state.cpuFlavorById.get(c.id)?.ramGbPerVcpu ?? 2));
}
