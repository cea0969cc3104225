/**
 * `ServerlessEndpoint` (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`): a serverless
 * endpoint managed through `{rest_url}/v1/endpoints`. Inputs carry the v1 description's field
 * names. Everything updates in place except the compute type (GPU or CPU), which replaces.
 *
 * Deleting an endpoint permanently removes its configuration, logs and job history (contract):
 * protect production endpoints with `{ protect: true }`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { CheckFailure } from "../check-failure.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import {
  CreateEndpointRequest,
  type Endpoint,
  type UpdateEndpointRequest,
} from "../client/schemas/endpoints.js";
import type { ComputeType, ScalerType } from "../client/vocabulary.js";
import { api, configureRuntime, settings } from "../context.js";
import { createOnce } from "../create-once.js";
import { progress } from "../progress.js";
import { thinProvider } from "../thin.js";
import { isUnknown } from "../unknown.js";
import { schemaFailures } from "../validation.js";
import { byName, differs, diffResult, named, optionInputs, withoutInternal } from "./common.js";
import { ServerlessEndpointArgsSchema } from "./serverless-endpoint-schema.js";

export const SERVERLESS_ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";

/** The API's defaults (v1 description, EndpointCreateInput), used where the program leaves a field out. */
export const ENDPOINT_API_DEFAULTS = { computeType: "GPU", workersMin: 0, workersMax: 3 } as const;

/**
 * Checked inputs of a ServerlessEndpoint: `ServerlessEndpointArgs` resolved to plain values, as
 * `check` accepts them and the provider sees them.
 */
export interface ServerlessEndpointInputs {
  name: string;
  templateId: string;
  computeType?: ComputeType | undefined;
  gpuTypeIds?: string[] | undefined;
  gpuCount?: number | undefined;
  cpuFlavorIds?: string[] | undefined;
  vcpuCount?: number | undefined;
  dataCenterIds?: string[] | undefined;
  allowedCudaVersions?: string[] | undefined;
  minCudaVersion?: string | undefined;
  workersMin?: number | undefined;
  workersMax?: number | undefined;
  idleTimeout?: number | undefined;
  executionTimeoutMs?: number | undefined;
  flashboot?: boolean | undefined;
  scalerType?: ScalerType | undefined;
  scalerValue?: number | undefined;
  networkVolumeId?: string | undefined;
  networkVolumeIds?: string[] | undefined;
  env?: Record<string, string> | undefined;
  adoptId?: string | undefined;
}

type In<T> = pulumi.Input<T>;
type InList<T> = pulumi.Input<pulumi.Input<T>[]>;

export interface ServerlessEndpointArgs {
  name: In<string>;
  /** A serverless template (its `serverless` flag set). */
  templateId: In<string>;
  /** Changing it replaces the endpoint. @default "GPU" */
  computeType?: In<"GPU" | "CPU">;
  /** GPU types in priority order: the first available is allocated, else the next. Required for GPU endpoints. */
  gpuTypeIds?: InList<string>;
  /** @default 1 */
  gpuCount?: In<number>;
  /** CPU flavors, for CPU endpoints. */
  cpuFlavorIds?: InList<string>;
  /** @default 2 */
  vcpuCount?: In<number>;
  dataCenterIds?: InList<string>;
  allowedCudaVersions?: InList<string>;
  minCudaVersion?: In<string>;
  /** @default 0 */
  workersMin?: In<number>;
  /** @default 3 */
  workersMax?: In<number>;
  /** Seconds a worker may idle before it is scaled down (1-3600). @default 5 */
  idleTimeout?: In<number>;
  /** Longest a single request may run (5 s - 7 days). @default 600000 */
  executionTimeoutMs?: In<number>;
  /** @default false */
  flashboot?: In<boolean>;
  /** @default "QUEUE_DELAY" */
  scalerType?: In<"QUEUE_DELAY" | "REQUEST_COUNT">;
  /** @default 4 */
  scalerValue?: In<number>;
  networkVolumeId?: In<string>;
  networkVolumeIds?: InList<string>;
  /** Environment variables; stored as secrets in state. */
  env?: In<Record<string, In<string>>>;
  /** Adopt this existing endpoint instead of creating one. */
  adoptId?: In<string>;
}

