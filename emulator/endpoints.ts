/**
 * The v1 view of the serverless endpoint store (serverless.ts) under rest_url: `/v1/endpoints`,
 * retired upstream on 2026-11-15 and kept for old clients (v1 description: EndpointCreateInput,
 * EndpointUpdateInput, Endpoint). Records are shared with `/v2/serverless`, so an endpoint created
 * here is read, patched and deleted there, and the other way round.
 *
 * How the v1 fields map to the one record (and so to v2):
 * - `gpuTypeIds` (GPU types in priority order) become a v2 selection with the same set of types:
 *   `gpu.pools` are the serverless pools holding them (catalog `pool`), `gpu.excludedTypes` the
 *   pools' other types. The v1 order is kept while the selection is unchanged; a v2 `gpu.pools`
 *   replaces it and v1 then reads the pools' types minus the exclusions, in catalog order. A type
 *   that is in no serverless pool cannot be expressed in v2 and is refused (400).
 * - `cpuFlavorIds` with one `vcpuCount` become one `cpu[]` entry per flavor at that count; v1 reads
 *   the flavors back with the first entry's count (v2 may list different counts per flavor).
 * - `workersMin`/`workersMax`/`idleTimeout` are `workers`; `scalerType`/`scalerValue` are
 *   `scaling` (`queueDelay` or `requestCount`); `executionTimeoutMs` is `timeout`; `flashboot`
 *   true is FLASHBOOT (PRIORITY_FLASHBOOT reads back as true and is kept), false is OFF.
 * - `networkVolumeId` and `networkVolumeIds` together are `networkVolumes`; v1 reads back all of
 *   them as `networkVolumeIds` and the `networkVolumeId` it set while that volume stays attached.
 * - `templateId` binds the template: its image, args, disk, ports and registry become the
 *   endpoint's container settings, and v1 `env` is what the endpoint sets on top of the template's
 *   env (v2 `env` is the merged result). An endpoint created through v2 without a template has no
 *   `templateId` in the v1 view. v1 endpoints are QUEUE endpoints.
 * - `version` is the release version: it moves when the template or the environment changes, as
 *   the v1 description says, because only container changes make a release (serverless.ts).
 *
 * Checks run in this order, so a body breaking several rules fails on the first: schema (422),
 * template (404 unknown, 400 not serverless), compute-type rules, workers, data centers, volumes
 * (all 400, the status the v1 description gives for a rejected create or update).
 */
