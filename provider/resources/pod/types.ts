/** Pod inputs as a program writes them (`PodArgs`) and as the provider sees them, and its outputs. */
import type * as pulumi from "@pulumi/pulumi";
import type { Cloud, PodStatus, Region } from "../../client/vocabulary.js";
import type { ContainerArgs, ContainerInputs, ContainerOutputs } from "../container.js";

// ---------------------------------------------------------------- inputs

/**
 * Checked inputs of a Pod: `PodArgs` resolved to plain values, as `check` accepts them and the
 * provider sees them.
 */
export interface PodInputs extends ContainerInputs {
  name: string;
  image?: string | undefined;
  gpu?:
    | {
        id: string;
        count?: number | undefined;
        allowedCudaVersions?: string[] | undefined;
        minCudaVersion?: string | undefined;
        minRamPerGpu?: number | undefined;
        minVcpuCountPerGpu?: number | undefined;
      }
    | undefined;
  cpu?: { id: string; vcpuCount: number } | undefined;
  cloud?: Cloud | undefined;
  dataCenterIds?: string[] | undefined;
  globalNetworking?: boolean | undefined;
  mounts?:
    | {
        persistent?: { size: number; path: string } | undefined;
        network?: { volumeId: string; path: string }[] | undefined;
        global?: { volumeId: string; path?: string | undefined }[] | undefined;
      }
    | undefined;
  startJupyter?: boolean | undefined;
  startSsh?: boolean | undefined;
  templateId?: string | undefined;
  locked?: boolean | undefined;
  desiredStatus?: "RUNNING" | "STOPPED" | undefined;
  placement?:
    | {
        candidates?: { dataCenterId: string; gpuTypeId?: string | undefined }[] | undefined;
        regions?: Region[] | undefined;
        gpuTypeIds?: string[] | undefined;
        minAvailability?: "LOW" | "MEDIUM" | "HIGH" | undefined;
        maxCandidates?: number | undefined;
        order?: "availability" | "price" | undefined;
        countryCodes?: string[] | undefined;
        anyDataCenter?: boolean | undefined;
        retryFor?: number | undefined;
      }
    | undefined;
  waitFor?: "RUNNING" | "PLACED" | "NONE" | undefined;
  readiness?:
    | {
        check?: "RUNNING" | "PORTS" | "HTTP" | "TCP" | undefined;
        port?: number | undefined;
        path?: string | undefined;
        timeout?: number | undefined;
        settle?: number | undefined;
      }
    | undefined;
  failFast?:
    | {
        logs?: boolean | undefined;
        afterSeconds?: number | undefined;
        crashLoopRestarts?: number | undefined;
        crashLoopWindow?: number | undefined;
      }
    | undefined;
  timeouts?:
    | { create?: number | undefined; update?: number | undefined; delete?: number | undefined }
    | undefined;
  onCreateFailure?: "terminate" | "keep" | undefined;
  adoptId?: string | undefined;
}

