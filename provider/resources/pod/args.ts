/** How a program describes a Pod (`PodArgs`): every field a Pulumi Input, with its docs, default and change rule. */
import type * as pulumi from "@pulumi/pulumi";
import type { Region } from "../../client/vocabulary.js";
import type { ContainerArgs } from "../container.js";
import type { GlobalMountArgs, NetworkMountArgs, PersistentMountArgs } from "../mounts.js";

/**
 * How the program describes a pod. Every field may be a Pulumi Input. Exactly one of `gpu` and
 * `cpu`; `image` unless `templateId` is set.
 */
export interface PodArgs extends ContainerArgs {
  /**
   * Pod name (not unique).
   * @onChange update
   */
  name: pulumi.Input<string>;
  /**
   * Container image. Required unless `templateId` is set.
   * @defaultValue none: the template's image
   * @onChange update
   */
  image?: pulumi.Input<string>;
  /**
   * A GPU pod: its GPU type, count and host constraints. Exactly one of `gpu` and `cpu`.
   * @defaultValue none: a CPU pod (`cpu`)
   * @onChange replace
   */
  gpu?: pulumi.Input<PodGpuArgs>;
  /**
   * A CPU pod: flavor id and a power-of-two vCPU count. Exactly one of `gpu` and `cpu`.
   * @defaultValue none: a GPU pod (`gpu`)
   * @onChange replace
   */
  cpu?: pulumi.Input<PodCpuArgs>;
  /**
   * `SECURE` (RunPod's data centers) or `COMMUNITY` (hosts of the community cloud; no network volumes).
   * @defaultValue `"SECURE"`
   * @onChange replace
   */
  cloud?: pulumi.Input<"SECURE" | "COMMUNITY">;
  /**
   * Preferred data centers, in order.
   * @defaultValue none: any data center with capacity
   * @onChange replace, none: replaces only when the pod's data center leaves the list; any other
   * change is no diff.
   */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Private cross-data-center networking. A change takes effect at the pod's next start.
   * @defaultValue `false`
   * @onChange update
   */
  globalNetworking?: pulumi.Input<boolean>;
  /**
   * Storage: a persistent disk, or a network and/or a global volume.
   * @defaultValue none: no storage but the container disk
   * @onChange replace, update: a new kind, a different `volumeId` or a persistent `size` replaces;
   * a new `path` updates in place.
   */
  mounts?: pulumi.Input<PodMountsArgs>;
  /**
   * Injects a generated JUPYTER_PASSWORD (exposed as the secret `jupyterPassword`).
   * @defaultValue `false`
   * @onChange replace
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Injects the account's SSH keys. Make the pod `dependsOn` its `SshKey`s.
   * @defaultValue `false`
   * @onChange replace
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * A one-time source of settings at create (a `Template`'s id, or a public one): later template
   * edits do not change the pod. A serverless template cannot back a pod: `check` cannot see the
   * template's flag without an API call, so create fails with the API's 422.
   * @defaultValue none: no template
   * @onChange replace
   */
  templateId?: pulumi.Input<string>;
  /**
   * A locked pod cannot be stopped, restarted or deleted.
   * @defaultValue `false`
   * @onChange update
   */
  locked?: pulumi.Input<boolean>;
  /**
   * Whether the pod runs. `STOPPED` stops it (`POST /v2/pods/{id}/action`): it keeps its disk and
   * volume and stops billing for the GPU; `RUNNING` starts it again, which needs a free GPU of its
   * type on its machine and can fail for capacity (the pod then stays stopped and the error says
   * so). Not combinable with `locked: true`.
   * @defaultValue `"RUNNING"`
   * @onChange update
   */
  desiredStatus?: pulumi.Input<"RUNNING" | "STOPPED">;
  /**
   * Where to try, in order, at create. Without it the pod is created once with `dataCenterIds` as
   * given.
   * @defaultValue none: one create with `dataCenterIds`
   * @onChange none: a create-time strategy, never a reason to replace a pod.
   */
  placement?: pulumi.Input<PodPlacementArgs>;
  /**
   * What create waits for: `RUNNING`, `PLACED` (on a machine) or `NONE`.
   * @defaultValue `"RUNNING"`
   * @onChange none
   */
  waitFor?: pulumi.Input<"RUNNING" | "PLACED" | "NONE">;
  /**
   * What "done" means for a create (and for an update that restarts the container), past the
   * status. Probes go to the pod, not the API: they cost no API quota.
   * @defaultValue `{ check: "RUNNING", settle: 30 }`
   * @onChange none
   */
  readiness?: pulumi.Input<PodReadinessArgs>;
  /**
   * Failing fast while waiting: when a pod is not up `afterSeconds` after it was placed, or
   * restarts, its log is read, and an image that cannot be pulled (unknown, private without
   * `registry`, larger than `disk`) or a crash loop fails the create at once, quoting the log,
   * instead of waiting out the timeout.
   * @defaultValue `{ logs: true, afterSeconds: 15, crashLoopRestarts: 3, crashLoopWindow: 300 }`
   * @onChange none
   */
  failFast?: pulumi.Input<PodFailFastArgs>;
  /**
   * How long create, update and delete may wait, in seconds.
   * @defaultValue `{ create: 600, update: 600, delete: 300 }`
   * @onChange none: nothing on the pod changes, so the delete timeout a later destroy uses is the
   * one recorded at create or at the last update.
   */
  timeouts?: pulumi.Input<PodTimeoutsArgs>;
  /**
   * A pod that never reaches the wait target is terminated (billing stops) or kept (in state).
   * @defaultValue `"terminate"`
   * @onChange none
   */
  onCreateFailure?: pulumi.Input<"terminate" | "keep">;
  /**
   * Adopt this existing pod instead of creating one (`pulumi import` does not work for dynamic
   * providers).
   * @defaultValue none: create a pod
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

/** A GPU pod's `gpu`. The constraints are placement filters, fixed at create. */
export interface PodGpuArgs {
  /** GPU type id, e.g. `NVIDIA A40` (`getGpuTypes()`). */
  id: pulumi.Input<string>;
  /**
   * GPUs in the pod.
   * @defaultValue `1`
   */
  count?: pulumi.Input<number>;
  /**
   * Exact acceptable host CUDA versions (`major.minor`). Not with `minCudaVersion`.
   * @defaultValue none: any version
   */
  allowedCudaVersions?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Lowest acceptable host CUDA version (`major.minor`, compared numerically). Not with
   * `allowedCudaVersions`.
   * @defaultValue none: any version
   */
  minCudaVersion?: pulumi.Input<string>;
  /**
   * Minimum host RAM in GB per GPU: a placement filter, not a request.
   * @defaultValue none: no minimum
   */
  minRamPerGpu?: pulumi.Input<number>;
  /**
   * Minimum host vCPUs per GPU: a placement filter, not a request.
   * @defaultValue none: no minimum
   */
  minVcpuCountPerGpu?: pulumi.Input<number>;
}

/** A CPU pod's `cpu`. */
export interface PodCpuArgs {
  /** CPU flavor id (`getCpuFlavors()`), e.g. `cpu3c`. */
  id: pulumi.Input<string>;
  /** vCPUs: a power of two (2, 4, 8, ...) the flavor offers. */
  vcpuCount: pulumi.Input<number>;
}

/**
 * A pod's storage. `persistent` excludes `network` and `global`; a CPU pod cannot have
 * `persistent`. The kind and the volume are fixed at create; only paths change in place.
 */
export interface PodMountsArgs {
  /**
   * Host-local disk that survives restarts, pinned to the pod's machine.
   * @defaultValue none
   */
  persistent?: pulumi.Input<PersistentMountArgs>;
  /**
   * One network volume (a `NetworkVolume`'s id): placement is then restricted to the volume's data
   * center. Secure cloud only.
   * @defaultValue none
   */
  network?: pulumi.Input<pulumi.Input<NetworkMountArgs>[]>;
  /**
   * One existing global volume, by id only: the public v2 API has no endpoint to manage them.
   * @defaultValue none
   */
  global?: pulumi.Input<pulumi.Input<GlobalMountArgs>[]>;
}

/**
 * A pod's `placement`: explicit `candidates`, or `regions`/`gpuTypeIds` (and the filters) to build
 * them from the catalog, not both.
 */
export interface PodPlacementArgs {
  /**
   * Explicit (data center, GPU type) pairs, tried in order.
   * @defaultValue none: built from the catalog when `regions`, `gpuTypeIds`, `minAvailability`,
   * `countryCodes` or `order: "price"` is set
   */
  candidates?: pulumi.Input<pulumi.Input<PlacementCandidateArgs>[]>;
  /**
   * Build candidates from the catalog in these regions, in order.
   * @defaultValue none: every region
   */
  regions?: pulumi.Input<pulumi.Input<Region>[]>;
  /**
   * Fallback GPU types after `gpu.id`, in order, for catalog-built candidates. GPU pods only.
   * @defaultValue none: `gpu.id` alone
   */
  gpuTypeIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Skip catalog candidates whose stock is rated below this.
   * @defaultValue none: any stock but none
   */
  minAvailability?: pulumi.Input<"LOW" | "MEDIUM" | "HIGH">;
  /**
   * At most this many catalog-built candidates (1-50).
   * @defaultValue `12`
   */
  maxCandidates?: pulumi.Input<number>;
  /**
   * How catalog-built candidates are ordered: `availability` (the most stock first, then your
   * GPU and region order) or `price` (the cheapest GPU type for the pod's cloud first, among
   * those with stock). Asking for `price` builds candidates from the catalog even without
   * `regions` or `gpuTypeIds`. Not with `candidates`.
   * @defaultValue `"availability"`
   */
  order?: pulumi.Input<"availability" | "price">;
  /**
   * Catalog-built candidates only in these countries (ISO 3166-1 alpha-2, e.g. `["US", "CA"]`).
   * @defaultValue none: any country
   */
  countryCodes?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * After every candidate, one create with no data center pin, where the service picks any data
   * center with capacity: what succeeds when the catalog says a GPU is available in data centers
   * that then refuse the create. Not for pods with a network volume (the volume pins them).
   * @defaultValue `false`
   */
  anyDataCenter?: pulumi.Input<boolean>;
  /**
   * When every candidate is out of capacity, walk the list again, backing off, for up to this
   * many seconds.
   * @defaultValue `0`: fail at once, listing every attempt
   */
  retryFor?: pulumi.Input<number>;
}

/** One explicit placement candidate. */
export interface PlacementCandidateArgs {
  /** Data center id, e.g. `EU-RO-1`. */
  dataCenterId: pulumi.Input<string>;
  /**
   * GPU type to ask for there. Not for CPU pods.
   * @defaultValue `gpu.id`
   */
  gpuTypeId?: pulumi.Input<string>;
}

/**
 * A pod's `readiness`. After the check passes, the container must stay up `settle` seconds with
 * no restart: a crash-looping container shows RUNNING while it is up, so a restart within that
 * time fails the create as a crash loop, quoting the log, and the pod is handled as
 * `onCreateFailure` says.
 */
export interface PodReadinessArgs {
  /**
   * `RUNNING` (the status), `PORTS` (every `<port>/tcp` has its public address), `HTTP` (`path`
   * on `<port>/http` answers 2xx through the pod's proxy address) or `TCP` (`<port>/tcp` accepts a
   * connection, e.g. 22 for SSH).
   * @defaultValue `"RUNNING"`
   */
  check?: pulumi.Input<"RUNNING" | "PORTS" | "HTTP" | "TCP">;
  /**
   * The port `HTTP` and `TCP` probe; it must be in `ports` with that protocol.
   * @defaultValue none: required for `HTTP` and `TCP`
   */
  port?: pulumi.Input<number>;
  /**
   * The path `HTTP` requests, starting with `/`.
   * @defaultValue `"/"`
   */
  path?: pulumi.Input<string>;
  /**
   * Seconds the check may take once the pod is RUNNING, within `timeouts.create`.
   * @defaultValue `timeouts.create`
   */
  timeout?: pulumi.Input<number>;
  /**
   * Seconds the container must stay up with no restart; `0` turns the crash-loop watch off.
   * @defaultValue `30`
   */
  settle?: pulumi.Input<number>;
}

/** A pod's `failFast`. */
export interface PodFailFastArgs {
  /**
   * Read the pod's log while waiting; `false` waits on the status alone.
   * @defaultValue `true`
   */
  logs?: pulumi.Input<boolean>;
  /**
   * Seconds after placement before a pod that is not up has its log read.
   * @defaultValue `15`
   */
  afterSeconds?: pulumi.Input<number>;
  /**
   * Container exits within `crashLoopWindow` that make a crash loop.
   * @defaultValue `3`
   */
  crashLoopRestarts?: pulumi.Input<number>;
  /**
   * Seconds within which `crashLoopRestarts` exits make a crash loop.
   * @defaultValue `300`
   */
  crashLoopWindow?: pulumi.Input<number>;
}

/** A pod's `timeouts`, in seconds (1 to 86400). */
export interface PodTimeoutsArgs {
  /**
   * Wait for the pod after it was created.
   * @defaultValue `600`
   */
  create?: pulumi.Input<number>;
  /**
   * Wait after a change that restarts the container.
   * @defaultValue `600`
   */
  update?: pulumi.Input<number>;
  /**
   * Wait until a deleted pod is gone.
   * @defaultValue `300`
   */
  delete?: pulumi.Input<number>;
}
