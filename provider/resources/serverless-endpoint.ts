/**
 * `ServerlessEndpoint` (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`): a serverless
 * endpoint managed through `{base_url}/v2/serverless`. Inputs carry the v2 description's names
 * (CreateEndpointRequest): the routing `type` and the compute family (GPU pools or CPU
 * configurations) are fixed at create and replace; everything else updates in place.
 *
 * REST v1 (`/v1/endpoints`) was retired on 2026-11-15. Stacks whose endpoints were created through
 * it keep working: their state carries the v1 names (`computeType`, `workersMin`, `scalerType`, ...),
 * which `currentView` reads as the v2 fields they were, until the next refresh or update writes
 * v2 outputs (docs/api-differences.md).
 *
 * Deleting an endpoint permanently removes its configuration, logs and job history: protect
 * production endpoints with `{ protect: true }`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { CheckFailure } from "../check-failure.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { CreateEndpointRequest, Endpoint, UpdateEndpointRequest } from "../client/schemas/endpoints.js";
import type { EndpointType, FlashbootMode, ScalerType } from "../client/vocabulary.js";
import { api, configureRuntime, settings } from "../context.js";
import { createOnce } from "../create-once.js";
import { progress } from "../progress.js";
import { thinProvider } from "../thin.js";
import { isUnknown } from "../unknown.js";
import { schemaFailures } from "../validation.js";
import { byName, differs, diffResult, named, optionInputs, withoutInternal } from "./common.js";
import { ServerlessEndpointArgsSchema } from "./serverless-endpoint-schema.js";

export const SERVERLESS_ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";

/** What the provider sends where the program leaves a field out (the API's own defaults, and ours). */
export const ENDPOINT_API_DEFAULTS = {
  /** Ours: the API wants the type on every create; v1 endpoints were all queue-based. */
  type: "QUEUE",
  workersMin: 0,
  workersMax: 3,
  /** Ours, per type: the API wants a scaler on every create. */
  scaling: {
    QUEUE: { type: "QUEUE_DELAY", queueDelay: 4 },
    LOAD_BALANCER: { type: "REQUEST_COUNT", requestCount: 4 },
  },
} as const;

export type EndpointScalingInput =
  | { type: "QUEUE_DELAY"; queueDelay: number }
  | { type: "REQUEST_COUNT"; requestCount: number };

/**
 * Checked inputs of a ServerlessEndpoint: `ServerlessEndpointArgs` resolved to plain values, as
 * `check` accepts them and the provider sees them.
 */
export interface ServerlessEndpointInputs {
  name: string;
  type?: EndpointType | undefined;
  templateId?: string | undefined;
  image?: string | undefined;
  args?: string | undefined;
  disk?: number | undefined;
  ports?: string[] | undefined;
  env?: Record<string, string> | undefined;
  registry?: string | null | undefined;
  gpu?:
    | {
        pools: string[];
        excludedTypes?: string[] | undefined;
        count?: number | undefined;
        allowedCudaVersions?: string[] | undefined;
        minCudaVersion?: string | undefined;
      }
    | undefined;
  cpu?: { id: string; vcpuCount: number }[] | undefined;
  workers?:
    | { min?: number | undefined; max?: number | undefined; idleTimeout?: number | undefined }
    | undefined;
  scaling?: EndpointScalingInput | undefined;
  flashboot?: FlashbootMode | undefined;
  networkVolumes?: string[] | undefined;
  dataCenterIds?: string[] | undefined;
  timeout?: number | undefined;
  adoptId?: string | undefined;
}

type In<T> = pulumi.Input<T>;
type InList<T> = pulumi.Input<pulumi.Input<T>[]>;

