/**
 * A ServerlessEndpoint's replace/update table, over outputs written by today's code or by the v1
 * code before it (`currentView`).
 */

import { declaredChanges } from "../../fields/derive.js";
import { differs } from "../../validation/compare.js";
import { isUnknown } from "../../validation/unknown.js";
import { ENDPOINT_BODY, SERVERLESS_ENDPOINT } from "./fields.js";
import type { EndpointScalingInput, ServerlessEndpointInputs, ServerlessEndpointOutputs } from "./types.js";

// ---------------------------------------------------------------- state written by the v1 code

/** The outputs of a ServerlessEndpoint created through REST v1, as today's state may hold them. */
export interface V1Outputs {
  endpointId?: string;
  name?: string;
  templateId?: string;
  computeType?: "GPU" | "CPU";
  gpuTypeIds?: string[] | null;
  gpuCount?: number | null;
  cpuFlavorIds?: string[] | null;
  vcpuCount?: number | null;
  dataCenterIds?: string[] | null;
  allowedCudaVersions?: string[] | null;
  minCudaVersion?: string | null;
  workersMin?: number;
  workersMax?: number;
  idleTimeout?: number | null;
  executionTimeoutMs?: number | null;
  flashboot?: boolean | null;
  scalerType?: string | null;
  scalerValue?: number | null;
  networkVolumeId?: string | null;
  networkVolumeIds?: string[] | null;
  env?: Record<string, string>;
  createdAt?: string | null;
  jobUrl?: string;
}

/**
 * The outputs as v2 fields. v1 outputs (no `type`, a `computeType`) are read as what they were: a
 * queue endpoint; `workersMin/Max` and `idleTimeout` are its workers, `scalerType/Value` its
 * scaling, `executionTimeoutMs` its timeout, a true `flashboot` is FLASHBOOT, `networkVolumeIds`
 * its networkVolumes. v1 named GPU types, v2 names pools: the pools of a v1 endpoint are unknown
 * until a refresh reads them, so a program's `gpu.pools` is an in-place update, never a replacement.
 */
export function currentView(
  olds: Partial<ServerlessEndpointOutputs> | V1Outputs,
): Partial<ServerlessEndpointOutputs> {
  if (!("computeType" in olds) || "type" in olds) return olds as Partial<ServerlessEndpointOutputs>;
  const v1 = olds as V1Outputs;
  const cpu =
    v1.computeType === "CPU"
      ? (v1.cpuFlavorIds ?? []).map((id) => ({ id, vcpuCount: v1.vcpuCount ?? 2, memory: null }))
      : null;
  const scalerValue = v1.scalerValue ?? 4;
  return {
    ...(v1.endpointId !== undefined ? { endpointId: v1.endpointId } : {}),
    ...(v1.name !== undefined ? { name: v1.name } : {}),
    type: "QUEUE",
    templateId: v1.templateId ?? null,
    env: v1.env ?? {},
    gpu:
      v1.computeType === "GPU"
        ? {
            pools: [],
            excludedTypes: [],
            count: v1.gpuCount ?? 1,
            allowedCudaVersions: v1.allowedCudaVersions ?? [],
            minCudaVersion: v1.minCudaVersion ?? null,
          }
        : null,
    cpu,
    workers: { min: v1.workersMin ?? 0, max: v1.workersMax ?? 3, idleTimeout: v1.idleTimeout ?? null },
    scaling:
      v1.scalerType === "REQUEST_COUNT"
        ? { type: "REQUEST_COUNT", queueDelay: null, requestCount: scalerValue }
        : { type: "QUEUE_DELAY", queueDelay: scalerValue, requestCount: null },
    flashboot: v1.flashboot ? "FLASHBOOT" : "OFF",
    networkVolumes: [...(v1.networkVolumeIds ?? []), ...(v1.networkVolumeId ? [v1.networkVolumeId] : [])],
    dataCenterIds: v1.dataCenterIds ?? [],
    ...(typeof v1.executionTimeoutMs === "number" ? { timeout: v1.executionTimeoutMs } : {}),
    createdAt: v1.createdAt ?? null,
  };
}