/** How the program describes a pod. Every field may be a Pulumi Input. */
export interface PodArgs extends ContainerArgs {
  /** Pod name (not unique). */
  name: pulumi.Input<string>;
  /** Container image. Required unless `templateId` is set. */
  image?: pulumi.Input<string>;
  /** A GPU pod: exactly one of `gpu` and `cpu`. Changing it replaces the pod. */
  gpu?: pulumi.Input<{
    id: pulumi.Input<string>;
    count?: pulumi.Input<number>;
    allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
    minCudaVersion?: pulumi.Input<string>;
    minRamPerGpu?: pulumi.Input<number>;
    minVcpuCountPerGpu?: pulumi.Input<number>;
  }>;
  /** A CPU pod: flavor id and a power-of-two vCPU count. Changing it replaces the pod. */
  cpu?: pulumi.Input<{ id: pulumi.Input<string>; vcpuCount: pulumi.Input<number> }>;
  /** @default "SECURE" */
  cloud?: pulumi.Input<"SECURE" | "COMMUNITY">;
  /** Preferred data centers; the pod is replaced only if its data center leaves this list. */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Private cross-data-center networking. Changes take effect at the pod's next start. */
  globalNetworking?: pulumi.Input<boolean>;
  /**
   * Storage. The kind is fixed at create; only paths can change in place. `network[].volumeId`
   * takes a `NetworkVolume`'s id (placement is then restricted to the volume's data center);
   * `global[].volumeId` references an existing global volume by id only: the public v2 API has no
   * endpoint to manage global volumes.
   */
  mounts?: pulumi.Input<{
    persistent?: pulumi.Input<{ size: pulumi.Input<number>; path: pulumi.Input<string> }>;
    network?: pulumi.Input<pulumi.Input<{ volumeId: pulumi.Input<string>; path: pulumi.Input<string> }>[]>;
    global?: pulumi.Input<pulumi.Input<{ volumeId: pulumi.Input<string>; path?: pulumi.Input<string> }>[]>;
  }>;
  /** Create-time: injects a generated JUPYTER_PASSWORD (exposed as the secret `jupyterPassword`). */
  startJupyter?: pulumi.Input<boolean>;
  /** Create-time: injects the account's SSH keys. Make the pod `dependsOn` its `SshKey`s. */
  startSsh?: pulumi.Input<boolean>;
  /**
   * A one-time source of settings at create (a `Template`'s id, or a public one): later template
   * edits do not change the pod. Changing it replaces the pod. A serverless template cannot back a
   * pod: `check` cannot see the template's flag without an API call, so create fails with the
   * API's 422.
   */
  templateId?: pulumi.Input<string>;
  /** A locked pod cannot be stopped, restarted or deleted. @default false */
  locked?: pulumi.Input<boolean>;
  /**
   * Whether the pod runs. `STOPPED` stops it (`POST /v2/pods/{id}/action`): it keeps its disk and
   * volume and stops billing for the GPU; `RUNNING` starts it again, which needs a free GPU of its
   * type on its machine and can fail for capacity (the pod then stays stopped and the error says
   * so). Changes in place. Not combinable with `locked: true`. @default "RUNNING"
   */
  desiredStatus?: pulumi.Input<"RUNNING" | "STOPPED">;
  /**
   * Where to try, in order, at create. Without it the pod is created once with `dataCenterIds` as
   * given. Placement is a create-time strategy: changing it never replaces an existing pod.
   */
  placement?: pulumi.Input<{
    candidates?: pulumi.Input<
      pulumi.Input<{ dataCenterId: pulumi.Input<string>; gpuTypeId?: pulumi.Input<string> }>[]
    >;
    regions?: pulumi.Input<pulumi.Input<Region>[]>;
    gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
    minAvailability?: pulumi.Input<"LOW" | "MEDIUM" | "HIGH">;
    maxCandidates?: pulumi.Input<number>;
    /**
     * How catalog-built candidates are ordered: `availability` (the most stock first, then your
     * GPU and region order) or `price` (the cheapest GPU type for the pod's cloud first, among
     * those with stock). Asking for `price` builds candidates from the catalog even without
     * `regions` or `gpuTypeIds`. @default "availability"
     */
    order?: pulumi.Input<"availability" | "price">;
    /** Catalog-built candidates only in these countries (ISO 3166-1 alpha-2, e.g. `["US", "CA"]`). */
    countryCodes?: pulumi.Input<pulumi.Input<string>[]>;
    /**
     * After every candidate, one create with no data center pin, where the service picks any data
     * center with capacity: what succeeds when the catalog says a GPU is available in data centers
     * that then refuse the create. Not for pods with a network volume (the volume pins them).
     * @default false
     */
    anyDataCenter?: pulumi.Input<boolean>;
    /**
     * When every candidate is out of capacity, walk the list again, backing off, for up to this
     * many seconds. @default 0 (fail at once, listing every attempt)
     */
    retryFor?: pulumi.Input<number>;
  }>;
  /** What create waits for. @default "RUNNING" */
  waitFor?: pulumi.Input<"RUNNING" | "PLACED" | "NONE">;
  /**
   * What "done" means for a create (and for an update that restarts the container), past the
   * status: `RUNNING` (the default), `PORTS` (every `<port>/tcp` has its public address),
   * `HTTP` (`path` on `<port>/http` answers 2xx through the pod's proxy address) or `TCP`
   * (`<port>/tcp` accepts a connection, e.g. 22 for SSH). `timeout` (seconds) bounds the check
   * once the pod is RUNNING, within `timeouts.create`. Then the container must stay up `settle`
   * seconds with no restart: a crash-looping container shows RUNNING while it is up, so a restart
   * within that time fails the create as a crash loop, quoting the log, and the pod is handled as
   * `onCreateFailure` says; `settle: 0` turns it off. Probes go to the pod, not the API: they cost
   * no API quota. A change to `readiness` alone is not a diff.
   * @default { check: "RUNNING", settle: 30 }
   */
  readiness?: pulumi.Input<{
    check?: pulumi.Input<"RUNNING" | "PORTS" | "HTTP" | "TCP">;
    port?: pulumi.Input<number>;
    path?: pulumi.Input<string>;
    timeout?: pulumi.Input<number>;
    settle?: pulumi.Input<number>;
  }>;
  /**
   * Failing fast while waiting: when a pod is not up `afterSeconds` after it was placed, or
   * restarts, its log is read, and an image that cannot be pulled (unknown, private without
   * `registry`, larger than `disk`) or a container that exits `crashLoopRestarts` times within
   * `crashLoopWindow` seconds fails the create at once, quoting the log, instead of waiting out the
   * timeout. `logs: false` waits on the status alone. A change alone is not a diff.
   * @default { logs: true, afterSeconds: 15, crashLoopRestarts: 3, crashLoopWindow: 300 }
   */
  failFast?: pulumi.Input<{
    logs?: pulumi.Input<boolean>;
    afterSeconds?: pulumi.Input<number>;
    crashLoopRestarts?: pulumi.Input<number>;
    crashLoopWindow?: pulumi.Input<number>;
  }>;
  /**
   * Seconds. @default { create: 600, update: 600, delete: 300 }
   *
   * A change to `timeouts` alone is not a diff (nothing on the pod changes), so the delete timeout a
   * later destroy uses is the one recorded at create or at the last update.
   */
  timeouts?: pulumi.Input<{
    create?: pulumi.Input<number>;
    update?: pulumi.Input<number>;
    delete?: pulumi.Input<number>;
  }>;
  /** A pod that never reaches the wait target is terminated (billing stops) or kept (in state). @default "terminate" */
  onCreateFailure?: pulumi.Input<"terminate" | "keep">;
  /** Adopt this existing pod instead of creating one (`pulumi import` does not work for dynamic providers). */
  adoptId?: pulumi.Input<string>;
}

