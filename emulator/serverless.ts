/**
 * Serverless endpoints: the one endpoint store and its v2 view under base_url (`/v2/serverless`,
 * v2 description: CreateEndpointRequest, UpdateEndpointRequest, Endpoint, Worker, Release).
 * endpoints.ts is the v1 view of the same records (`/v1/endpoints` on rest_url), so an endpoint
 * created through either is read, changed and deleted through both, and jobs run on it either way.
 *
 * Create checks, in order: schema (422), exactly one of gpu/cpu (400), the command rule (400), the
 * template (404 unknown, 422 not serverless), compute (400), workers (400), idleTimeout with
 * request-count scaling (400), data centers, network volumes, registry (400). A PATCH checks the
 * endpoint it would produce; a rejected PATCH changes nothing.
 *
 * Releases: a create is release 1; a change to the container settings (image, args, disk, ports,
 * env, registry, directly or through `templateId`) is a new release whose diff also lists the
 * compute and placement fields changed by the same request ("container-affecting changes create a
 * new endpoint release"). Worker-bound settings (workers, scaling, timeout, flashboot, name) apply
 * without one.
 *
 * Workers are derived, not stored: slot i (0 <= i < workers.max) is a worker while it is
 * always on (i < workers.min) or busy with a job (from the job's submission until `idleTimeout`
 * seconds after it ended). A job-started worker is INITIALIZING until the job starts (the queue
 * delay is its cold start), RUNNING while a job runs, then IDLE; every worker of an endpoint whose
 * image cannot start (containers.ts) is UNHEALTHY and its jobs stay IN_QUEUE. Worker capacity is
 * not modelled, so no worker is ever THROTTLED.
 */
import { createHash } from "node:crypto";
import { nextArgs, readCommand } from "./command.js";
import { scriptFor } from "./containers.js";
import { badRequest, notFound, unprocessable } from "./errors.js";
import { requireRegistry } from "./registries.js";
import { json, noContent, type RouteContext, type RouteTable } from "./routing.js";
import {
  CreateEndpointRequest,
  type EndpointScaling,
  type EndpointType,
  type FlashbootMode,
  UpdateEndpointRequest,
} from "./schemas/serverless.js";
import {
  type EmulatorState,
  type GpuTypeRecord,
  type JobRecord,
  NEVER,
  requireCpuFlavor,
  requireDataCenter,
  type TemplateRecord,
} from "./state.js";
import { validateBody } from "./validation.js";

/** Defaults of CreateEndpointRequest (v2 description). */
export const V2_DEFAULTS = {
  workers: { min: 0, max: 3, idleTimeout: 10 },
  timeout: 300_000,
  flashboot: "OFF" as FlashbootMode,
  gpuCount: 1,
  /** No default in the description; the pods' and templates' container disk default. */
  disk: 20,
};

export interface GpuCompute {
  kind: "GPU";
  pools: string[];
  excludedTypes: string[];
  count: number;
  allowedCudaVersions: string[];
  minCudaVersion: string | null;
  /**
   * The v1 `gpuTypeIds` in the priority order a v1 client gave, kept while the pools and
   * exclusions are the ones derived from it (a v2 `gpu.pools` replaces the selection and drops it).
   */
  typeOrder?: string[];
}

export interface CpuCompute {
  kind: "CPU";
  configs: { id: string; vcpuCount: number }[];
}

export interface Container {
  image: string;
  args: string;
  disk: number;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
}

export interface ReleaseRecord {
  id: string;
  version: number;
  createdAt: number;
  createdByUserId: string;
  container: Container;
  diff: { field: string; old: unknown; new: unknown }[];
}

