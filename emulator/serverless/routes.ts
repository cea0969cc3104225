/**
 * Serverless endpoints, the v2 view under base_url (`/v2/serverless`, v2 description:
 * CreateEndpointRequest, UpdateEndpointRequest, Endpoint, Worker, Release) of the endpoint store
 * (store/serverless-records.ts).
 *
 * Create checks, in order: schema (422), exactly one of gpu/cpu (400), the command rule (400), the
 * template (404 unknown, 422 not serverless), compute (400), workers (400), idleTimeout with
 * request-count scaling (400), data centers, network volumes, registry (400). A PATCH checks the
 * endpoint it would produce; a rejected PATCH changes nothing. Releases are releases.ts,
 * workers workers.ts.
 */

import { userOf } from "../account/accounts.js";
import { badRequest } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { nextArgs, readCommand } from "../pods/command.js";
import { CreateEndpointRequest, type EndpointType, UpdateEndpointRequest } from "../schemas/serverless.js";
import { type EndpointRecord, V2_DEFAULTS } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { checkEndpoint, memoryOf, refuseIdleTimeout } from "./compute.js";
import { deleteEndpointRecord, requireEndpoint } from "./endpoints.js";
import { newRelease, recordRelease, serverlessTemplate } from "./releases.js";
import { checkpointEndpoint } from "./usage.js";
import { endpointWorkers, workerView } from "./workers.js";

// ---------------------------------------------------------------- the v2 view

/** Request URLs per type, on the emulator's serverless_url (v2 description: EndpointRequestUrls). */
function requestUrls(state: Store, e: EndpointRecord): Record<string, string> {
  const at = `${state.urls.serverless}/v2/${e.id}`;
  if (e.type === "QUEUE") {
    return {
      run: `${at}/run`,
      runSync: `${at}/runsync`,
      status: `${at}/status/{job_id}`,
      stream: `${at}/stream/{job_id}`,
      cancel: `${at}/cancel/{job_id}`,
      retry: `${at}/retry/{job_id}`,
      purgeQueue: `${at}/purge-queue`,
      health: `${at}/health`,
    };
  }
  // Upstream gives each load-balancing endpoint its own host (`https://<id>.api.runpod.ai`); the
  // emulator has one listener, so the endpoint's host is a path prefix on it.
  const base = `${state.urls.serverless}/lb/${e.id}`;
  const path = e.container.env.HEALTH_CHECK_PATH ?? "/ping";
  return { base, health: `${base}${path.startsWith("/") ? path : `/${path}`}` };
}

export function v2View(
  state: Store,
  e: EndpointRecord,
): Record<string, unknown> & { id: string; name: string; type: EndpointType } {
  const { entrypoint, cmd } = readCommand(e.container.args);
  const c = e.compute;
  // idleTimeout is "omitted from responses" for a queue endpoint scaling on request count.
  const hideIdle = e.type === "QUEUE" && e.scaling.type === "REQUEST_COUNT";
  return {
    id: e.id,
    name: e.name,
    type: e.type,
    requestUrls: requestUrls(state, e),
    image: e.container.image,
    args: e.container.args,
    entrypoint,
    cmd,
    disk: e.container.disk,
    ports: e.container.ports,
    env: e.container.env,
    registry: e.container.registry,
    ...(c.kind === "GPU"
      ? {
          gpu: {
            pools: c.pools,
            ...(c.excludedTypes.length > 0 ? { excludedTypes: c.excludedTypes } : {}),
            count: c.count,
            allowedCudaVersions: c.allowedCudaVersions,
            minCudaVersion: c.minCudaVersion,
          },
        }
      : { cpu: c.configs.map((x) => ({ id: x.id, vcpuCount: x.vcpuCount, memory: memoryOf(state, x) })) }),
    workers: {
      min: e.workers.min,
      max: e.workers.max,
      ...(hideIdle ? {} : { idleTimeout: e.workers.idleTimeout }),
    },
    scaling: e.scaling,
    dataCenterIds: e.dataCenterIds,
    networkVolumes: e.networkVolumes,
    timeout: e.timeout,
    flashboot: e.flashboot,
    createdAt: new Date(e.createdAt).toISOString(),
  };
}

