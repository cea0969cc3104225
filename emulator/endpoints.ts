/**
 * Serverless endpoint management under rest_url (`/v1/endpoints`). The contract shows only the
 * create body's core fields (contract: "POST {rest_url}/v1/endpoints"); the defaults, the response
 * object and the other operations follow the v1 description (runpod-openapi-v1.json:
 * EndpointCreateInput, EndpointUpdateInput, Endpoint).
 *
 * Checks run in this order, so a body breaking several rules fails on the first: schema (422),
 * template (404 unknown, 400 not serverless), compute-type rules, workers, data centers, volumes
 * (all 400, the status the description gives for a rejected create or update).
 */
import { createHash } from "node:crypto";
import {
  type COMPUTE_TYPES,
  CreateEndpointRequest,
  type SCALER_TYPES,
  UpdateEndpointRequest,
} from "../provider/client/schemas/endpoints.js";
import { badRequest, notFound } from "./errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "./routing.js";
import { type EmulatorState, requireCpuFlavor, requireDataCenter, requireGpuType } from "./state.js";
import { templateView } from "./templates.js";
import { validateBody } from "./validation.js";

/** Defaults of EndpointCreateInput (v1 description), plus runpodctl's workersMax default of 3. */
export const ENDPOINT_DEFAULTS = {
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

/**
 * Everything a create or update sets: the Endpoint response object (v1 description) without its
 * identity, bookkeeping and derived fields. Fields of the other compute type are not kept: the
 * description says they "will be ignored".
 */
type EndpointSettings = {
  name: string;
  templateId: string;
  computeType: (typeof COMPUTE_TYPES)[number];
  /** GPU endpoints only. */
  gpuTypeIds?: string[];
  gpuCount?: number;
  allowedCudaVersions?: string[];
  minCudaVersion?: string;
  /** CPU endpoints only. */
  cpuFlavorIds?: string[];
  vcpuCount?: number;
  dataCenterIds: string[];
  workersMin: number;
  workersMax: number;
  idleTimeout: number;
  executionTimeoutMs: number;
  flashboot: boolean;
  scalerType: (typeof SCALER_TYPES)[number];
  scalerValue: number;
  networkVolumeId?: string;
  networkVolumeIds: string[];
  env: Record<string, string>;
};

/**
 * What the emulator stores per endpoint (`state.endpoints`), which is also what GET answers (the
 * `template`/`workers` expansions are added per request).
 */
export type ServerlessEndpoint = EndpointSettings & {
  id: string;
  /** CPU endpoints only, derived from the flavors as `<flavor>-<vcpu>-<memoryGb>`. */
  instanceIds?: string[];
  createdAt: string;
  /** Bumped whenever the template or the environment changes (v1 description: Endpoint.version). */
  version: number;
  userId: string;
};

/** The endpoint stored under `id`, if any. */
export function findEndpoint(state: EmulatorState, id: string): ServerlessEndpoint | undefined {
  return state.endpoints.get(id);
}

function requireEndpoint(state: EmulatorState, id: string): ServerlessEndpoint {
  const endpoint = findEndpoint(state, id);
  if (!endpoint) throw notFound(`Endpoint '${id}' was not found.`);
  return endpoint;
}

/** A stable per-key user id, shaped like the description's example (`user_...`). */
function userIdFor(apiKey: string): string {
  return `user_${createHash("sha256").update(apiKey).digest("hex").slice(0, 27)}`;
}

// ---------------------------------------------------------------- rules

/** Unknown id: 404 (as for pods, contract: Errors); a pod template cannot back an endpoint: 400. */
function checkTemplate(state: EmulatorState, templateId: string): void {
  const template = state.templates.get(templateId);
  if (!template) throw notFound(`Template '${templateId}' was not found or is not accessible.`);
  if (!template.serverless) {
    throw badRequest(
      `Template '${templateId}' is not a serverless template; an endpoint needs a template created with serverless: true.`,
    );
  }
}

/**
 * The cross-field rules, applied to the endpoint as it would be after a create or update, and the
 * endpoint reduced to the fields of its compute type.
 */
function checkedSettings(state: EmulatorState, wanted: EndpointSettings): EndpointSettings {
  checkTemplate(state, wanted.templateId);
  const { gpuTypeIds, gpuCount, allowedCudaVersions, minCudaVersion, cpuFlavorIds, vcpuCount, ...common } =
    wanted;
  let computeFields: Partial<EndpointSettings>;
  if (wanted.computeType === "GPU") {
    if (!gpuTypeIds || gpuTypeIds.length === 0) {
      throw badRequest(
        "gpuTypeIds must list at least one GPU type for a GPU endpoint (computeType GPU, the default).",
      );
    }
    for (const id of gpuTypeIds) requireGpuType(state, id, "gpuTypeIds:");
    computeFields = {
      gpuTypeIds,
      gpuCount: gpuCount ?? ENDPOINT_DEFAULTS.gpuCount,
      allowedCudaVersions: allowedCudaVersions ?? [],
      ...(minCudaVersion === undefined ? {} : { minCudaVersion }),
    };
  } else {
    if (!cpuFlavorIds || cpuFlavorIds.length === 0) {
      throw badRequest(
        "cpuFlavorIds must list at least one CPU flavor for a CPU endpoint (computeType CPU).",
      );
    }
    for (const id of cpuFlavorIds) requireCpuFlavor(state, id, "cpuFlavorIds:");
    computeFields = { cpuFlavorIds, vcpuCount: vcpuCount ?? ENDPOINT_DEFAULTS.vcpuCount };
  }
  if (common.workersMin > common.workersMax) {
    throw badRequest(
      `workersMin (${common.workersMin}) cannot be greater than workersMax (${common.workersMax}).`,
    );
  }
  for (const id of common.dataCenterIds) requireDataCenter(state, id, "dataCenterIds:");
  for (const id of [
    ...(common.networkVolumeId === undefined ? [] : [common.networkVolumeId]),
    ...common.networkVolumeIds,
  ]) {
    if (!state.networkVolumes.has(id)) throw badRequest(`Network volume '${id}' does not exist.`);
  }
  return { ...common, ...computeFields };
}

/** `cpu3c-8-16`: flavor, vCPUs per worker, memory in GB (the description's Endpoint.instanceIds example). */
function instanceIdsFor(state: EmulatorState, settings: EndpointSettings): string[] | undefined {
  if (settings.computeType !== "CPU") return undefined;
  const vcpu = settings.vcpuCount ?? ENDPOINT_DEFAULTS.vcpuCount;
  return (settings.cpuFlavorIds ?? []).map((id) => {
    const ramPerVcpu = state.cpuFlavorById.get(id)?.ramGbPerVcpu ?? 2;
    return `${id}-${vcpu}-${vcpu * ramPerVcpu}`;
  });
}

/** The settings with every field the PATCH body sets replaced (UpdateEndpointRequest is strict). */
function withPatch(current: EndpointSettings, patch: UpdateEndpointRequest): EndpointSettings {
  const next: EndpointSettings = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    // The strict schema admits only EndpointSettings keys with their own types, so this cannot
    // put a foreign field or a wrongly typed value on the endpoint.
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => b[k] === a[k]);
}