export interface ServerlessEndpointArgs {
  name: In<string>;
  /** `QUEUE` (jobs through run/runsync/status) or `LOAD_BALANCER` (HTTP to the workers). Changing it replaces the endpoint. @default "QUEUE" */
  type?: In<"QUEUE" | "LOAD_BALANCER">;
  /** A serverless template whose container settings are applied once, at create (or when it changes). */
  templateId?: In<string>;
  /** Container image. Required unless `templateId` is set. */
  image?: In<string>;
  args?: In<string>;
  /** Container disk in GB. */
  disk?: In<number>;
  ports?: InList<string>;
  /** Environment variables; stored as secrets in state. Template keys the program does not declare are kept. */
  env?: In<Record<string, In<string>>>;
  /** A `Registry`'s id, for private images. */
  registry?: In<string | null>;
  /**
   * A GPU endpoint: serverless GPU pools (the `pool` of `getGpuTypes()`), GPU types subtracted from
   * them, GPUs per worker, CUDA constraints. GPU vs CPU is fixed at create.
   */
  gpu?: In<{
    pools: InList<string>;
    excludedTypes?: InList<string>;
    /** @default 1 */
    count?: In<number>;
    allowedCudaVersions?: InList<string>;
    minCudaVersion?: In<string>;
  }>;
  /** A CPU endpoint: eligible flavor and vCPU count pairs. */
  cpu?: InList<{ id: In<string>; vcpuCount: In<number> }>;
  /** @default { min: 0, max: 3 } */
  workers?: In<{ min?: In<number>; max?: In<number>; idleTimeout?: In<number> }>;
  /** @default { type: "QUEUE_DELAY", queueDelay: 4 } (a load balancer: `{ type: "REQUEST_COUNT", requestCount: 4 }`) */
  scaling?: In<
    | { type: In<"QUEUE_DELAY">; queueDelay: In<number> }
    | { type: In<"REQUEST_COUNT">; requestCount: In<number> }
  >;
  /** @default "OFF" */
  flashboot?: In<"OFF" | "FLASHBOOT" | "PRIORITY_FLASHBOOT">;
  /** `NetworkVolume` ids mounted on the workers. */
  networkVolumes?: InList<string>;
  dataCenterIds?: InList<string>;
  /** Longest a single request may run, in ms (5 s - 7 days). @default 300000 */
  timeout?: In<number>;
  /** Adopt this existing endpoint instead of creating one. */
  adoptId?: In<string>;
}

export interface ServerlessEndpointOutputs {
  endpointId: string;
  name: string;
  type: EndpointType;
  /** The template the settings came from, as the program gave it (the API keeps no link). */
  templateId: string | null;
  image: string | null;
  args: string | null;
  disk: number | null;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  gpu: {
    pools: string[];
    excludedTypes: string[];
    count: number;
    allowedCudaVersions: string[];
    minCudaVersion: string | null;
  } | null;
  cpu: { id: string; vcpuCount: number; memory: number | null }[] | null;
  workers: { min: number; max: number; idleTimeout: number | null };
  scaling: { type: ScalerType; queueDelay: number | null; requestCount: number | null };
  flashboot: FlashbootMode;
  networkVolumes: string[];
  dataCenterIds: string[];
  timeout: number;
  createdAt: string | null;
  /** The addresses the API gives for this endpoint's type: run, runSync, status, ... or base and health. */
  requestUrls: Record<string, string>;
  /** Queue endpoints: `{serverless_url}/v2/{endpoint_id}/`; load balancers: their base address. */
  jobUrl: string;
}

/** Outputs a program may read without having set them: declared so the resource carries them. */
const OUTPUT_ONLY = [
  "endpointId",
  "type",
  "gpu",
  "cpu",
  "workers",
  "scaling",
  "flashboot",
  "networkVolumes",
  "dataCenterIds",
  "timeout",
  "createdAt",
  "requestUrls",
  "jobUrl",
] as const;

/**
 * A serverless endpoint.
 * @example
 * const endpoint = new ServerlessEndpoint("sdxl", {
 *   name: "sdxl",
 *   templateId: sdxlTemplate.id,
 *   gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
 *   workers: { max: 2 },
 * }, { protect: true });
 * export const runUrl = endpoint.requestUrls.apply((u) => u.run);
 */
export class ServerlessEndpoint extends pulumi.dynamic.Resource {
  declare readonly endpointId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<EndpointType>;
  declare readonly gpu: pulumi.Output<ServerlessEndpointOutputs["gpu"]>;
  declare readonly cpu: pulumi.Output<ServerlessEndpointOutputs["cpu"]>;
  declare readonly workers: pulumi.Output<ServerlessEndpointOutputs["workers"]>;
  declare readonly scaling: pulumi.Output<ServerlessEndpointOutputs["scaling"]>;
  declare readonly env: pulumi.Output<Record<string, string>>;
  declare readonly createdAt: pulumi.Output<string | null>;
  declare readonly requestUrls: pulumi.Output<Record<string, string>>;
  declare readonly jobUrl: pulumi.Output<string>;

  constructor(name: string, args: ServerlessEndpointArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("ServerlessEndpoint"),
      name,
      { ...Object.fromEntries(OUTPUT_ONLY.map((k) => [k, undefined])), ...args, ...optionInputs(opts) },
      { ...opts, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), "env"])] },
      "runpod",
      "ServerlessEndpoint",
    );
  }
}

