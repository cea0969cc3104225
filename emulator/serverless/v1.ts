import { templateView } from "../account/templates.js";
import { badRequest, notFound } from "../http/errors.js";
import type { RouteContext } from "../http/routing.js";
import {
  ownedVolume,
  readableTemplate,
  requireCpuFlavor,
  requireDataCenter,
  requireGpuType,
} from "../store/lookups.js";
import type { TemplateRecord } from "../store/records.js";
import type { CpuCompute, EndpointRecord, GpuCompute } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { eligibleTypes, instanceIds, selectionFromTypes } from "./compute.js";
import { endpointWorkers } from "./workers.js";

/** Defaults of EndpointCreateInput (v1 description), plus runpodctl's workersMax default of 3. */
export const V1_DEFAULTS = {
  computeType: "GPU",
  gpuCount: 1,
  vcpuCount: 2,
  idleTimeout: 5,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  workersMin: 0,
  /** The description gives only an example (3); runpodctl's `serverless create` defaults to 3. */
  workersMax: 3,
  /** The description's example value; it states no default. */
  executionTimeoutMs: 600_000,
  flashboot: false,
} as const;

/** Every v1 field of an endpoint, as a create or update sets it (no identity or bookkeeping). */
export interface V1Settings {
  name: string;
  /** "" for an endpoint created through v2 without a template. */
  templateId: string;
  computeType: "GPU" | "CPU";
  gpuTypeIds?: string[];
  gpuCount: number;
  allowedCudaVersions: string[];
  minCudaVersion?: string;
  cpuFlavorIds?: string[];
  vcpuCount: number;
  dataCenterIds: string[];
  workersMin: number;
  workersMax: number;
  idleTimeout: number;
  executionTimeoutMs: number;
  flashboot: boolean;
  scalerType: "QUEUE_DELAY" | "REQUEST_COUNT";
  scalerValue: number;
  networkVolumeId?: string;
  networkVolumeIds: string[];
  env: Record<string, string>;
}

/** The endpoint as v1 fields. */
export function v1Settings(state: Store, e: EndpointRecord): V1Settings {
  const c = e.compute;
  return {
    name: e.name,
    templateId: e.templateId ?? "",
    computeType: c.kind,
    ...(c.kind === "GPU"
      ? {
          gpuTypeIds: eligibleTypes(state, c),
          gpuCount: c.count,
          allowedCudaVersions: c.allowedCudaVersions,
          ...(c.minCudaVersion === null ? {} : { minCudaVersion: c.minCudaVersion }),
          vcpuCount: V1_DEFAULTS.vcpuCount,
        }
      : {
          cpuFlavorIds: [...new Set(c.configs.map((x) => x.id))],
          vcpuCount: c.configs[0]?.vcpuCount ?? V1_DEFAULTS.vcpuCount,
          gpuCount: V1_DEFAULTS.gpuCount,
          allowedCudaVersions: [],
        }),
    dataCenterIds: e.dataCenterIds,
    workersMin: e.workers.min,
    workersMax: e.workers.max,
    idleTimeout: e.workers.idleTimeout,
    executionTimeoutMs: e.timeout,
    flashboot: e.flashboot !== "OFF",
    scalerType: e.scaling.type,
    scalerValue: e.scaling.type === "QUEUE_DELAY" ? e.scaling.queueDelay : e.scaling.requestCount,
    ...(e.v1PrimaryVolume === undefined ? {} : { networkVolumeId: e.v1PrimaryVolume }),
    networkVolumeIds: e.networkVolumes,
    env: v1Env(e),
  };
}

/** The env the endpoint sets on top of its template's. */
function v1Env(e: EndpointRecord): Record<string, string> {
  return Object.fromEntries(Object.entries(e.container.env).filter(([k, v]) => e.templateEnv[k] !== v));
}

// ---------------------------------------------------------------- rules (v1 wording)