export interface ServerlessEndpointOutputs {
  endpointId: string;
  name: string;
  templateId: string;
  computeType: "GPU" | "CPU";
  gpuTypeIds: string[] | null;
  gpuCount: number | null;
  cpuFlavorIds: string[] | null;
  vcpuCount: number | null;
  dataCenterIds: string[] | null;
  allowedCudaVersions: string[] | null;
  minCudaVersion: string | null;
  workersMin: number;
  workersMax: number;
  idleTimeout: number | null;
  executionTimeoutMs: number | null;
  flashboot: boolean | null;
  scalerType: string | null;
  scalerValue: number | null;
  networkVolumeId: string | null;
  networkVolumeIds: string[] | null;
  env: Record<string, string>;
  version: number | null;
  createdAt: string | null;
  /** `{serverless_url}/v2/{endpoint_id}/`: where jobs go (`run`, `runsync`, `status/{id}`). */
  jobUrl: string;
}

/**
 * A serverless endpoint.
 * @example
 * const endpoint = new ServerlessEndpoint("sdxl", {
 *   name: "sdxl",
 *   templateId: "runpod-worker-sdxl",
 *   gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA L40S"],
 *   workersMax: 2,
 * }, { protect: true });
 * export const jobUrl = endpoint.jobUrl;
 */
export class ServerlessEndpoint extends pulumi.dynamic.Resource {
  declare readonly endpointId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly templateId: pulumi.Output<string>;
  declare readonly computeType: pulumi.Output<"GPU" | "CPU">;
  declare readonly gpuTypeIds: pulumi.Output<string[] | null>;
  declare readonly workersMin: pulumi.Output<number>;
  declare readonly workersMax: pulumi.Output<number>;
  declare readonly idleTimeout: pulumi.Output<number | null>;
  declare readonly env: pulumi.Output<Record<string, string>>;
  declare readonly version: pulumi.Output<number | null>;
  declare readonly createdAt: pulumi.Output<string | null>;
  declare readonly jobUrl: pulumi.Output<string>;

  constructor(name: string, args: ServerlessEndpointArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("ServerlessEndpoint"),
      name,
      {
        endpointId: undefined,
        version: undefined,
        createdAt: undefined,
        jobUrl: undefined,
        ...args,
        ...optionInputs(opts),
      },
      { ...opts, additionalSecretOutputs: [...new Set([...(opts.additionalSecretOutputs ?? []), "env"])] },
      "runpod",
      "ServerlessEndpoint",
    );
  }
}

// ---------------------------------------------------------------- check

export function serverlessEndpointRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string, ...rules: string[]) =>
    failures.push(rules.length > 0 ? { property, reason, rules } : { property, reason });
  const compute = inputs.computeType ?? ENDPOINT_API_DEFAULTS.computeType;
  const min = inputs.workersMin ?? ENDPOINT_API_DEFAULTS.workersMin;
  const max = inputs.workersMax ?? ENDPOINT_API_DEFAULTS.workersMax;
  if (typeof min === "number" && typeof max === "number" && min > max) {
    fail(
      "workersMin",
      `must not exceed workersMax (${min} > ${max}${inputs.workersMax === undefined ? ", the default" : ""}); raise workersMax or lower workersMin`,
      "serverless-workers-range",
    );
  }
  if (isUnknown(compute)) return failures;
  const empty = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);
  if (compute === "GPU") {
    if (empty(inputs.gpuTypeIds))
      fail(
        "gpuTypeIds",
        "a GPU endpoint needs at least one GPU type, in priority order",
        "serverless-gpu-types",
      );
    if (inputs.cpuFlavorIds !== undefined)
      fail("cpuFlavorIds", 'is for CPU endpoints; set computeType: "CPU" or remove it');
  } else if (compute === "CPU") {
    if (empty(inputs.cpuFlavorIds)) fail("cpuFlavorIds", "a CPU endpoint needs at least one CPU flavor");
    for (const k of ["gpuTypeIds", "gpuCount", "allowedCudaVersions", "minCudaVersion"]) {
      if (inputs[k] !== undefined) fail(k, "is for GPU endpoints; a CPU endpoint has no GPU");
    }
  }
  return failures;
}