// ---------------------------------------------------------------- check

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;

export function serverlessEndpointRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string, ...rules: string[]) =>
    failures.push(rules.length > 0 ? { property, reason, rules } : { property, reason });
  const known = (v: unknown) => v !== undefined && !isUnknown(v);
  const gpu = inputs.gpu as Record<string, unknown> | undefined;
  const cpu = inputs.cpu as unknown[] | undefined;
  const workers = inputs.workers as Record<string, unknown> | undefined;
  const scaling = inputs.scaling as Record<string, unknown> | undefined;
  const type = inputs.type ?? ENDPOINT_API_DEFAULTS.type;

  if (gpu === undefined && cpu === undefined) {
    fail(
      "gpu",
      "an endpoint needs compute: gpu.pools (serverless GPU pools, in order) or cpu (flavor and vCPU pairs)",
      "serverless-gpu-types",
    );
  }
  if (gpu !== undefined && cpu !== undefined) fail("cpu", "exactly one of gpu and cpu may be set (both are)");
  if (inputs.image === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
    fail("image", "is required unless templateId is set");
  }
  if (known(gpu) && gpu) {
    const allowed = gpu.allowedCudaVersions;
    if (Array.isArray(allowed) && allowed.length > 0 && known(gpu.minCudaVersion)) {
      fail(
        "gpu.minCudaVersion",
        "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
      );
    }
  }
  if (known(cpu) && Array.isArray(cpu)) {
    const seen = new Set<string>();
    cpu.forEach((c, i) => {
      // The schema reports an entry that is not an object; the rules read only well-formed ones.
      if (c === null || typeof c !== "object") return;
      const entry = c as Record<string, unknown>;
      if (typeof entry.vcpuCount === "number" && !isPowerOfTwo(entry.vcpuCount)) {
        fail(`cpu[${i}].vcpuCount`, `must be a power of two (2, 4, 8, ...); got ${entry.vcpuCount}`);
      }
      const key = `${String(entry.id)}/${String(entry.vcpuCount)}`;
      if (seen.has(key)) fail(`cpu[${i}]`, `repeats ${key}; each configuration may appear once`);
      seen.add(key);
    });
  }
  const min = workers?.min ?? ENDPOINT_API_DEFAULTS.workersMin;
  const max = workers?.max ?? ENDPOINT_API_DEFAULTS.workersMax;
  if (typeof min === "number" && typeof max === "number" && min > max) {
    fail(
      "workers.min",
      `must not exceed workers.max (${min} > ${max}${workers?.max === undefined ? ", the default" : ""}); raise workers.max or lower workers.min`,
      "serverless-workers-range",
    );
  }
  if (!isUnknown(type) && known(scaling) && scaling && !isUnknown(scaling.type)) {
    if (type === "LOAD_BALANCER" && scaling.type === "QUEUE_DELAY") {
      fail("scaling", "a LOAD_BALANCER endpoint scales on REQUEST_COUNT; QUEUE_DELAY needs a queue");
    }
    if (type === "QUEUE" && scaling.type === "REQUEST_COUNT" && known(workers?.idleTimeout)) {
      fail(
        "workers.idleTimeout",
        "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT (the API answers 400)",
      );
    }
  }
  return failures;
}

export function checkServerlessEndpoint(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(ServerlessEndpointArgsSchema, inputs), ...serverlessEndpointRuleFailures(inputs)];
}

// ---------------------------------------------------------------- state written by the v1 code