// ---------------------------------------------------------------- outputs

export interface PodGpuOutput {
  id: string;
  count: number;
  /** Total vCPUs and GB of RAM allocated across the pod's GPUs; null when the API does not say. */
  vcpuCount: number | null;
  memory: number | null;
  allowedCudaVersions: string[] | null;
  minCudaVersion: string | null;
  minRamPerGpu: number | null;
  minVcpuCountPerGpu: number | null;
}

export interface PodOutputs extends ContainerOutputs {
  name: string;
  status: PodStatus;
  actions: string[];
  /** Declared keys only: keys the service injects (PUBLIC_KEY, JUPYTER_PASSWORD) or a template adds are not drift. */
  env: Record<string, string>;
  mounts: {
    persistent?: { size: number; path: string };
    network?: { volumeId: string; path: string }[];
    global?: { volumeId: string; path?: string }[];
  };
  gpu: PodGpuOutput | null;
  cpu: { id: string; vcpuCount: number; memory: number | null } | null;
  cloud: "SECURE" | "COMMUNITY";
  dataCenterId: string | null;
  dataCenterIds: string[] | null;
  cudaVersion: string | null;
  ssh: { proxy: SshEndpoint | null; direct: SshEndpoint | null };
  cluster: { id: string; rank: number | null; role: string | null; ip: string | null } | null;
  template: string | null;
  templateId: string | null;
  /** USD per hour RunPod bills now; null when the API does not say. */
  cost: number | null;
  locked: boolean;
  /** `STOPPED` when the pod is stopped (EXITED); a failed pod (ERROR) shows what was asked of it. */
  desiredStatus: "RUNNING" | "STOPPED";
  globalNetworking: { enabled: boolean; ip: string | null; internalDns: string | null };
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

export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  command: string;
}
