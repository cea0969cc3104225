/** The types of `ServerlessEndpoint`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { EndpointType, FlashbootMode, ScalerType } from "../../client/vocabulary.js";
import type { Resolved } from "../same-type.js";

export type EndpointScalingInput =
  | { type: "QUEUE_DELAY"; queueDelay: number }
  | { type: "REQUEST_COUNT"; requestCount: number };

/**
 * Checked inputs of a ServerlessEndpoint: `ServerlessEndpointArgs` resolved to plain values, as
 * `check` accepts them and the provider sees them.
 */
export type ServerlessEndpointInputs = Resolved<ServerlessEndpointArgs>;

/**
 * How the program describes a serverless endpoint. Every field may be a Pulumi Input. Exactly one of
 * `gpu` and `cpu`; `image` unless `templateId` is set.
 */
export interface ServerlessEndpointArgs {
  /**
   * Endpoint name, 1-191 characters.
   * @onChange update
   */
  name: pulumi.Input<string>;
  /**
   * `QUEUE` (jobs through run/runsync/status) or `LOAD_BALANCER` (HTTP to the workers).
   * @defaultValue `"QUEUE"`
   * @onChange replace
   */
  type?: pulumi.Input<"QUEUE" | "LOAD_BALANCER">;
  /**
   * A serverless template whose container settings are applied once, at create (or when it changes).
   * @defaultValue none: the container settings below
   * @onChange update
   */
  templateId?: pulumi.Input<string>;
  /**
   * Container image. Required unless `templateId` is set.
   * @defaultValue none: the template's
   * @onChange update
   */
  image?: pulumi.Input<string>;
  /**
   * The container command as one raw string.
   * @defaultValue none: the image's (or the template's)
   * @onChange update
   */
  args?: pulumi.Input<string>;
  /**
   * Container disk in GB.
   * @defaultValue none: the API's (or the template's)
   * @onChange update
   */
  disk?: pulumi.Input<number>;
  /**
   * Exposed ports, `<port>/<protocol>`.
   * @defaultValue none: the template's, else none
   * @onChange update
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Environment variables; stored as secrets in state. Template keys the program does not declare
   * are kept.
   * @defaultValue `{}`
   * @onChange update
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * A `Registry`'s id, for private images; `null` removes it.
   * @defaultValue none: public images only
   * @onChange update
   */
  registry?: pulumi.Input<string | null>;
  /**
   * A GPU endpoint: serverless GPU pools, GPU types taken out of them, GPUs per worker, CUDA
   * constraints. Exactly one of `gpu` and `cpu`. Changing pools, count or worker counts may restart
   * active workers; the preview says so.
   * @defaultValue none: a CPU endpoint (`cpu`)
   * @onChange update, replace: a switch between GPU and CPU replaces; a change within `gpu` updates
   * in place.
   */
  gpu?: pulumi.Input<EndpointGpuArgs>;
  /**
   * A CPU endpoint: eligible flavor and vCPU count pairs. Exactly one of `gpu` and `cpu`.
   * @defaultValue none: a GPU endpoint (`gpu`)
   * @onChange update, replace: a switch between GPU and CPU replaces; a new list updates in place.
   */
  cpu?: pulumi.Input<pulumi.Input<EndpointCpuArgs>[]>;
  /**
   * How many workers run.
   * @defaultValue `{ min: 0, max: 3 }`
   * @onChange update
   */
  workers?: pulumi.Input<EndpointWorkersArgs>;
  /**
   * When workers are added. A load balancer scales on `REQUEST_COUNT`.
   * @defaultValue `{ type: "QUEUE_DELAY", queueDelay: 4 }`; a load balancer:
   * `{ type: "REQUEST_COUNT", requestCount: 4 }`
   * @onChange update
   */
  scaling?: pulumi.Input<EndpointScalingArgs>;
  /**
   * Faster cold starts: `OFF`, `FLASHBOOT` or `PRIORITY_FLASHBOOT`.
   * @defaultValue `"OFF"`
   * @onChange update
   */
  flashboot?: pulumi.Input<"OFF" | "FLASHBOOT" | "PRIORITY_FLASHBOOT">;
  /**
   * `NetworkVolume` ids mounted on the workers.
   * @defaultValue `[]`
   * @onChange update
   */
  networkVolumes?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Data centers the workers may run in.
   * @defaultValue `[]`: any
   * @onChange update
   */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Longest a single request may run, in ms (5 s - 7 days).
   * @defaultValue `300000`
   * @onChange update
   */
  timeout?: pulumi.Input<number>;
  /**
   * Adopt this existing endpoint instead of creating one.
   * @defaultValue none: create an endpoint
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

/** A GPU endpoint's `gpu`. */
export interface EndpointGpuArgs {
  /** Serverless GPU pools in order of preference (the `pool` of `getGpuTypes()`), e.g. `ADA_24`. */
  pools: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * GPU types taken out of the pools.
   * @defaultValue `[]`
   */
  excludedTypes?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * GPUs per worker.
   * @defaultValue `1`
   */
  count?: pulumi.Input<number>;
  /**
   * Exact acceptable host CUDA versions (`major.minor`). Not with `minCudaVersion`.
   * @defaultValue none: any version
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Lowest acceptable host CUDA version (`major.minor`). Not with `allowedCudaVersions`.
   * @defaultValue none: any version
   */
  minCudaVersion?: pulumi.Input<string>;
}

/** One CPU configuration a CPU endpoint's workers may use. */
export interface EndpointCpuArgs {
  /** CPU flavor id (`getCpuFlavors()`). */
  id: pulumi.Input<string>;
  /** vCPUs per worker: a power of two. */
  vcpuCount: pulumi.Input<number>;
}

/** An endpoint's `workers`. `min` may not exceed `max`. */
export interface EndpointWorkersArgs {
  /**
   * Workers kept running (and billed) when idle.
   * @defaultValue `0`
   */
  min?: pulumi.Input<number>;
  /**
   * Most workers at once.
   * @defaultValue `3`
   */
  max?: pulumi.Input<number>;
  /**
   * Seconds an idle worker stays up (1-3600). Not for a queue endpoint scaling on `REQUEST_COUNT`.
   * @defaultValue the API's (10 s in its v2 description)
   */
  idleTimeout?: pulumi.Input<number>;
}

/** An endpoint's `scaling`: on queue delay or on request count. */
export type EndpointScalingArgs = QueueDelayScalingArgs | RequestCountScalingArgs;

/** Add workers when jobs wait in the queue. Queue endpoints only. */
export interface QueueDelayScalingArgs {
  /** `QUEUE_DELAY`. */
  type: pulumi.Input<"QUEUE_DELAY">;
  /** Seconds a job may wait before a worker is added (at least 0.5). */
  queueDelay: pulumi.Input<number>;
}

/** Add workers by the number of requests in flight. */
export interface RequestCountScalingArgs {
  /** `REQUEST_COUNT`. */
  type: pulumi.Input<"REQUEST_COUNT">;
  /** Requests per worker before another is added (at least 1). */
  requestCount: pulumi.Input<number>;
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
    /** Serverless GPU pools, in order. */
    pools: string[];
    /** GPU types taken out of the pools. */
    excludedTypes: string[];
    /** GPUs per worker. */
    count: number;
    /** Exact acceptable host CUDA versions; empty for any. */
    allowedCudaVersions: string[];
    /** Lowest acceptable host CUDA version; null for any. */
    minCudaVersion: string | null;
  } | null;
  cpu:
    | {
        /** CPU flavor id. */
        id: string;
        /** vCPUs per worker. */
        vcpuCount: number;
        /** GB of RAM per worker; null when the API does not say. */
        memory: number | null;
      }[]
    | null;
  workers: {
    /** Workers kept running when idle. */
    min: number;
    /** Most workers at once. */
    max: number;
    /** Seconds an idle worker stays up; null when the API does not say. */
    idleTimeout: number | null;
  };
  scaling: {
    /** `QUEUE_DELAY` or `REQUEST_COUNT`. */
    type: ScalerType;
    /** Seconds of queue delay that add a worker; null when scaling on request count. */
    queueDelay: number | null;
    /** Requests per worker that add another; null when scaling on queue delay. */
    requestCount: number | null;
  };
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