// ---------------------------------------------------------------- the response object

/** The Endpoint object; `includeTemplate`/`includeWorkers` add the expansions the description lists. */
function endpointView(ctx: RouteContext, endpoint: ServerlessEndpoint): Record<string, unknown> {
  const view: Record<string, unknown> = { ...endpoint };
  if (ctx.query.get("includeTemplate") === "true") {
    const template = ctx.state.templates.get(endpoint.templateId);
    if (template) view.template = templateView(template);
  }
  // Workers are not modelled: jobs run on a virtual worker, so the list is always empty.
  if (ctx.query.get("includeWorkers") === "true") view.workers = [];
  return view;
}

// ---------------------------------------------------------------- handlers

function createEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateEndpointRequest, ctx.body);
  const settings = checkedSettings(state, {
    name: body.name ?? "", // an unnamed endpoint is named below, once it has an id
    templateId: body.templateId,
    computeType: body.computeType ?? ENDPOINT_DEFAULTS.computeType,
    ...(body.gpuTypeIds === undefined ? {} : { gpuTypeIds: body.gpuTypeIds }),
    ...(body.gpuCount === undefined ? {} : { gpuCount: body.gpuCount }),
    ...(body.allowedCudaVersions === undefined ? {} : { allowedCudaVersions: body.allowedCudaVersions }),
    ...(body.minCudaVersion === undefined ? {} : { minCudaVersion: body.minCudaVersion }),
    ...(body.cpuFlavorIds === undefined ? {} : { cpuFlavorIds: body.cpuFlavorIds }),
    ...(body.vcpuCount === undefined ? {} : { vcpuCount: body.vcpuCount }),
    // The description's default is every data center; the emulator's world is the seed's.
    dataCenterIds: body.dataCenterIds ?? state.seed.dataCenters.map((d) => d.id),
    workersMin: body.workersMin ?? ENDPOINT_DEFAULTS.workersMin,
    workersMax: body.workersMax ?? ENDPOINT_DEFAULTS.workersMax,
    idleTimeout: body.idleTimeout ?? ENDPOINT_DEFAULTS.idleTimeout,
    executionTimeoutMs: body.executionTimeoutMs ?? ENDPOINT_DEFAULTS.executionTimeoutMs,
    flashboot: body.flashboot ?? ENDPOINT_DEFAULTS.flashboot,
    scalerType: body.scalerType ?? ENDPOINT_DEFAULTS.scalerType,
    scalerValue: body.scalerValue ?? ENDPOINT_DEFAULTS.scalerValue,
    ...(body.networkVolumeId === undefined ? {} : { networkVolumeId: body.networkVolumeId }),
    networkVolumeIds: body.networkVolumeIds ?? [],
    env: body.env ?? {},
  });
  const instanceIds = instanceIdsFor(state, settings);
  const id = state.newId();
  const endpoint: ServerlessEndpoint = {
    id,
    ...settings,
    // The name is optional in EndpointCreateInput; runpodctl names unnamed endpoints `endpoint-<random>`.
    name: body.name ?? `endpoint-${id}`,
    ...(instanceIds ? { instanceIds } : {}),
    createdAt: new Date(ctx.now).toISOString(),
    version: 1,
    userId: userIdFor(ctx.apiKey),
  };
  state.endpoints.set(endpoint.id, endpoint);
  // The description answers a create with 200 (not 201).
  return json(200, endpointView(ctx, endpoint));
}

