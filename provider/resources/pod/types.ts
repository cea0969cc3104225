/**
 * Pod inputs as the provider sees them (`PodArgs` of args.ts, checked), and its outputs; the
 * timeouts its inputs default to, and how progress lines and errors name it.
 */

import type { PodStatus } from "../../client/vocabulary.js";
import { byName } from "../common.js";
import type { ContainerOutputs } from "../container.js";
import type { Resolved } from "../same-type.js";
import type { PodArgs } from "./args.js";

/** How progress lines and errors name a pod: `Pod trainer`. Every step of a pod's create uses it. */
export const label = byName("Pod");

// ---------------------------------------------------------------- inputs

/**
 * Checked inputs of a Pod: `PodArgs` resolved to plain values, as `check` accepts them and the
 * provider sees them (the zod schema in schema.ts is proven the same).
 */
export type PodInputs = Resolved<PodArgs>;

// ---------------------------------------------------------------- outputs

/** A GPU pod's `gpu` output. */
export interface PodGpuOutput {
  /** The GPU type placement ended on (a fallback candidate's, not necessarily `gpu.id`). */
  id: string;
  /** GPUs in the pod. */
  count: number;
  /** Total vCPUs allocated across the pod's GPUs; null when the API does not say. */
  vcpuCount: number | null;
  /** Total GB of RAM allocated across the pod's GPUs; null when the API does not say. */
  memory: number | null;
  /** As the program gave it; null when not given. */
  allowedCudaVersions: string[] | null;
  /** As the program gave it; null when not given. */
  minCudaVersion: string | null;
  /** As the program gave it; null when not given. */
  minRamPerGpu: number | null;
  /** As the program gave it; null when not given. */
  minVcpuCountPerGpu: number | null;
}

export interface PodOutputs extends ContainerOutputs {
  name: string;
  status: PodStatus;
  actions: string[];
  /** Declared keys only: keys the service injects (PUBLIC_KEY, JUPYTER_PASSWORD) or a template adds are not drift. */
  env: Record<string, string>;
  mounts: {
    /** Host-local persistent storage. */
    persistent?: {
      /** Size in GB. */
      size: number;
      /** Where it is mounted. */
      path: string;
    };
    /** The network volume mounted. */
    network?: {
      /** The network volume's id. */
      volumeId: string;
      /** Where it is mounted. */
      path: string;
    }[];
    /** The global volume mounted. */
    global?: {
      /** The global volume's id. */
      volumeId: string;
      /** Where it is mounted. */
      path?: string;
    }[];
  };
  gpu: PodGpuOutput | null;
  cpu: {
    /** CPU flavor id. */
    id: string;
    /** vCPUs. */
    vcpuCount: number;
    /** GB of RAM; null when the API does not say. */
    memory: number | null;
  } | null;
  cloud: "SECURE" | "COMMUNITY";
  dataCenterId: string | null;
  dataCenterIds: string[] | null;
  cudaVersion: string | null;
  ssh: {
    /** Through RunPod's SSH proxy: an interactive shell only, no exposed port needed; null until placed. */
    proxy: SshEndpoint | null;
    /** Over the pod's public `22/tcp` mapping, the full SSH feature set; null without one. */
    direct: SshEndpoint | null;
  };
  cluster: {
    /** The cluster's id. */
    id: string;
    /** Node rank, 0 for the entry node; null until assigned. */
    rank: number | null;
    /** `SLURM_CONTROLLER`, `SLURM_COMPUTE`, `RAY_HEAD` or `RAY_WORKER`; null for other cluster types. */
    role: string | null;
    /** Address on the cluster's private network; null until assigned. */
    ip: string | null;
  } | null;
  template: string | null;
  templateId: string | null;
  /** USD per hour RunPod bills now; null when the API does not say. */
  cost: number | null;
  locked: boolean;
  /** `STOPPED` when the pod is stopped (EXITED); a failed pod (ERROR) shows what was asked of it. */
  desiredStatus: "RUNNING" | "STOPPED";
  globalNetworking: {
    /** Whether the pod has private networking now. */
    enabled: boolean;
    /** The pod's private address; null without one. */
    ip: string | null;
    /** The pod's private DNS name; null without one. */
    internalDns: string | null;
  };
  /** The requested value: a change applies at the next start, so `globalNetworking.enabled` may lag. */
  requestedGlobalNetworking: boolean;
  runtime: Record<string, unknown> | null;
  createdAt: string;
  startedAt: string | null;
  startSsh: boolean;
  startJupyter: boolean;
  /** The injected JupyterLab password (secret). */
  jupyterPassword: string | null;
  /** Create-time strategy; a change never replaces the pod. */
  placement: PodInputs["placement"] | null;
  /** The GPU type the program asked for (`gpu.id`); `gpu.id` in outputs is the one placement ended on. */
  requestedGpuId: string | null;
  /** Kept so delete, which only sees outputs, honours the delete timeout. */
  timeouts: PodInputs["timeouts"] | null;
}

/** One way to reach a pod over SSH. */
export interface SshEndpoint {
  /** Host to connect to. */
  host: string;
  /** Port to connect to. */
  port: number;
  /** User name; for the proxy an opaque routing token. */
  username: string;
  /** A ready-to-run `ssh` command line. */
  command: string;
}

// ---------------------------------------------------------------- timeouts

/** How long a Pod's create, update and delete may take, in seconds, unless its inputs say otherwise. */
export const DEFAULT_TIMEOUTS = { create: 600, update: 600, delete: 300 };

export function timeoutsOf(t: PodInputs["timeouts"] | null | undefined) {
  return {
    create: t?.create ?? DEFAULT_TIMEOUTS.create,
    update: t?.update ?? DEFAULT_TIMEOUTS.update,
    delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
  };
}