export interface EndpointRecord {
  id: string;
  name: string;
  type: EndpointType;
  compute: GpuCompute | CpuCompute;
  /** `idleTimeout` is kept even where v2 hides it (queue endpoints scaling on request count). */
  workers: { min: number; max: number; idleTimeout: number };
  scaling: EndpointScaling;
  dataCenterIds: string[];
  networkVolumes: string[];
  timeout: number;
  flashboot: FlashbootMode;
  container: Container;
  /** The template the container settings last came from, if any. */
  templateId: string | null;
  /** True when a v1 create or update bound the template (it then cannot be deleted). */
  templateBound: boolean;
  /** The env that template contributed: the v1 `env` is what the endpoint sets on top of it. */
  templateEnv: Record<string, string>;
  /** v1 `networkVolumeId`, shown back while it is still attached. */
  v1PrimaryVolume?: string;
  createdAt: number;
  /** When `workers.min` last changed: always-on workers count from here. */
  minChangedAt: number;
  version: number;
  releases: ReleaseRecord[];
  userId: string;
  /** Jobs ever submitted, which spreads them over the worker slots. */
  jobCount: number;
}

export function findEndpoint(state: EmulatorState, id: string): EndpointRecord | undefined {
  return state.endpoints.get(id);
}

export function requireEndpoint(state: EmulatorState, id: string): EndpointRecord {
  const e = findEndpoint(state, id);
  if (!e) throw notFound(`Endpoint '${id}' was not found.`);
  return e;
}

/** A stable per-key user id, shaped like the description's example (`user_...`). */
export function userIdFor(apiKey: string): string {
  return `user_${createHash("sha256").update(apiKey).digest("hex").slice(0, 27)}`;
}

// ---------------------------------------------------------------- compute

/** GPU types per serverless pool, in catalog order (a type with a null pool is in none). */
export function poolTypes(state: EmulatorState, pool: string): GpuTypeRecord[] {
  return state.seed.gpuTypes.filter((g) => g.pool === pool);
}

/** The GPU types a selection runs on: its pools' types minus the exclusions (or the v1 order). */
export function eligibleTypes(state: EmulatorState, gpu: GpuCompute): string[] {
  if (gpu.typeOrder) return [...gpu.typeOrder];
  return gpu.pools
    .flatMap((p) => poolTypes(state, p).map((g) => g.id))
    .filter((id) => !gpu.excludedTypes.includes(id));
}

/**
 * v1 `gpuTypeIds` as a v2 selection: the pools holding them, minus the pools' other types. The
 * set of GPU types is the same both ways; the v1 priority order is kept beside it (`typeOrder`).
 */
export function selectionFromTypes(
  state: EmulatorState,
  typeIds: readonly string[],
): Pick<GpuCompute, "pools" | "excludedTypes"> {
  const pools: string[] = [];
  for (const id of typeIds) {
    const pool = state.gpuTypeById.get(id)?.pool;
    if (pool && !pools.includes(pool)) pools.push(pool);
  }
  const excludedTypes = pools
    .flatMap((p) => poolTypes(state, p).map((g) => g.id))
    .filter((id) => !typeIds.includes(id));
  return { pools, excludedTypes };
}

