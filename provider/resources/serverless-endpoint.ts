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
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { CreateEndpointRequest, Endpoint } from "../client/schemas/endpoints.js";
import type { EndpointType, FlashbootMode, ScalerType } from "../client/vocabulary.js";
import { api, configureRuntime } from "../host/context.js";
import { createOnce } from "../host/create-once.js";
import { progress } from "../host/progress.js";
import { thinProvider } from "../program/thin.js";
import {
  byName,
  checkResult,
  createdSince,
  diffResult,
  named,
  optionInputs,
  unlessGone,
  withSecretOutputs,
} from "./common.js";
import { createBody, patchBody } from "./serverless-endpoint-body.js";
import { checkServerlessEndpoint } from "./serverless-endpoint-check.js";
import { currentView, diffServerlessEndpoint } from "./serverless-endpoint-diff.js";
import { endpointOutputs, inputsFromOutputs } from "./serverless-endpoint-outputs.js";

export { checkServerlessEndpoint, serverlessEndpointRuleFailures } from "./serverless-endpoint-check.js";
export { ENDPOINT_API_DEFAULTS } from "./serverless-endpoint-defaults.js";
export { currentView, diffServerlessEndpoint } from "./serverless-endpoint-diff.js";

export const SERVERLESS_ENDPOINT_TYPE = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";

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
      withSecretOutputs(opts, "env"),
      "runpod",
      "ServerlessEndpoint",
    );
  }
}

// ---------------------------------------------------------------- the provider

const label = byName("ServerlessEndpoint");

/** Endpoints this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

/**
 * POST /v2/serverless, never doubled: an unanswered create is resolved by looking for an endpoint
 * with the same name and type created since the request was sent (provider/host/create-once.ts).
 */
function createEndpointOnce(b: CreateEndpointRequest): Promise<Endpoint> {
  return createOnce({
    what: `an endpoint named ${b.name}`,
    create: () => api().createEndpoint(b),
    list: () => api().listEndpoints(),
    matches: (e, sentAt) =>
      e.name === b.name && (e.type ?? "QUEUE") === b.type && createdSince(e.createdAt, sentAt),
    claimed,
  });
}

export class ServerlessEndpointProvider
  implements pulumi.dynamic.ResourceProvider<ServerlessEndpointInputs, ServerlessEndpointOutputs>
{
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: ServerlessEndpointInputs, news: ServerlessEndpointInputs) {
    return checkResult(news, checkServerlessEndpoint(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    const d = diffServerlessEndpoint(olds, news);
    if (d.restartsWorkers.length > 0 && d.replaces.length === 0) {
      // Preview has no other channel from a dynamic provider: the host's stderr reaches the terminal.
      progress(label(news), `changing ${d.restartsWorkers.join(", ")} may restart active workers`);
    }
    return diffResult(d, news);
  }

  async create(
    inputs: ServerlessEndpointInputs,
  ): Promise<pulumi.dynamic.CreateResult<ServerlessEndpointOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const created = await createEndpointOnce(createBody(inputs));
    progress(label(inputs), `created ${created.id} (${created.type ?? "QUEUE"})`);
    return { id: created.id, outs: endpointOutputs(created, inputs) };
  }

  private async adopt(id: string, inputs: ServerlessEndpointInputs) {
    const existing = await unlessGone(api().getEndpoint(id));
    if (!existing) throw new Error(`adoptId ${id}: no such endpoint (or this API key cannot see it).`);
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
    progress(label(inputs), `adopted existing endpoint ${id}`);
    return { id, outs: endpointOutputs(updated, inputs) };
  }

  async read(id: string, props?: ServerlessEndpointOutputs) {
    const e = await unlessGone(api().getEndpoint(id));
    if (!e) return {};
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
    progress(label(props, id), `deleted ${id} (its logs and job history are gone with it)`);
  }
}

export const serverlessEndpointProvider = named(new ServerlessEndpointProvider(), label);