function listEndpoints(ctx: RouteContext) {
  const endpoints = [...ctx.state.endpoints.values()].map((e) => endpointView(ctx, e));
  return json(200, endpoints);
}

function getEndpoint(ctx: RouteContext) {
  return json(200, endpointView(ctx, requireEndpoint(ctx.state, ctx.params.id ?? "")));
}

/**
 * PATCH: the body is EndpointUpdateInput, which has no `computeType` (the compute type is fixed at
 * create), so sending it is a 422 like any unknown property. The rules run on the merged endpoint;
 * a rejected update changes nothing.
 */
function updateEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const current = requireEndpoint(state, ctx.params.id ?? "");
  const patch = validateBody(UpdateEndpointRequest, ctx.body);
  const { id, createdAt, version, userId, instanceIds: _derived, ...currentSettings } = current;
  const settings = checkedSettings(state, withPatch(currentSettings, patch));
  const changesRelease = settings.templateId !== current.templateId || !sameEnv(settings.env, current.env);
  const instanceIds = instanceIdsFor(state, settings);
  const next: ServerlessEndpoint = {
    id,
    ...settings,
    ...(instanceIds ? { instanceIds } : {}),
    createdAt,
    version: changesRelease ? version + 1 : version,
    userId,
  };
  state.endpoints.set(id, next);
  return json(200, endpointView(ctx, next));
}

/** Deleting an endpoint removes its job history too (contract: "configuration, logs and job history"). */
function deleteEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const endpoint = requireEndpoint(state, ctx.params.id ?? "");
  state.endpoints.delete(endpoint.id);
  for (const [jobId, job] of state.jobs) if (job.endpointId === endpoint.id) state.jobs.delete(jobId);
  return noContent;
}

export const endpointRoutes: RouteTable = {
  rest: [
    { method: "POST", pattern: "/v1/endpoints", handler: createEndpoint },
    { method: "GET", pattern: "/v1/endpoints", handler: listEndpoints },
    { method: "GET", pattern: "/v1/endpoints/:id", handler: getEndpoint },
    { method: "PATCH", pattern: "/v1/endpoints/:id", handler: updateEndpoint },
    { method: "DELETE", pattern: "/v1/endpoints/:id", handler: deleteEndpoint },
  ],
};