export function checkServerlessEndpoint(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(ServerlessEndpointArgsSchema, inputs), ...serverlessEndpointRuleFailures(inputs)];
}

// ---------------------------------------------------------------- diff

const UPDATABLE = [
  "name",
  "templateId",
  "gpuTypeIds",
  "gpuCount",
  "cpuFlavorIds",
  "vcpuCount",
  "dataCenterIds",
  "allowedCudaVersions",
  "minCudaVersion",
  "workersMin",
  "workersMax",
  "idleTimeout",
  "executionTimeoutMs",
  "flashboot",
  "scalerType",
  "scalerValue",
  "networkVolumeId",
  "networkVolumeIds",
] as const;

/** Changes that may restart active workers (contract: editing GPU types or worker counts). */
const RESTARTING = ["gpuTypeIds", "gpuCount", "workersMin", "workersMax"];

/** Replace on a new compute type; everything else updates in place; a left-out input is no opinion. */
export function diffServerlessEndpoint(
  olds: Partial<ServerlessEndpointOutputs>,
  news: ServerlessEndpointInputs,
) {
  const replaces: string[] = [];
  const updates: string[] = [];
  if (differs(news.computeType ?? "GPU", olds.computeType ?? "GPU")) replaces.push("computeType");
  for (const k of UPDATABLE) {
    const n = news[k];
    if (n !== undefined && differs(n, olds[k])) updates.push(k);
  }
  if (differs(news.env ?? {}, olds.env ?? {})) updates.push("env");
  return {
    changes: replaces.length + updates.length > 0,
    replaces,
    updates,
    restartsWorkers: updates.filter((u) => RESTARTING.includes(u)),
  };
}

// ---------------------------------------------------------------- outputs

function endpointOutputs(e: Endpoint, inputs: Partial<ServerlessEndpointInputs>): ServerlessEndpointOutputs {
  const declared = Object.keys(inputs.env ?? {});
  const env = Object.fromEntries(
    declared.filter((k) => e.env && k in e.env).map((k) => [k, e.env?.[k] as string]),
  );
  const n = <T>(v: T | undefined | null): T | null => (v === undefined ? null : v);
  return {
    endpointId: e.id,
    name: e.name ?? inputs.name ?? "",
    templateId: e.templateId ?? inputs.templateId ?? "",
    computeType: e.computeType ?? inputs.computeType ?? "GPU",
    gpuTypeIds: n(e.gpuTypeIds),
    gpuCount: n(e.gpuCount),
    cpuFlavorIds: n(e.cpuFlavorIds),
    vcpuCount: n(e.vcpuCount),
    dataCenterIds: n(e.dataCenterIds),
    allowedCudaVersions: n(e.allowedCudaVersions),
    minCudaVersion: n(e.minCudaVersion),
    workersMin: e.workersMin ?? inputs.workersMin ?? ENDPOINT_API_DEFAULTS.workersMin,
    workersMax: e.workersMax ?? inputs.workersMax ?? ENDPOINT_API_DEFAULTS.workersMax,
    idleTimeout: n(e.idleTimeout),
    executionTimeoutMs: n(e.executionTimeoutMs),
    flashboot: n(e.flashboot),
    scalerType: n(e.scalerType),
    scalerValue: n(e.scalerValue),
    networkVolumeId: n(e.networkVolumeId),
    networkVolumeIds: n(e.networkVolumeIds),
    env,
    version: n(e.version),
    createdAt: n(e.createdAt),
    jobUrl: `${settings().serverlessUrl}/v2/${e.id}/`,
  };
}

