/**
 * `/v1/endpoints` under rest_url (v1 description: EndpointCreateInput, EndpointUpdateInput,
 * Endpoint): the handlers. How the v1 fields map to the one endpoint record, and the order the
 * checks run in, is v1.ts.
 */

import { userOf } from "../account/accounts.js";
import { badRequest } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { V1CreateEndpointRequest, V1UpdateEndpointRequest } from "../schemas/serverless.js";
import type { EndpointRecord } from "../store/serverless-records.js";
import { deleteEndpointRecord, requireEndpoint } from "./endpoints.js";
import { newRelease, recordRelease } from "./releases.js";
import { checkpointEndpoint } from "./usage.js";
import { applyV1, checkV1, V1_DEFAULTS, type V1Settings, v1Settings, v1View } from "./v1.js";

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