/** Unknown id: 404 (as for pods, contract: Errors); a pod template cannot back an endpoint: 400. */
function v1Template(state: Store, templateId: string, account: string): TemplateRecord {
  const template = readableTemplate(state, templateId, account);
  if (!template) throw notFound(`Template '${templateId}' was not found or is not accessible.`);
  if (!template.serverless) {
    throw badRequest(
      `Template '${templateId}' is not a serverless template; an endpoint needs a template created with serverless: true.`,
    );
  }
  return template;
}

/**
 * The v1 rules, on the endpoint as it would be after a create or update, and the template the
 * request binds (`bindsTemplate`: a create, or an update that sends `templateId`).
 */
export function checkV1(
  state: Store,
  account: string,
  s: V1Settings,
  bindsTemplate: boolean,
): TemplateRecord | undefined {
  const template = bindsTemplate ? v1Template(state, s.templateId, account) : undefined;
  if (s.computeType === "GPU") {
    if (!s.gpuTypeIds || s.gpuTypeIds.length === 0) {
      throw badRequest(
        "gpuTypeIds must list at least one GPU type for a GPU endpoint (computeType GPU, the default).",
      );
    }
    for (const id of s.gpuTypeIds) {
      const type = requireGpuType(state, id, "gpuTypeIds:");
      if (!type.pool)
        throw badRequest(`gpuTypeIds: '${id}' is not offered on serverless (it is in no serverless pool).`);
    }
  } else {
    if (!s.cpuFlavorIds || s.cpuFlavorIds.length === 0) {
      throw badRequest(
        "cpuFlavorIds must list at least one CPU flavor for a CPU endpoint (computeType CPU).",
      );
    }
    for (const id of s.cpuFlavorIds) requireCpuFlavor(state, id, "cpuFlavorIds:");
  }
  if (s.workersMin > s.workersMax) {
    throw badRequest(`workersMin (${s.workersMin}) cannot be greater than workersMax (${s.workersMax}).`);
  }
  for (const id of s.dataCenterIds) requireDataCenter(state, id, "dataCenterIds:");
  for (const id of [...(s.networkVolumeId === undefined ? [] : [s.networkVolumeId]), ...s.networkVolumeIds]) {
    if (!ownedVolume(state, id, account)) throw badRequest(`Network volume '${id}' does not exist.`);
  }
  return template;
}

/**
 * The record `s` describes, over `base` (the current record on update). The container settings
 * change only with what the request sent: `templateId` binds that template (its image, args,
 * disk, ports and registry; its env under the endpoint's), `env` sets the endpoint's env on top of
 * the template's.
 */