import { userOf } from "./accounts.js";
import { badRequest, notFound } from "./errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "./routing.js";
import { V1CreateEndpointRequest, V1UpdateEndpointRequest } from "./schemas/serverless.js";
import { deleteEndpointRecord } from "./serverless.js";
import { eligibleTypes, instanceIds, selectionFromTypes } from "./serverless-compute.js";
import {
  type CpuCompute,
  type EndpointRecord,
  type GpuCompute,
  requireEndpoint,
} from "./serverless-records.js";
import { newRelease, recordRelease } from "./serverless-releases.js";
import { checkpointEndpoint } from "./serverless-usage.js";
import { endpointWorkers } from "./serverless-workers.js";
import {
  type EmulatorState,
  ownedVolume,
  readableTemplate,
  requireCpuFlavor,
  requireDataCenter,
  requireGpuType,
  type TemplateRecord,
} from "./state.js";
import { templateView } from "./templates.js";
import { validateBody } from "./validation.js";

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
interface V1Settings {
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
function v1Settings(state: EmulatorState, e: EndpointRecord): V1Settings {
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
function v1Template(state: EmulatorState, templateId: string, account: string): TemplateRecord {
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
function checkV1(
  state: EmulatorState,
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
function applyV1(
  state: EmulatorState,
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

// ---------------------------------------------------------------- handlers

function createEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(V1CreateEndpointRequest, ctx.body);
  const computeType = body.computeType ?? V1_DEFAULTS.computeType;
  const settings: V1Settings = {
    name: body.name ?? "", // an unnamed endpoint is named below, once it has an id
    templateId: body.templateId,
    computeType,
    // Fields of the other compute type "will be ignored" (v1 description).
    ...(computeType === "GPU"
      ? {
          ...(body.gpuTypeIds === undefined ? {} : { gpuTypeIds: body.gpuTypeIds }),
          ...(body.minCudaVersion === undefined ? {} : { minCudaVersion: body.minCudaVersion }),
        }
      : body.cpuFlavorIds === undefined
        ? {}
        : { cpuFlavorIds: body.cpuFlavorIds }),
    gpuCount: body.gpuCount ?? V1_DEFAULTS.gpuCount,
    allowedCudaVersions: body.allowedCudaVersions ?? [],
    vcpuCount: body.vcpuCount ?? V1_DEFAULTS.vcpuCount,
    // The description's default is every data center; the emulator's world is the seed's.
    dataCenterIds: body.dataCenterIds ?? state.seed.dataCenters.map((d) => d.id),
    workersMin: body.workersMin ?? V1_DEFAULTS.workersMin,
    workersMax: body.workersMax ?? V1_DEFAULTS.workersMax,
    idleTimeout: body.idleTimeout ?? V1_DEFAULTS.idleTimeout,
    executionTimeoutMs: body.executionTimeoutMs ?? V1_DEFAULTS.executionTimeoutMs,
    flashboot: body.flashboot ?? V1_DEFAULTS.flashboot,
    scalerType: body.scalerType ?? V1_DEFAULTS.scalerType,
    scalerValue: body.scalerValue ?? V1_DEFAULTS.scalerValue,
    ...(body.networkVolumeId === undefined ? {} : { networkVolumeId: body.networkVolumeId }),
    networkVolumeIds: body.networkVolumeIds ?? [],
    env: body.env ?? {},
  };
  const template = checkV1(state, ctx.account, settings, true);
  const id = state.newId();
  // The name is optional in EndpointCreateInput; runpodctl names unnamed endpoints `endpoint-<random>`.
  settings.name = body.name ?? `endpoint-${id}`;
  const blank: EndpointRecord = {
    id,
    name: settings.name,
    type: "QUEUE",
    compute: { kind: "CPU", configs: [] },
    workers: { min: 0, max: 0, idleTimeout: 0 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    dataCenterIds: [],
    networkVolumes: [],
    timeout: 0,
    flashboot: "OFF",
    container: { image: "", args: "", disk: 0, ports: [], env: {}, registry: null },
    templateId: null,
    templateBound: false,
    templateEnv: {},
    createdAt: ctx.now,
    minChangedAt: ctx.now,
    billedFrom: ctx.now,
    version: 1,
    releases: [],
    userId: userOf(state, ctx.apiKey),
    account: ctx.account,
    jobCount: 0,
  };
  const e = applyV1(state, blank, settings, template, { templateId: true, env: true });
  e.minChangedAt = ctx.now;
  e.releases = [newRelease(state, e, ctx.now, e.userId, [])];
  state.endpoints.set(id, e);
  // The v1 description answers a create with 200 (not 201).
  return json(200, v1View(ctx, e));
}

/**
 * PATCH (and POST /update): the body is EndpointUpdateInput, which has no `computeType` (the
 * compute type is fixed at create), so sending it is a 422 like any unknown property. The rules
 * run on the merged endpoint; a rejected update changes nothing.
 */
function updateEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const current = requireEndpoint(state, ctx.params.id ?? "", ctx.account);
  const patch = validateBody(V1UpdateEndpointRequest, ctx.body);
  const merged: V1Settings = { ...v1Settings(state, current) };
  for (const [key, value] of Object.entries(patch)) {
    // The strict schema admits only V1Settings keys with their own types.
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  const template = checkV1(state, ctx.account, merged, patch.templateId !== undefined);
  if (current.type === "LOAD_BALANCER" && merged.scalerType !== "REQUEST_COUNT") {
    throw badRequest("scalerType: LOAD_BALANCER endpoints scale on REQUEST_COUNT.");
  }
  const next = applyV1(state, current, merged, template, {
    templateId: patch.templateId !== undefined,
    env: patch.env !== undefined,
  });
  recordRelease(state, current, next, ctx.now, userOf(state, ctx.apiKey));
  // The worker time so far was worked out from the settings this update replaces.
  checkpointEndpoint(state, current, ctx.now);
  next.billedFrom = current.billedFrom;
  state.endpoints.set(next.id, next);
  return json(200, v1View(ctx, next));
}

function deleteEndpoint(ctx: RouteContext) {
  deleteEndpointRecord(ctx.state, requireEndpoint(ctx.state, ctx.params.id ?? "", ctx.account));
  return noContent;
}

export const endpointRoutes: RouteTable = {
  rest: [
    { method: "POST", pattern: "/v1/endpoints", handler: createEndpoint },
    {
      method: "GET",
      pattern: "/v1/endpoints",
      handler: (ctx) =>
        json(
          200,
          [...ctx.state.endpoints.values()]
            .filter((e) => e.account === ctx.account)
            .map((e) => v1View(ctx, e)),
        ),
    },
    {
      method: "GET",
      pattern: "/v1/endpoints/:id",
      handler: (ctx) => json(200, v1View(ctx, requireEndpoint(ctx.state, ctx.params.id ?? "", ctx.account))),
    },
    { method: "PATCH", pattern: "/v1/endpoints/:id", handler: updateEndpoint },
    // The v1 description's second update operation, same body and answer as PATCH.
    { method: "POST", pattern: "/v1/endpoints/:id/update", handler: updateEndpoint },
    { method: "DELETE", pattern: "/v1/endpoints/:id", handler: deleteEndpoint },
  ],
};