function listWorkers(ctx: RouteContext) {
  const { state } = ctx;
  const e = requireEndpoint(state, ctx.params.id ?? "", ctx.account);
  const workers = endpointWorkers(state, e, ctx.now).map((w) => workerView(state, e, w, ctx.now));
  const count = (s: string) => workers.filter((w) => w.status === s).length;
  return json(200, {
    workers,
    summary: {
      running: count("RUNNING"),
      idle: count("IDLE"),
      initializing: count("INITIALIZING"),
      throttled: count("THROTTLED"),
      unhealthy: count("UNHEALTHY"),
      total: workers.length,
    },
    endpointVersion: e.version,
  });
}

function listReleases(ctx: RouteContext) {
  const { state } = ctx;
  const e = requireEndpoint(state, ctx.params.id ?? "", ctx.account);
  const workers = endpointWorkers(state, e, ctx.now);
  const onLatest = workers.filter((w) => w.version === e.version).length;
  return json(200, {
    endpointVersion: e.version,
    rollout: {
      inProgress: onLatest < workers.length,
      workersOnLatest: onLatest,
      workersTotal: workers.length,
      percentOnLatest: workers.length === 0 ? 0 : Math.floor((onLatest * 100) / workers.length),
    },
    releases: [...e.releases].reverse().map((r) => ({
      id: r.id,
      version: r.version,
      source: "MANUAL",
      buildId: null,
      createdByUserId: r.createdByUserId,
      workerCount: workers.filter((w) => w.version === r.version).length,
      createdAt: new Date(r.createdAt).toISOString(),
      diff: r.diff,
    })),
  });
}

// ---------------------------------------------------------------- handlers

function createEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateEndpointRequest, ctx.body);
  if (!body.gpu === !body.cpu) throw badRequest("Exactly one of gpu or cpu must be set.");
  // The command rule is checked before the template is resolved (400 before 404), as for pods.
  nextArgs("", body);
  const template =
    body.templateId === undefined ? undefined : serverlessTemplate(state, body.templateId, ctx.account);
  const gpu = body.gpu;
  const id = state.newId();
  const e: EndpointRecord = {
    id,
    name: body.name,
    type: body.type,
    compute: gpu
      ? {
          kind: "GPU",
          pools: gpu.pools,
          excludedTypes: (gpu.excludedTypes ?? []).map((t) => t.trim()),
          count: gpu.count ?? V2_DEFAULTS.gpuCount,
          // The template's set seeds the body's, unless the body states either CUDA field.
          allowedCudaVersions:
            gpu.allowedCudaVersions ??
            (gpu.minCudaVersion === undefined ? [...(template?.allowedCudaVersions ?? [])] : []),
          minCudaVersion: gpu.minCudaVersion ?? null,
        }
      : { kind: "CPU", configs: body.cpu ?? [] },
    workers: {
      min: body.workers?.min ?? V2_DEFAULTS.workers.min,
      max: body.workers?.max ?? V2_DEFAULTS.workers.max,
      idleTimeout: body.workers?.idleTimeout ?? V2_DEFAULTS.workers.idleTimeout,
    },
    scaling: body.scaling,
    dataCenterIds: body.dataCenterIds ?? [],
    networkVolumes: body.networkVolumes ?? [],
    timeout: body.timeout ?? V2_DEFAULTS.timeout,
    flashboot: body.flashboot ?? V2_DEFAULTS.flashboot,
    container: {
      image: body.image ?? template?.image ?? "",
      args: nextArgs(template?.args ?? "", body),
      disk: body.disk ?? template?.disk ?? V2_DEFAULTS.disk,
      ports: body.ports ?? template?.ports ?? [],
      env: { ...(template?.env ?? {}), ...(body.env ?? {}) },
      registry: body.registry !== undefined ? body.registry : (template?.registry ?? null),
    },
    templateId: template?.id ?? null,
    createdAt: ctx.now,
    minChangedAt: ctx.now,
    billedFrom: ctx.now,
    version: 1,
    releases: [],
    userId: userOf(state, ctx.apiKey),
    account: ctx.account,
    jobCount: 0,
  };
  checkEndpoint(state, e);
  refuseIdleTimeout(e.type, e.scaling, body.workers?.idleTimeout);
  e.releases = [newRelease(state, e, ctx.now, e.userId, [])];
  state.endpoints.set(id, e);
  return json(201, v2View(state, e));
}

function updateEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const current = requireEndpoint(state, ctx.params.id ?? "", ctx.account);
  const patch = validateBody(UpdateEndpointRequest, ctx.body);
  const family = current.compute.kind;
  if (patch.gpu !== undefined && patch.cpu !== undefined) throw badRequest("Send gpu or cpu, not both.");
  if ((family === "CPU" && patch.gpu !== undefined) || (family === "GPU" && patch.cpu !== undefined)) {
    throw badRequest(
      `This is a ${family} endpoint; its compute family is fixed at create (send ${family === "GPU" ? "gpu" : "cpu"}, or create a new endpoint).`,
    );
  }
  const next: EndpointRecord = structuredClone(current);
  // Container settings: the template's first (one-time application), then the body's.
  const template =
    patch.templateId === undefined ? undefined : serverlessTemplate(state, patch.templateId, ctx.account);
  if (template) {
    next.container = {
      image: template.image,
      args: template.args,
      disk: template.disk,
      ports: [...template.ports],
      env: { ...template.env, ...(patch.env ?? {}) },
      registry: template.registry,
    };
    next.templateId = template.id;
  } else if (patch.env !== undefined) {
    next.container.env = { ...patch.env };
  }
  next.container.args = nextArgs(next.container.args, patch);
  if (patch.image !== undefined) next.container.image = patch.image;
  if (patch.disk !== undefined) next.container.disk = patch.disk;
  if (patch.ports !== undefined) next.container.ports = patch.ports;
  if (patch.registry !== undefined) next.container.registry = patch.registry;
  if (patch.name !== undefined) next.name = patch.name;

  const c = next.compute;
  if (patch.gpu && c.kind === "GPU") {
    const g = patch.gpu;
    if (g.pools !== undefined) {
      // pools replace the selection wholesale: exclusions not restated are cleared.
      c.pools = g.pools;
      c.excludedTypes = (g.excludedTypes ?? []).map((t) => t.trim());
    }
    if (g.count !== undefined) c.count = g.count;
    if (g.allowedCudaVersions !== undefined) c.allowedCudaVersions = g.allowedCudaVersions;
    if (g.minCudaVersion !== undefined) c.minCudaVersion = g.minCudaVersion === "" ? null : g.minCudaVersion;
  }
  if (patch.cpu && c.kind === "CPU") c.configs = patch.cpu;
  if (patch.workers) {
    const w = patch.workers;
    if (w.min !== undefined && w.min !== next.workers.min) next.minChangedAt = ctx.now;
    next.workers = {
      min: w.min ?? next.workers.min,
      max: w.max ?? next.workers.max,
      idleTimeout: w.idleTimeout ?? next.workers.idleTimeout,
    };
  }
  if (patch.scaling) next.scaling = patch.scaling;
  if (patch.dataCenterIds !== undefined) next.dataCenterIds = patch.dataCenterIds;
  if (patch.networkVolumes !== undefined) next.networkVolumes = patch.networkVolumes;
  if (patch.timeout !== undefined) next.timeout = patch.timeout;
  if (patch.flashboot !== undefined) next.flashboot = patch.flashboot;

  checkEndpoint(state, next);
  refuseIdleTimeout(next.type, next.scaling, patch.workers?.idleTimeout);
  recordRelease(state, current, next, ctx.now, userOf(state, ctx.apiKey));
  // The worker time so far was worked out from the settings this PATCH replaces.
  checkpointEndpoint(state, current, ctx.now);
  next.billedFrom = current.billedFrom;
  state.endpoints.set(next.id, next);
  return json(200, v2View(state, next));
}

export const serverlessRoutes: RouteTable = {
  v2: [
    {
      method: "GET",
      pattern: "/v2/serverless",
      handler: (ctx) =>
        json(200, {
          endpoints: [...ctx.state.endpoints.values()]
            .filter((e) => e.account === ctx.account)
            .map((e) => v2View(ctx.state, e)),
        }),
    },
    { method: "POST", pattern: "/v2/serverless", handler: createEndpoint },
    {
      method: "GET",
      pattern: "/v2/serverless/:id",
      handler: (ctx) =>
        json(200, v2View(ctx.state, requireEndpoint(ctx.state, ctx.params.id ?? "", ctx.account))),
    },
    { method: "PATCH", pattern: "/v2/serverless/:id", handler: updateEndpoint },
    {
      method: "DELETE",
      pattern: "/v2/serverless/:id",
      handler: (ctx) => {
        deleteEndpointRecord(ctx.state, requireEndpoint(ctx.state, ctx.params.id ?? "", ctx.account));
        return noContent;
      },
    },
    { method: "GET", pattern: "/v2/serverless/:id/workers", handler: listWorkers },
    { method: "GET", pattern: "/v2/serverless/:id/releases", handler: listReleases },
  ],
};