/** The outputs of a ServerlessEndpoint created through REST v1, as today's state may hold them. */
interface V1Outputs {
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

// ---------------------------------------------------------------- diff

/** Changes that restart active workers (contract: editing GPU types or worker counts). */
const RESTARTING = ["gpu.pools", "gpu.excludedTypes", "gpu.count", "workers.min", "workers.max"];

/** Compared when the program sets them: a left-out input is no opinion. */
const SETTINGS = [
  "templateId",
  "image",
  "args",
  "disk",
  "ports",
  "registry",
  "flashboot",
  "networkVolumes",
  "dataCenterIds",
  "timeout",
] as const;

const familyOf = (e: { gpu?: unknown; cpu?: unknown }) => (e.cpu ? "CPU" : e.gpu ? "GPU" : undefined);

/**
 * The replace/update table (pure): a new `type` or compute family replaces (both fixed at create);
 * everything else is PATCHed in place. An unknown value (preview) counts as a change.
 */
export function diffServerlessEndpoint(
  olds: Partial<ServerlessEndpointOutputs> | V1Outputs,
  news: ServerlessEndpointInputs,
) {
  const current = currentView(olds);
  const replaces: string[] = [];
  const updates: string[] = [];
  if (differs(news.type ?? ENDPOINT_API_DEFAULTS.type, current.type ?? ENDPOINT_API_DEFAULTS.type))
    replaces.push("type");
  const family = familyOf(news);
  const oldFamily = familyOf(current);
  if (isUnknown(news.gpu) || isUnknown(news.cpu) || (family && oldFamily && family !== oldFamily)) {
    replaces.push(news.cpu ? "cpu" : "gpu");
  }

  if (differs(news.name, current.name)) updates.push("name");
  for (const k of SETTINGS) {
    const n = news[k];
    if (n !== undefined && differs(n, current[k])) updates.push(k);
  }
  if (differs(news.env ?? {}, current.env ?? {})) updates.push("env");
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
function scalingOf(s: ServerlessEndpointOutputs["scaling"] | undefined): EndpointScalingInput | undefined {
  if (!s) return undefined;
  return s.type === "REQUEST_COUNT"
    ? { type: "REQUEST_COUNT", requestCount: s.requestCount ?? 0 }
    : { type: "QUEUE_DELAY", queueDelay: s.queueDelay ?? 0 };
}

// ---------------------------------------------------------------- request bodies and outputs

/** The create body: v2 fields, with the type and the scaler the API wants on every create. */
function createBody(inputs: ServerlessEndpointInputs): CreateEndpointRequest {
  const type = inputs.type ?? ENDPOINT_API_DEFAULTS.type;
  const body: Record<string, unknown> = {
    name: inputs.name,
    type,
    scaling: inputs.scaling ?? ENDPOINT_API_DEFAULTS.scaling[type],
  };
  for (const k of [...SETTINGS, "env", "gpu", "cpu", "workers"] as const) {
    if (inputs[k] !== undefined) body[k] = inputs[k];
  }
  return body as CreateEndpointRequest;
}

/**
 * The PATCH body for these updates. `env` replaces the endpoint's whole environment, so keys the
 * program never declared (a template's) are kept and keys it stopped declaring are removed.
 * `pools` replaces the GPU selection with its exclusions, so they are restated.
 */
function patchBody(
  updates: readonly string[],
  news: ServerlessEndpointInputs,
  current: Partial<ServerlessEndpointOutputs>,
  liveEnv: Record<string, string>,
): UpdateEndpointRequest {
  const out: Record<string, unknown> = {};
  for (const k of ["name", ...SETTINGS] as const) if (updates.includes(k)) out[k] = news[k];
  if (updates.includes("env")) {
    const undeclared = Object.keys(current.env ?? {}).filter((k) => !(k in (news.env ?? {})));
    const kept = Object.fromEntries(Object.entries(liveEnv).filter(([k]) => !undeclared.includes(k)));
    out.env = { ...kept, ...news.env };
  }
  const gpu = news.gpu;
  if (gpu && updates.some((u) => u.startsWith("gpu."))) {
    const g: Record<string, unknown> = {};
    if (updates.includes("gpu.pools") || updates.includes("gpu.excludedTypes")) {
      g.pools = gpu.pools;
      g.excludedTypes = gpu.excludedTypes ?? current.gpu?.excludedTypes ?? [];
    }
    if (updates.includes("gpu.count")) g.count = gpu.count ?? 1;
    if (updates.includes("gpu.allowedCudaVersions")) g.allowedCudaVersions = gpu.allowedCudaVersions;
    if (updates.includes("gpu.minCudaVersion")) g.minCudaVersion = gpu.minCudaVersion;
    out.gpu = g;
  }
  if (updates.includes("cpu")) out.cpu = news.cpu;
  if (updates.some((u) => u.startsWith("workers."))) {
    const w = news.workers ?? {};
    out.workers = {
      min: w.min ?? current.workers?.min ?? ENDPOINT_API_DEFAULTS.workersMin,
      max: w.max ?? current.workers?.max ?? ENDPOINT_API_DEFAULTS.workersMax,
      ...(w.idleTimeout !== undefined ? { idleTimeout: w.idleTimeout } : {}),
    };
  }
  if (updates.includes("scaling")) out.scaling = news.scaling;
  return out as UpdateEndpointRequest;
}

function endpointOutputs(e: Endpoint, inputs: Partial<ServerlessEndpointInputs>): ServerlessEndpointOutputs {
  const declared = Object.keys(inputs.env ?? {});
  const env = Object.fromEntries(
    declared.filter((k) => e.env && k in e.env).map((k) => [k, e.env?.[k] as string]),
  );
  const type = e.type ?? inputs.type ?? ENDPOINT_API_DEFAULTS.type;
  const requestUrls = Object.fromEntries(
    Object.entries(e.requestUrls ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  return {
    endpointId: e.id,
    name: e.name,
    type,
    templateId: inputs.templateId ?? null,
    image: e.image ?? null,
    args: e.args ?? null,
    disk: e.disk ?? null,
    ports: [...(e.ports ?? [])],
    env,
    registry: e.registry ?? null,
    gpu: e.gpu
      ? {
          pools: [...e.gpu.pools],
          excludedTypes: [...(e.gpu.excludedTypes ?? [])],
          count: e.gpu.count ?? 1,
          allowedCudaVersions: [...(e.gpu.allowedCudaVersions ?? [])],
          minCudaVersion: e.gpu.minCudaVersion ?? null,
        }
      : null,
    cpu: e.cpu ? e.cpu.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount, memory: c.memory ?? null })) : null,
    workers: { min: e.workers.min, max: e.workers.max, idleTimeout: e.workers.idleTimeout ?? null },
    scaling: {
      type: e.scaling.type,
      queueDelay: e.scaling.queueDelay ?? null,
      requestCount: e.scaling.requestCount ?? null,
    },
    flashboot: e.flashboot,
    networkVolumes: [...e.networkVolumes],
    dataCenterIds: [...e.dataCenterIds],
    timeout: e.timeout,
    createdAt: e.createdAt,
    requestUrls,
    jobUrl: type === "LOAD_BALANCER" ? (requestUrls.base ?? "") : `${settings().serverlessUrl}/v2/${e.id}/`,
  };
}

/** The inputs that would produce `outputs`: what refresh hands back, within what the program declared. */
function inputsFromOutputs(
  o: ServerlessEndpointOutputs,
  prior: Partial<ServerlessEndpointInputs>,
): ServerlessEndpointInputs {
  const inputs: Record<string, unknown> = { name: o.name };
  if (prior.type !== undefined || o.type !== ENDPOINT_API_DEFAULTS.type) inputs.type = o.type;
  for (const k of SETTINGS) {
    if (prior[k] === undefined) continue;
    inputs[k] = k === "templateId" ? prior.templateId : o[k];
  }
  if (prior.env !== undefined || Object.keys(o.env).length > 0) inputs.env = o.env;
  if (o.gpu) {
    const g = prior.gpu;
    inputs.gpu = {
      pools: o.gpu.pools,
      ...(g?.excludedTypes !== undefined ? { excludedTypes: o.gpu.excludedTypes } : {}),
      ...(g?.count !== undefined || o.gpu.count !== 1 ? { count: o.gpu.count } : {}),
      ...(g?.allowedCudaVersions !== undefined ? { allowedCudaVersions: o.gpu.allowedCudaVersions } : {}),
      ...(g?.minCudaVersion !== undefined && o.gpu.minCudaVersion !== null
        ? { minCudaVersion: o.gpu.minCudaVersion }
        : {}),
    };
  }
  if (o.cpu) inputs.cpu = o.cpu.map(({ id, vcpuCount }) => ({ id, vcpuCount }));
  if (prior.workers !== undefined) {
    inputs.workers = {
      ...(prior.workers.min !== undefined ? { min: o.workers.min } : {}),
      ...(prior.workers.max !== undefined ? { max: o.workers.max } : {}),
      ...(prior.workers.idleTimeout !== undefined && o.workers.idleTimeout !== null
        ? { idleTimeout: o.workers.idleTimeout }
        : {}),
    };
  }
  if (prior.scaling !== undefined) inputs.scaling = scalingOf(o.scaling);
  return inputs as unknown as ServerlessEndpointInputs;
}

// ---------------------------------------------------------------- create, once

/** Endpoints this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

/**
 * POST /v2/serverless, never doubled: an unanswered create is resolved by looking for an endpoint
 * with the same name and type created since the request was sent (provider/create-once.ts).
 */
function createEndpointOnce(b: CreateEndpointRequest): Promise<Endpoint> {
  const skewMs = 5 * 60_000;
  return createOnce({
    what: `an endpoint named ${b.name}`,
    create: () => api().createEndpoint(b),
    list: () => api().listEndpoints(),
    matches: (e, sentAt) =>
      e.name === b.name && (e.type ?? "QUEUE") === b.type && Date.parse(e.createdAt) >= sentAt - skewMs,
    claimed,
  });
}

// ---------------------------------------------------------------- the provider

export class ServerlessEndpointProvider
  implements pulumi.dynamic.ResourceProvider<ServerlessEndpointInputs, ServerlessEndpointOutputs>
{
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: ServerlessEndpointInputs, news: ServerlessEndpointInputs) {
    const failures = checkServerlessEndpoint(news as unknown as Record<string, unknown>);
    return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
  }