// ---------------------------------------------------------------- the table

/** Changes that restart active workers (docs/api-model.md, Serverless endpoints). */
const RESTARTING = ["gpu.pools", "gpu.excludedTypes", "gpu.count", "workers.min", "workers.max"];

/** The inputs compared here rather than by their declaration alone: the compute, the workers, the scaler. */
const COMPARED_HERE = ["gpu", "cpu", "workers", "scaling"] as const;

type Setting = Exclude<keyof typeof ENDPOINT_BODY, "name" | "env" | (typeof COMPARED_HERE)[number]>;

/**
 * The settings create and PATCH send as given, each compared by its declaration (fields.ts): a
 * left-out one is no opinion.
 */
export const SETTINGS = Object.keys(ENDPOINT_BODY).filter(
  (k) => k !== "name" && k !== "env" && !(COMPARED_HERE as readonly string[]).includes(k),
) as readonly Setting[];

const familyOf = (e: { gpu?: unknown; cpu?: unknown }) => (e.cpu ? "CPU" : e.gpu ? "GPU" : undefined);

/**
 * The replace/update table (pure), as each input's declaration says (fields.ts): a new `type` or
 * compute family replaces (both fixed at create); everything else is PATCHed in place. An unknown
 * value (preview) counts as a change.
 */
export function diffServerlessEndpoint(
  olds: Partial<ServerlessEndpointOutputs> | V1Outputs,
  news: ServerlessEndpointInputs,
) {
  const current = currentView(olds);
  const { replaces, updates } = declaredChanges(SERVERLESS_ENDPOINT, current, news, COMPARED_HERE);
  const family = familyOf(news);
  const oldFamily = familyOf(current);
  if (isUnknown(news.gpu) || isUnknown(news.cpu) || (family && oldFamily && family !== oldFamily)) {
    replaces.push(news.cpu ? "cpu" : "gpu");
  }

  if (news.gpu && !replaces.includes("gpu") && current.gpu) {
    const g = news.gpu;
    const o = current.gpu;
    if (differs(g.pools, o.pools)) updates.push("gpu.pools");
    if (g.excludedTypes !== undefined && differs(g.excludedTypes, o.excludedTypes ?? []))
      updates.push("gpu.excludedTypes");
    if (differs(g.count ?? 1, o.count)) updates.push("gpu.count");
    if (g.allowedCudaVersions !== undefined && differs(g.allowedCudaVersions, o.allowedCudaVersions ?? []))
      updates.push("gpu.allowedCudaVersions");
    if (g.minCudaVersion !== undefined && differs(g.minCudaVersion, o.minCudaVersion))
      updates.push("gpu.minCudaVersion");
  }
  if (
    news.cpu &&
    !replaces.includes("cpu") &&
    differs(
      news.cpu,
      (current.cpu ?? []).map(({ id, vcpuCount }) => ({ id, vcpuCount })),
    )
  )
    updates.push("cpu");
  if (news.workers) {
    for (const k of ["min", "max", "idleTimeout"] as const) {
      const n = news.workers[k];
      if (n !== undefined && differs(n, current.workers?.[k])) updates.push(`workers.${k}`);
    }
  }
  if (news.scaling && differs(news.scaling, scalingOf(current.scaling))) updates.push("scaling");
  return {
    changes: replaces.length + updates.length > 0,
    replaces,
    updates,
    restartsWorkers: updates.filter((u) => RESTARTING.includes(u)),
  };
}

/** The scaling as the program writes it (`queueDelay` or `requestCount`, not both with a null). */
export function scalingOf(
  s: ServerlessEndpointOutputs["scaling"] | undefined,
): EndpointScalingInput | undefined {
  if (!s) return undefined;
  return s.type === "REQUEST_COUNT"
    ? { type: "REQUEST_COUNT", requestCount: s.requestCount ?? 0 }
    : { type: "QUEUE_DELAY", queueDelay: s.queueDelay ?? 0 };
}