function inputsFromOutputs(
  o: ServerlessEndpointOutputs,
  prior: Partial<ServerlessEndpointInputs>,
): ServerlessEndpointInputs {
  const inputs: Record<string, unknown> = { name: o.name, templateId: o.templateId };
  if (prior.computeType !== undefined || o.computeType !== "GPU") inputs.computeType = o.computeType;
  for (const k of UPDATABLE) {
    if (k === "name" || k === "templateId") continue;
    if (prior[k] !== undefined && o[k] !== null) inputs[k] = o[k];
  }
  if (prior.env !== undefined || Object.keys(o.env).length > 0) inputs.env = o.env;
  return inputs as unknown as ServerlessEndpointInputs;
}

/** The create body: the v1 fields only (the host also passes `__provider` and our own options). */
function body(inputs: ServerlessEndpointInputs): z.input<typeof CreateEndpointRequest> {
  const fields = Object.keys(CreateEndpointRequest.shape);
  return Object.fromEntries(
    Object.entries(inputs).filter(([k, v]) => fields.includes(k) && v !== undefined),
  ) as z.input<typeof CreateEndpointRequest>;
}

// ---------------------------------------------------------------- create, once

/** Endpoints this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

/**
 * POST /v1/endpoints, never doubled: an unanswered create is resolved by looking for an endpoint
 * with the same name and template created since the request was sent (provider/create-once.ts).
 */
function createEndpointOnce(b: z.input<typeof CreateEndpointRequest>): Promise<Endpoint> {
  const skewMs = 5 * 60_000;
  return createOnce({
    what: `an endpoint named ${b.name}`,
    create: () => api().createEndpoint(b),
    list: () => api().listEndpoints(),
    matches: (e, sentAt) =>
      e.name === b.name &&
      e.templateId === b.templateId &&
      (e.createdAt === undefined || Date.parse(e.createdAt) >= sentAt - skewMs),
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
    if (inputs.adoptId) {
      let existing: Endpoint;
      try {
        existing = await api().getEndpoint(inputs.adoptId);
      } catch (err) {
        if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) {
          throw new Error(
            `ServerlessEndpoint ${inputs.name}: adoptId ${inputs.adoptId}: no such endpoint (or this API key cannot see it).`,
          );
        }
        throw err;
      }
      const current = endpointOutputs(existing, inputs);
      const d = diffServerlessEndpoint(current, inputs);
      if (d.replaces.length > 0) {
        throw new Error(
          `ServerlessEndpoint ${inputs.name}: adoptId ${inputs.adoptId} is a ${current.computeType} endpoint; the inputs ask for ${inputs.computeType ?? ENDPOINT_API_DEFAULTS.computeType}.`,
        );
      }
      const updated =
        d.updates.length > 0
          ? await api().updateEndpoint(existing.id, patchBody(d.updates, inputs))
          : existing;
      claimed.add(existing.id);
      progress(`ServerlessEndpoint ${inputs.name}`, `adopted existing endpoint ${existing.id}`);
      return { id: existing.id, outs: endpointOutputs(updated, inputs) };
    }
    const created = await createEndpointOnce(body(inputs));
    progress(`ServerlessEndpoint ${inputs.name}`, `created ${created.id}`);
    return { id: created.id, outs: endpointOutputs(created, inputs) };
  }

  async read(id: string, props?: ServerlessEndpointOutputs) {
    let e: Endpoint;
    try {
      e = await api().getEndpoint(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return {};
      throw err;
    }
    const prior = (props ?? {}) as Partial<ServerlessEndpointOutputs> & Partial<ServerlessEndpointInputs>;
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
    const d = diffServerlessEndpoint(olds, news);
    const updated =
      d.updates.length > 0
        ? await api().updateEndpoint(id, patchBody(d.updates, news))
        : await api().getEndpoint(id);
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

function patchBody(updates: readonly string[], news: ServerlessEndpointInputs): UpdateEndpointRequest {
  const out: Record<string, unknown> = {};
  for (const k of updates)
    out[k] = (news as unknown as Record<string, unknown>)[k] ?? (k === "env" ? {} : undefined);
  return out as UpdateEndpointRequest;
}

export const serverlessEndpointProvider = named(
  new ServerlessEndpointProvider(),
  byName("ServerlessEndpoint"),
);