  async diff(_id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    const d = diffServerlessEndpoint(olds, news);
    if (d.restartsWorkers.length > 0 && d.replaces.length === 0) {
      // Preview has no other channel from a dynamic provider: the host's stderr reaches the terminal.
      progress(
        `ServerlessEndpoint ${news.name}`,
        `changing ${d.restartsWorkers.join(", ")} may restart active workers`,
      );
    }
    return diffResult(d, news);
  }

  async create(
    inputs: ServerlessEndpointInputs,
  ): Promise<pulumi.dynamic.CreateResult<ServerlessEndpointOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const created = await createEndpointOnce(createBody(inputs));
    progress(`ServerlessEndpoint ${inputs.name}`, `created ${created.id} (${created.type ?? "QUEUE"})`);
    return { id: created.id, outs: endpointOutputs(created, inputs) };
  }

  private async adopt(id: string, inputs: ServerlessEndpointInputs) {
    let existing: Endpoint;
    try {
      existing = await api().getEndpoint(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) {
        throw new Error(`adoptId ${id}: no such endpoint (or this API key cannot see it).`);
      }
      throw err;
    }
    const current = endpointOutputs(existing, inputs);
    const d = diffServerlessEndpoint(current, inputs);
    if (d.replaces.length > 0) {
      throw new Error(
        `adoptId ${id} cannot be adopted: it differs from the inputs in ${d.replaces.join(", ")}, which cannot change in place.`,
      );
    }
    const updated =
      d.updates.length > 0
        ? await api().updateEndpoint(id, patchBody(d.updates, inputs, current, existing.env ?? {}))
        : existing;
    claimed.add(id);
    progress(`ServerlessEndpoint ${inputs.name}`, `adopted existing endpoint ${id}`);
    return { id, outs: endpointOutputs(updated, inputs) };
  }

  async read(id: string, props?: ServerlessEndpointOutputs) {
    let e: Endpoint;
    try {
      e = await api().getEndpoint(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return {};
      throw err;
    }
    // On refresh `props` are the old outputs (v1 or v2 names); on get, the program's inputs.
    const prior = props ? (currentView(props) as Partial<ServerlessEndpointOutputs>) : {};
    const priorInputs = Object.fromEntries(
      Object.entries(prior).filter(([, v]) => v !== null),
    ) as Partial<ServerlessEndpointInputs>;
    if (!priorInputs.env || Object.keys(priorInputs.env).length === 0) priorInputs.env = e.env ?? {};
    const outs = endpointOutputs(e, priorInputs);
    return {
      id,
      props: outs,
      inputs: inputsFromOutputs(outs, priorInputs) as unknown as ServerlessEndpointOutputs,
    };
  }

  async update(id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    const current = currentView(olds);
    const d = diffServerlessEndpoint(olds, news);
    if (d.updates.length === 0) return { outs: endpointOutputs(await api().getEndpoint(id), news) };
    // PATCH replaces the whole env, so the endpoint's current env is read only when env changes.
    const liveEnv = d.updates.includes("env") ? ((await api().getEndpoint(id)).env ?? {}) : {};
    const updated = await api().updateEndpoint(id, patchBody(d.updates, news, current, liveEnv));
    return { outs: endpointOutputs(updated, news) };
  }

  async delete(id: string, props: ServerlessEndpointOutputs): Promise<void> {
    try {
      await api().deleteEndpoint(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      throw err;
    }
    progress(
      `ServerlessEndpoint ${props?.name ?? id}`,
      `deleted ${id} (its logs and job history are gone with it)`,
    );
  }
}

export const serverlessEndpointProvider = named(
  new ServerlessEndpointProvider(),
  byName("ServerlessEndpoint"),
);