function checkGpu(state: EmulatorState, gpu: GpuCompute): void {
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

function checkCpu(state: EmulatorState, cpu: CpuCompute): void {
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
function checkEndpoint(state: EmulatorState, e: EndpointRecord): void {
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
    if (!state.networkVolumes.has(id))
      throw badRequest(`networkVolumes: network volume '${id}' does not exist.`);
  }
  requireRegistry(state, e.container.registry);
}

/** idleTimeout is "rejected on create/update" for queue endpoints scaling on request count. */
function refuseIdleTimeout(type: EndpointType, scaling: EndpointScaling, sent: number | undefined): void {
  if (sent !== undefined && type === "QUEUE" && scaling.type === "REQUEST_COUNT") {
    throw badRequest(
      "workers.idleTimeout does not apply to a QUEUE endpoint scaling on REQUEST_COUNT; leave it out.",
    );
  }
}

// ---------------------------------------------------------------- templates and releases

/** A serverless template, or 404 (unknown) / 422 (a pod template), as the v2 description answers. */
function serverlessTemplate(state: EmulatorState, id: string): TemplateRecord {
  const t = state.templates.get(id);
  if (!t) throw notFound(`Template '${id}' was not found or is not accessible.`);
  if (!t.serverless) throw unprocessable([`$.templateId: template '${id}' is not a serverless template`]);
  return t;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Upstream's field names, as the description's diff examples use them (`template.imageName`). */
const CONTAINER_FIELDS: [keyof Container, string][] = [
  ["image", "template.imageName"],
  ["args", "template.dockerArgs"],
  ["disk", "template.containerDiskInGb"],
  ["ports", "template.ports"],
  ["env", "template.env"],
  ["registry", "template.containerRegistryAuthId"],
];

function placementFields(state: EmulatorState, e: EndpointRecord): Record<string, unknown> {
  const c = e.compute;
  return c.kind === "GPU"
    ? {
        gpuCount: c.count,
        // Upstream's one-string selection: pools, then each excluded type with a leading dash.
        gpuIds: [...c.pools, ...c.excludedTypes.map((t) => `-${t}`)].join(","),
        allowedCudaVersions: c.allowedCudaVersions.join(","),
        minCudaVersion: c.minCudaVersion,
        locations: e.dataCenterIds.join(","),
        networkVolumeIds: e.networkVolumes.join(","),
        typeOrder: eligibleTypes(state, c).join(","),
      }
    : {
        instanceIds: instanceIds(state, c).join(","),
        locations: e.dataCenterIds.join(","),
        networkVolumeIds: e.networkVolumes.join(","),
      };
}

/**
 * Records `next` over `previous`: a new release (and version) when the container settings
 * changed, with every changed container and placement field in its diff.
 */
export function recordRelease(
  state: EmulatorState,
  previous: EndpointRecord,
  next: EndpointRecord,
  at: number,
  userId: string,
): void {
  const diff: ReleaseRecord["diff"] = [];
  for (const [key, field] of CONTAINER_FIELDS) {
    if (!sameJson(previous.container[key], next.container[key])) {
      diff.push({ field, old: previous.container[key], new: next.container[key] });
    }
  }
  if (diff.length === 0) return;
  const before = placementFields(state, previous);
  const after = placementFields(state, next);
  for (const field of Object.keys(after)) {
    // typeOrder is the emulator's bookkeeping, not an upstream field.
    if (field !== "typeOrder" && !sameJson(before[field], after[field])) {
      diff.push({ field, old: before[field] ?? null, new: after[field] ?? null });
    }
  }
  next.version = previous.version + 1;
  next.releases = [...previous.releases, newRelease(state, next, at, userId, diff)];
}

export function newRelease(
  state: EmulatorState,
  e: EndpointRecord,
  at: number,
  userId: string,
  diff: ReleaseRecord["diff"],
): ReleaseRecord {
  return {
    id: state.newId(12),
    version: e.version,
    createdAt: at,
    createdByUserId: userId,
    container: structuredClone(e.container),
    diff,
  };
}

// ---------------------------------------------------------------- workers

export interface WorkerState {
  index: number;
  id: string;
  status: "RUNNING" | "IDLE" | "INITIALIZING" | "THROTTLED" | "UNHEALTHY";
  /** When the worker became ready; null while initializing. */
  readyAt: number | null;
  windowStart: number;
  version: number;
}

/** A worker's id: stable per endpoint and slot, shaped like a pod id. */
export function workerIdFor(endpointId: string, index: number): string {
  const hex = createHash("sha256").update(`${endpointId}:${index}`).digest("hex");
  return BigInt(`0x${hex.slice(0, 20)}`)
    .toString(36)
    .padStart(14, "0")
    .slice(-14);
}

/** When a job stops occupying its worker: ended, cancelled, or never (still waiting for it). */
export function jobEnd(job: JobRecord): number {
  const ends =
    job.timeoutMs !== undefined && job.endsAt - job.startsAt > job.timeoutMs
      ? job.startsAt + job.timeoutMs
      : job.endsAt;
  return Math.min(ends, job.cancelledAt ?? NEVER);
}

/** Whether the endpoint's workers can start their container at all (containers.ts behaviours). */
export function workersHealthy(state: EmulatorState, e: EndpointRecord): boolean {
  return scriptFor(state, e.container).kind === "start";
}

function versionAt(e: EndpointRecord, t: number): number {
  let v = 1;
  for (const r of e.releases) if (r.createdAt <= t) v = r.version;
  return v;
}

/** The endpoint's active workers at `now`, by slot. */
export function endpointWorkers(state: EmulatorState, e: EndpointRecord, now: number): WorkerState[] {
  const jobs = [...state.jobs.values()].filter((j) => j.endpointId === e.id && j.workerIndex !== undefined);
  const idleMs = e.workers.idleTimeout * 1000;
  const initMs = state.settings.provisioningMs + state.settings.startingMs;
  const healthy = workersHealthy(state, e);
  const out: WorkerState[] = [];
  for (let i = 0; i < Math.max(e.workers.max, e.workers.min); i += 1) {
    // Busy intervals of this slot, merged, and the one holding `now`.
    const spans: { from: number; to: number; readyAt: number }[] = jobs
      .filter((j) => j.workerIndex === i)
      .map((j) => {
        const end = jobEnd(j);
        return { from: j.submittedAt, to: end >= NEVER ? NEVER : end + idleMs, readyAt: j.startsAt };
      });
    if (i < e.workers.min) spans.push({ from: e.minChangedAt, to: NEVER, readyAt: e.minChangedAt + initMs });
    spans.sort((a, b) => a.from - b.from);
    const windows: typeof spans = [];
    for (const s of spans) {
      const last = windows.at(-1);
      if (last && s.from <= last.to) {
        last.to = Math.max(last.to, s.to);
        last.readyAt = Math.min(last.readyAt, s.readyAt);
      } else windows.push({ ...s });
    }
    const window = windows.find((w) => w.from <= now && now < w.to);
    if (!window) continue;
    const busy = jobs.some((j) => j.workerIndex === i && j.startsAt <= now && now < jobEnd(j));
    const ready = now >= window.readyAt;
    out.push({
      index: i,
      id: workerIdFor(e.id, i),
      status: !healthy ? "UNHEALTHY" : busy ? "RUNNING" : ready ? "IDLE" : "INITIALIZING",
      readyAt: healthy && ready ? window.readyAt : null,
      windowStart: window.from,
      version: versionAt(e, window.from),
    });
  }
  return out;
}

function workerView(state: EmulatorState, e: EndpointRecord, w: WorkerState, now: number) {
  const release = e.releases.find((r) => r.version === w.version);
  const gpuTypeId = e.compute.kind === "GPU" ? (eligibleTypes(state, e.compute)[0] ?? null) : null;
  const stockOf = (dc: string) =>
    e.compute.kind === "GPU"
      ? state.gpuStock.has(`${dc}|${gpuTypeId}`)
      : state.cpuStock.has(`${dc}|${e.compute.configs[0]?.id}`);
  const dataCenterId = e.dataCenterIds[0] ?? state.seed.dataCenters.map((d) => d.id).find(stockOf) ?? null;
  return {
    id: w.id,
    status: w.status,
    isStale: w.version !== e.version,
    version: w.version,
    gpuCount: e.compute.kind === "GPU" ? e.compute.count : 0,
    image: release?.container.image ?? e.container.image,
    uptimeSeconds: w.readyAt === null ? null : Math.floor((now - w.readyAt) / 1000),
    gpuTypeId,
    dataCenterId,
    startedAt: w.readyAt === null ? null : new Date(w.readyAt).toISOString(),
  };
}

function listWorkers(ctx: RouteContext) {
  const { state } = ctx;
  const e = requireEndpoint(state, ctx.params.id ?? "");
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
  const e = requireEndpoint(state, ctx.params.id ?? "");
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

// ---------------------------------------------------------------- the v2 view

export function instanceIds(state: EmulatorState, cpu: CpuCompute): string[] {
  return cpu.configs.map((c) => `${c.id}-${c.vcpuCount}-${memoryOf(state, c)}`);
}

function memoryOf(state: EmulatorState, c: { id: string; vcpuCount: number }): number {
  return Math.round(c.vcpuCount * (state.cpuFlavorById.get(c.id)?.ramGbPerVcpu ?? 2));
}

/** Request URLs per type, on the emulator's serverless_url (v2 description: EndpointRequestUrls). */
function requestUrls(state: EmulatorState, e: EndpointRecord): Record<string, string> {
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
  state: EmulatorState,
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

// ---------------------------------------------------------------- handlers

function createEndpoint(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateEndpointRequest, ctx.body);
  if (!body.gpu === !body.cpu) throw badRequest("Exactly one of gpu or cpu must be set.");
  // The command rule is checked before the template is resolved (400 before 404), as for pods.
  nextArgs("", body);
  const template = body.templateId === undefined ? undefined : serverlessTemplate(state, body.templateId);
  const templateEnv = template?.env ?? {};
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
      env: { ...templateEnv, ...(body.env ?? {}) },
      registry: body.registry !== undefined ? body.registry : (template?.registry ?? null),
    },
    templateId: template?.id ?? null,
    templateBound: false,
    templateEnv: { ...templateEnv },
    createdAt: ctx.now,
    minChangedAt: ctx.now,
    version: 1,
    releases: [],
    userId: userIdFor(ctx.apiKey),
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
  const current = requireEndpoint(state, ctx.params.id ?? "");
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
  const template = patch.templateId === undefined ? undefined : serverlessTemplate(state, patch.templateId);
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
    next.templateBound = false;
    next.templateEnv = { ...template.env };
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
      delete c.typeOrder;
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
  if (patch.networkVolumes !== undefined) {
    next.networkVolumes = patch.networkVolumes;
    if (next.v1PrimaryVolume !== undefined && !next.networkVolumes.includes(next.v1PrimaryVolume))
      delete next.v1PrimaryVolume;
  }
  if (patch.timeout !== undefined) next.timeout = patch.timeout;
  if (patch.flashboot !== undefined) next.flashboot = patch.flashboot;

  checkEndpoint(state, next);
  refuseIdleTimeout(next.type, next.scaling, patch.workers?.idleTimeout);
  recordRelease(state, current, next, ctx.now, userIdFor(ctx.apiKey));
  state.endpoints.set(next.id, next);
  return json(200, v2View(state, next));
}

/** Deleting an endpoint cancels its jobs and removes its history (contract: "configuration, logs and job history"). */
export function deleteEndpointRecord(state: EmulatorState, e: EndpointRecord): void {
  state.endpoints.delete(e.id);
  for (const [jobId, job] of state.jobs) if (job.endpointId === e.id) state.jobs.delete(jobId);
}

export const serverlessRoutes: RouteTable = {
  v2: [
    {
      method: "GET",
      pattern: "/v2/serverless",
      handler: (ctx) =>
        json(200, { endpoints: [...ctx.state.endpoints.values()].map((e) => v2View(ctx.state, e)) }),
    },
    { method: "POST", pattern: "/v2/serverless", handler: createEndpoint },
    {
      method: "GET",
      pattern: "/v2/serverless/:id",
      handler: (ctx) => json(200, v2View(ctx.state, requireEndpoint(ctx.state, ctx.params.id ?? ""))),
    },
    { method: "PATCH", pattern: "/v2/serverless/:id", handler: updateEndpoint },
    {
      method: "DELETE",
      pattern: "/v2/serverless/:id",
      handler: (ctx) => {
        deleteEndpointRecord(ctx.state, requireEndpoint(ctx.state, ctx.params.id ?? ""));
        return noContent;
      },
    },
    { method: "GET", pattern: "/v2/serverless/:id/workers", handler: listWorkers },
    { method: "GET", pattern: "/v2/serverless/:id/releases", handler: listReleases },
  ],
};
