/** The types of `ServerlessEndpoint`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */
import type * as pulumi from "@pulumi/pulumi";
import type { EndpointType, FlashbootMode, ScalerType } from "../../client/vocabulary.js";

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