export function applyV1(
  state: Store,
  base: EndpointRecord,
  s: V1Settings,
  template: TemplateRecord | undefined,
  sent: { templateId: boolean; env: boolean },
): EndpointRecord {
  const next = structuredClone(base);
  next.name = s.name;
  if (s.computeType === "GPU") {
    const types = s.gpuTypeIds ?? [];
    const current = base.compute.kind === "GPU" ? base.compute : undefined;
    const sameSet =
      current !== undefined && sameList([...eligibleTypes(state, current)].sort(), [...types].sort());
    const compute: GpuCompute = {
      kind: "GPU",
      // An unchanged set keeps a v2 selection as it was (pools and exclusions, not re-derived).
      ...(sameSet && current
        ? { pools: current.pools, excludedTypes: current.excludedTypes }
        : selectionFromTypes(state, types)),
      count: s.gpuCount,
      allowedCudaVersions: s.allowedCudaVersions,
      minCudaVersion: s.minCudaVersion ?? null,
      typeOrder: types,
    };
    next.compute = compute;
  } else {
    const current = base.compute.kind === "CPU" ? base.compute : undefined;
    const ids = s.cpuFlavorIds ?? [];
    const compute: CpuCompute = {
      kind: "CPU",
      // Unchanged flavors and count keep a v2 list with per-flavor counts as it was.
      configs:
        current &&
        sameList([...new Set(current.configs.map((c) => c.id))], ids) &&
        current.configs[0]?.vcpuCount === s.vcpuCount
          ? current.configs
          : ids.map((id) => ({ id, vcpuCount: s.vcpuCount })),
    };
    next.compute = compute;
  }
  next.dataCenterIds = s.dataCenterIds;
  if (s.workersMin !== base.workers.min) next.minChangedAt = state.now();
  next.workers = { min: s.workersMin, max: s.workersMax, idleTimeout: s.idleTimeout };
  next.timeout = s.executionTimeoutMs;
  next.flashboot = s.flashboot ? (base.flashboot === "OFF" ? "FLASHBOOT" : base.flashboot) : "OFF";
  next.scaling =
    s.scalerType === "QUEUE_DELAY"
      ? { type: "QUEUE_DELAY", queueDelay: s.scalerValue }
      : { type: "REQUEST_COUNT", requestCount: s.scalerValue };
  next.networkVolumes = [
    ...new Set([...(s.networkVolumeId === undefined ? [] : [s.networkVolumeId]), ...s.networkVolumeIds]),
  ];
  if (s.networkVolumeId === undefined) delete next.v1PrimaryVolume;
  else next.v1PrimaryVolume = s.networkVolumeId;
  if (sent.templateId && template) {
    next.container = {
      image: template.image,
      args: template.args,
      disk: template.disk,
      ports: [...template.ports],
      env: next.container.env,
      registry: template.registry,
    };
    next.templateId = template.id;
    next.templateBound = true;
    next.templateEnv = { ...template.env };
  }
  if (sent.templateId || sent.env) next.container.env = { ...next.templateEnv, ...s.env };
  return next;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

// ---------------------------------------------------------------- the v1 view

/** The v1 Endpoint; `includeTemplate`/`includeWorkers` add the expansions the v1 description lists. */
export function v1View(ctx: RouteContext, e: EndpointRecord): Record<string, unknown> {
  const { state } = ctx;
  const s = v1Settings(state, e);
  const c = e.compute;
  const view: Record<string, unknown> = {
    id: e.id,
    name: s.name,
    ...(e.templateId === null ? {} : { templateId: e.templateId }),
    computeType: s.computeType,
    ...(c.kind === "GPU"
      ? {
          gpuTypeIds: s.gpuTypeIds,
          gpuCount: s.gpuCount,
          allowedCudaVersions: s.allowedCudaVersions,
          ...(s.minCudaVersion === undefined ? {} : { minCudaVersion: s.minCudaVersion }),
        }
      : { cpuFlavorIds: s.cpuFlavorIds, vcpuCount: s.vcpuCount, instanceIds: instanceIds(state, c) }),
    dataCenterIds: s.dataCenterIds,
    workersMin: s.workersMin,
    workersMax: s.workersMax,
    idleTimeout: s.idleTimeout,
    executionTimeoutMs: s.executionTimeoutMs,
    flashboot: s.flashboot,
    scalerType: s.scalerType,
    scalerValue: s.scalerValue,
    ...(s.networkVolumeId === undefined ? {} : { networkVolumeId: s.networkVolumeId }),
    networkVolumeIds: s.networkVolumeIds,
    env: s.env,
    createdAt: new Date(e.createdAt).toISOString(),
    version: e.version,
    userId: e.userId,
  };
  if (ctx.query.get("includeTemplate") === "true" && e.templateId !== null) {
    const template = readableTemplate(state, e.templateId, e.account);
    if (template) view.template = templateView(template);
  }
  if (ctx.query.get("includeWorkers") === "true") {
    // v1 lists workers as pods; the fields a v1 Pod and a v2 Worker share.
    view.workers = endpointWorkers(state, e, ctx.now).map((w) => ({
      id: w.id,
      name: `${e.name}-worker-${w.index}`,
      desiredStatus: "RUNNING",
      image: e.releases.find((r) => r.version === w.version)?.container.image ?? e.container.image,
      gpuCount: c.kind === "GPU" ? c.count : 0,
    }));
  }
  return view;
}
