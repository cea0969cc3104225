/**
 * `Pod`: a GPU or CPU pod managed by `pulumi up` (type `pulumi-nodejs:dynamic/runpod:Pod`).
 *
 * Inputs are the contract's CreatePodRequest fields, unchanged, plus `locked` and the provider's
 * own options (placement, waiting, timeouts, what happens to a pod whose create fails, adoption).
 * Outputs are every field of the contract's Pod response, JSON-clean, plus the input fields the
 * next diff compares.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { type PlacementCandidate, placementSource } from "../candidates.js";
import type { CheckFailure } from "../check-failure.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import { MAX_REQUEST_BYTES } from "../client/schemas/common.js";
import {
  type Pod as ApiPod,
  type CreatePodRequest as CreateBody,
  CreatePodRequest,
  type UpdatePodRequest,
} from "../client/schemas/pods.js";
import type { Cloud, PodStatus, Region } from "../client/vocabulary.js";
import { type ContainerFailure, ContainerWatch, failFastOptions } from "../container-watch.js";
import { api, configureRuntime, now, podReads, settings, watcher } from "../context.js";
import { listPatiently, waitWallClock } from "../create-once.js";
import {
  catalogCandidates,
  describeCandidate,
  findUnacknowledged,
  type PlacementAttempt,
  placePod,
  placePodRetrying,
  wasAmbiguous,
} from "../placement.js";
import { elapsed, progress } from "../progress.js";
import { describeReadiness, portsMapped, probeUntilReady, publicTcp, type Readiness } from "../readiness.js";
import { thinProvider } from "../thin.js";
import { containsUnknown, isUnknown } from "../unknown.js";
import { commandFailure, largestField, schemaFailures } from "../validation.js";
import { WaitFailure, type WaitTarget } from "../watcher.js";
import {
  byName,
  commandChanged,
  differs,
  diffResult,
  named,
  optionInputs,
  withoutInternal,
} from "./common.js";
import { desiredStatusOf, podOutputs } from "./pod-outputs.js";
import { PodArgsSchema } from "./pod-schema.js";

// ---------------------------------------------------------------- inputs

/**
 * Checked inputs of a Pod: `PodArgs` resolved to plain values, as `check` accepts them and the
 * provider sees them.
 */
export interface PodInputs {
  name: string;
  image?: string | undefined;
  args?: string | undefined;
  cmd?: string[] | undefined;
  entrypoint?: string[] | undefined;
  disk?: number | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  registry?: string | null | undefined;
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
        countryCodes?: string[] | undefined;
        anyDataCenter?: boolean | undefined;
        retryFor?: number | undefined;
      }
    | undefined;
  waitFor?: "RUNNING" | "PLACED" | "NONE" | undefined;
  readiness?:
    | {
        check: "RUNNING" | "PORTS" | "HTTP" | "TCP";
        port?: number | undefined;
        path?: string | undefined;
        timeout?: number | undefined;
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
export interface PodArgs {
  /** Pod name (not unique). */
  name: pulumi.Input<string>;
  /** Container image. Required unless `templateId` is set. */
  image?: pulumi.Input<string>;
  /** The container command as one raw string (a shell string or a JSON `{entrypoint, cmd}` string). */
  args?: pulumi.Input<string>;
  /** CMD in exec form, encoded into `args`. */
  cmd?: pulumi.Input<pulumi.Input<string>[]>;
  /** ENTRYPOINT in exec form, encoded into `args`. */
  entrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /** Container disk in GB (ephemeral). */
  disk?: pulumi.Input<number>;
  /** Environment variables. Always stored as secrets in state. */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** `<port>/<protocol>`, e.g. `8888/http`, `22/tcp`. */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /** Container registry credential id, for private images. */
  registry?: pulumi.Input<string | null>;
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
   * once the pod is RUNNING, within `timeouts.create`. Probes go to the pod, not the API: they cost
   * no API quota. A change to `readiness` alone is not a diff.
   */
  readiness?: pulumi.Input<{
    check: pulumi.Input<"RUNNING" | "PORTS" | "HTTP" | "TCP">;
    port?: pulumi.Input<number>;
    path?: pulumi.Input<string>;
    timeout?: pulumi.Input<number>;
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
  vcpuCount: number;
  memory: number;
  allowedCudaVersions: string[] | null;
  minCudaVersion: string | null;
  minRamPerGpu: number | null;
  minVcpuCountPerGpu: number | null;
}

export interface PodOutputs {
  name: string;
  status: PodStatus;
  actions: string[];
  image: string;
  args: string;
  cmd: string[];
  entrypoint: string[];
  disk: number;
  /** Declared keys only: keys the service injects (PUBLIC_KEY, JUPYTER_PASSWORD) or a template adds are not drift. */
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  mounts: {
    persistent?: { size: number; path: string };
    network?: { volumeId: string; path: string }[];
    global?: { volumeId: string; path?: string }[];
  };
  gpu: PodGpuOutput | null;
  cpu: { id: string; vcpuCount: number; memory: number } | null;
  cloud: "SECURE" | "COMMUNITY";
  dataCenterId: string | null;
  dataCenterIds: string[] | null;
  cudaVersion: string | null;
  ssh: { proxy: SshEndpoint | null; direct: SshEndpoint | null };
  cluster: { id: string; rank: number | null; role: string | null; ip: string | null } | null;
  template: string | null;
  templateId: string | null;
  cost: number;
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

interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  command: string;
}

export const POD_TYPE = "pulumi-nodejs:dynamic/runpod:Pod";

// ---------------------------------------------------------------- the resource

/**
 * A RunPod GPU or CPU pod. Create walks the placement candidates and waits until the pod is
 * RUNNING; a pod that fails after the API accepted it is terminated (or kept, and recorded in
 * state) and the error names its id.
 *
 * @example
 * const pod = new Pod("trainer", {
 *   name: "trainer",
 *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
 *   gpu: { id: "NVIDIA A40" },
 *   ports: ["22/tcp", "8888/http"],
 *   startSsh: true,
 *   placement: { regions: ["EUROPE", "NORTH_AMERICA"], gpuTypeIds: ["NVIDIA L40S"] },
 * });
 * export const ssh = pod.ssh;
 */
export class Pod extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly status: pulumi.Output<PodStatus>;
  declare readonly actions: pulumi.Output<string[]>;
  declare readonly image: pulumi.Output<string>;
  declare readonly args: pulumi.Output<string>;
  declare readonly cmd: pulumi.Output<string[]>;
  declare readonly entrypoint: pulumi.Output<string[]>;
  declare readonly disk: pulumi.Output<number>;
  declare readonly env: pulumi.Output<Record<string, string>>;
  declare readonly ports: pulumi.Output<string[]>;
  declare readonly registry: pulumi.Output<string | null>;
  declare readonly mounts: pulumi.Output<PodOutputs["mounts"]>;
  declare readonly gpu: pulumi.Output<PodGpuOutput | null>;
  declare readonly cpu: pulumi.Output<PodOutputs["cpu"]>;
  declare readonly cloud: pulumi.Output<"SECURE" | "COMMUNITY">;
  declare readonly dataCenterId: pulumi.Output<string | null>;
  declare readonly cudaVersion: pulumi.Output<string | null>;
  declare readonly ssh: pulumi.Output<PodOutputs["ssh"]>;
  declare readonly cluster: pulumi.Output<PodOutputs["cluster"]>;
  declare readonly template: pulumi.Output<string | null>;
  declare readonly cost: pulumi.Output<number>;
  declare readonly locked: pulumi.Output<boolean>;
  declare readonly desiredStatus: pulumi.Output<"RUNNING" | "STOPPED">;
  declare readonly globalNetworking: pulumi.Output<PodOutputs["globalNetworking"]>;
  declare readonly runtime: pulumi.Output<Record<string, unknown> | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly startedAt: pulumi.Output<string | null>;
  declare readonly jupyterPassword: pulumi.Output<string | null>;

  constructor(name: string, args: PodArgs, opts: pulumi.CustomResourceOptions = {}) {
    const outputs = Object.fromEntries(POD_OUTPUT_KEYS.map((k) => [k, undefined]));
    const parentUrn: pulumi.Input<string> = opts.parent?.urn ?? "";
    super(
      thinProvider("Pod"),
      name,
      {
        ...outputs,
        ...args,
        ...optionInputs(opts),
        __createKey: pulumi.output(parentUrn).apply((parent) => createKeyOf(name, parent)),
      },
      {
        ...opts,
        additionalSecretOutputs: [
          ...new Set([...(opts.additionalSecretOutputs ?? []), "env", "jupyterPassword"]),
        ],
      },
      "runpod",
      "Pod",
    );
  }
}

const POD_OUTPUT_KEYS = [
  // Inputs a program may leave out (a template or the API fills them) and still read.
  "image",
  "args",
  "disk",
  "env",
  "ports",
  "registry",
  "mounts",
  "gpu",
  "cpu",
  "cloud",
  "dataCenterIds",
  "templateId",
  "locked",
  "globalNetworking",
  "status",
  "actions",
  "cmd",
  "entrypoint",
  "dataCenterId",
  "cudaVersion",
  "ssh",
  "cluster",
  "template",
  "cost",
  "desiredStatus",
  "runtime",
  "createdAt",
  "startedAt",
  "jupyterPassword",
] as const;

// ---------------------------------------------------------------- create keys

/**
 * Every pod this provider creates carries its resource's create key in this environment variable:
 * 32 hex digits, a hash that means nothing outside this provider. It is how an unanswered create
 * (a reset, a timeout, a provider process killed while the pod was starting) is told apart from
 * every other pod of the account, in this run and in the next one.
 */
export const CREATE_KEY_ENV = "RUNPOD_DYNAMIC_CREATE_KEY";
const CREATE_KEY = /^[0-9a-f]{32}$/;

function keyHash(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);
}

/**
 * Program side: the key of a resource's first create, from where the resource lives (organization,
 * project, stack, parent, name). Two stacks with a pod of the same name get different keys; the
 * same resource gets the same key in the run after an interrupted one.
 */
function createKeyOf(name: string, parentUrn: string): string {
  let organization = "";
  try {
    organization = pulumi.getOrganization();
  } catch {
    // Engines older than organizations, and test engines, do not pass one.
  }
  return keyHash("runpod-dynamic:Pod", organization, pulumi.getProject(), pulumi.getStack(), parentUrn, name);
}

function createKeyIn(props: unknown): string | undefined {
  const key = (props as { __createKey?: unknown } | undefined)?.__createKey;
  return typeof key === "string" && CREATE_KEY.test(key) ? key : undefined;
}

// ---------------------------------------------------------------- check

/** The contract's cross-field rules and limits, skipping what preview cannot know yet. */
export function podRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string, ...rules: string[]) =>
    failures.push(rules.length > 0 ? { property, reason, rules } : { property, reason });
  const known = (v: unknown) => !isUnknown(v);
  const gpu = inputs.gpu as Record<string, unknown> | undefined;
  const cpu = inputs.cpu as Record<string, unknown> | undefined;
  const mounts = inputs.mounts as Record<string, unknown> | undefined;

  if (gpu === undefined && cpu === undefined)
    fail("gpu", "exactly one of gpu or cpu must be set (neither is)", "pod-gpu-or-cpu");
  if (gpu !== undefined && cpu !== undefined)
    fail("cpu", "exactly one of gpu or cpu must be set (both are)", "pod-gpu-or-cpu");
  if (inputs.image === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
    fail("image", "is required unless templateId is set");
  }
  if (gpu && known(gpu)) {
    const allowed = gpu.allowedCudaVersions;
    if (
      Array.isArray(allowed) &&
      allowed.length > 0 &&
      gpu.minCudaVersion !== undefined &&
      known(gpu.minCudaVersion)
    ) {
      fail(
        "gpu.minCudaVersion",
        "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
        "pod-cuda-constraint-conflict",
      );
    }
  }
  if (cpu && known(cpu) && typeof cpu.vcpuCount === "number") {
    const n = cpu.vcpuCount;
    if (Number.isInteger(n) && n >= 2 && (n & (n - 1)) !== 0) {
      fail("cpu.vcpuCount", `must be a power of two (2, 4, 8, ...); got ${n}`, "pod-cpu-vcpu-count");
    }
  }
  if (mounts && known(mounts)) {
    const persistent = mounts.persistent;
    const network = mounts.network;
    const global = mounts.global;
    const nonEmpty = (v: unknown) => isUnknown(v) || (Array.isArray(v) && v.length > 0);
    if (persistent !== undefined && (nonEmpty(network) || nonEmpty(global))) {
      fail(
        "mounts.persistent",
        "cannot be combined with mounts.network or mounts.global; use a network volume alone",
        ...(nonEmpty(network) ? ["pod-persistent-with-network"] : []),
        ...(nonEmpty(global) ? ["pod-persistent-with-global"] : []),
      );
    }
    if (persistent !== undefined && cpu !== undefined) {
      fail(
        "mounts.persistent",
        "is not supported on CPU pods; mount a network volume instead",
        "pod-persistent-on-cpu",
      );
    }
  }
  if (inputs.desiredStatus === "STOPPED" && inputs.locked === true) {
    fail("desiredStatus", "cannot be STOPPED while locked is true: the API refuses to stop a locked pod");
  }
  const command = commandFailure(inputs);
  if (command) fail("args", command);
  const placement = inputs.placement as Record<string, unknown> | undefined;
  if (placement && known(placement)) {
    if (
      placement.candidates !== undefined &&
      (placement.regions !== undefined || placement.gpuTypeIds !== undefined)
    ) {
      fail(
        "placement",
        "give either explicit candidates, or regions/gpuTypeIds to build them from the catalog, not both",
      );
    }
    if (cpu !== undefined && placement.gpuTypeIds !== undefined)
      fail("placement.gpuTypeIds", "is for GPU pods; a CPU pod has no GPU type");
    if (
      cpu !== undefined &&
      Array.isArray(placement.candidates) &&
      placement.candidates.some((c) => (c as { gpuTypeId?: unknown })?.gpuTypeId !== undefined)
    ) {
      fail("placement.candidates", "a CPU pod's candidates name data centers only");
    }
    if (placement.anyDataCenter === true && mounts && known(mounts) && mounts.network !== undefined) {
      fail(
        "placement.anyDataCenter",
        "cannot be used with mounts.network: a network volume pins the pod to the volume's data center",
      );
    }
  }
  checkReadiness(inputs, fail);
  if (!containsUnknown(inputs)) {
    // Sized with the create key the provider adds to env.
    const bytes = Buffer.byteLength(
      JSON.stringify(createBody(inputs as unknown as PodInputs, "0".repeat(32))),
    );
    if (bytes > MAX_REQUEST_BYTES) {
      fail(
        largestField(inputs),
        `the create request would be ${bytes} bytes, over the API's ${MAX_REQUEST_BYTES}-byte limit; reduce env, args or other large values`,
        "pod-request-size",
      );
    }
  }
  return failures;
}

/** readiness: the port it checks is exposed with the right type, and it fits the create timeout. */
function checkReadiness(
  inputs: Record<string, unknown>,
  fail: (property: string, reason: string) => void,
): void {
  const known = (v: unknown) => !isUnknown(v);
  const r = inputs.readiness as Record<string, unknown> | undefined;
  if (!r || !known(r)) return;
  const { check, port } = r;
  if (inputs.waitFor !== undefined && inputs.waitFor !== "RUNNING" && check !== "RUNNING") {
    fail(
      "readiness",
      `needs waitFor "RUNNING" (it checks the pod once it runs); waitFor is ${String(inputs.waitFor)}`,
    );
  }
  const ports = inputs.ports;
  const exposed = (type: string) =>
    !Array.isArray(ports) ||
    isUnknown(ports) ||
    ports.some((p) => isUnknown(p) || p === `${String(port)}/${type}`);
  if (check === "HTTP" || check === "TCP") {
    const type = check === "HTTP" ? "http" : "tcp";
    if (port === undefined)
      fail("readiness.port", `is required for check ${check} (e.g. ${check === "HTTP" ? 8888 : 22})`);
    else if (known(port) && !exposed(type))
      fail("readiness.port", `${String(port)}/${type} must be in ports for check ${check}`);
  } else if (port !== undefined) {
    fail("readiness.port", `is only for checks HTTP and TCP, not ${String(check)}`);
  }
  if (r.path !== undefined && check !== "HTTP") fail("readiness.path", "is only for check HTTP");
  if (
    check === "PORTS" &&
    Array.isArray(ports) &&
    known(ports) &&
    !ports.some((p) => String(p).endsWith("/tcp"))
  ) {
    fail("readiness.check", "PORTS waits for public <port>/tcp addresses, but ports exposes none");
  }
  const create = (inputs.timeouts as { create?: unknown } | undefined)?.create ?? DEFAULT_TIMEOUTS.create;
  if (typeof r.timeout === "number" && typeof create === "number" && r.timeout > create) {
    fail("readiness.timeout", `(${r.timeout} s) must fit within timeouts.create (${create} s)`);
  }
}

/** Every check failure for a Pod's inputs: the strict schema, then the cross-field rules. */
export function checkPod(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(PodArgsSchema, inputs), ...podRuleFailures(inputs)];
}

// ---------------------------------------------------------------- diff

export interface PodDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
  readonly deleteBeforeReplace: boolean;
}

const GPU_CONSTRAINTS = [
  "allowedCudaVersions",
  "minCudaVersion",
  "minRamPerGpu",
  "minVcpuCountPerGpu",
] as const;
const MOUNT_KINDS = ["persistent", "network", "global"] as const;

/**
 * The replace/update table (pure, offline). Replace: what the API cannot PATCH. Update in place:
 * what PATCH accepts. Volatile outputs (status, runtime, cost, ssh, ...) are never compared; an
 * input left out means "no opinion"; an unknown value (preview) counts as a change.
 */
export function diffPod(olds: Partial<PodOutputs>, news: PodInputs): PodDiff {
  const replaces: string[] = [];
  const updates: string[] = [];

  // ---- replace: fixed at create
  const oldGpu = olds.gpu ?? null;
  if ((news.gpu === undefined) !== (oldGpu === null)) replaces.push(news.gpu ? "gpu" : "cpu");
  else if (news.gpu && oldGpu) {
    if (isUnknown(news.gpu)) replaces.push("gpu");
    else {
      // Compared with the GPU type the program asked for, not the one placement ended on: a
      // fallback candidate is not a change.
      const requested = olds.requestedGpuId ?? oldGpu.id;
      if (containsUnknown(news.gpu.id) || news.gpu.id !== requested) replaces.push("gpu.id");
      if (differs(news.gpu.count ?? 1, oldGpu.count)) replaces.push("gpu.count");
      for (const c of GPU_CONSTRAINTS) if (differs(news.gpu[c], oldGpu[c])) replaces.push(`gpu.${c}`);
    }
  }
  if (
    news.cpu &&
    olds.cpu &&
    differs(
      { id: news.cpu.id, vcpuCount: news.cpu.vcpuCount },
      { id: olds.cpu.id, vcpuCount: olds.cpu.vcpuCount },
    )
  ) {
    replaces.push("cpu");
  }
  if (differs(news.cloud ?? "SECURE", olds.cloud ?? "SECURE")) replaces.push("cloud");
  if (differs(news.templateId ?? null, olds.templateId ?? null)) replaces.push("templateId");
  if (differs(news.startSsh ?? false, olds.startSsh ?? false)) replaces.push("startSsh");
  if (differs(news.startJupyter ?? false, olds.startJupyter ?? false)) replaces.push("startJupyter");
  const dcs = news.dataCenterIds;
  if (
    dcs !== undefined &&
    (containsUnknown(dcs) || (dcs.length > 0 && olds.dataCenterId && !dcs.includes(olds.dataCenterId)))
  ) {
    replaces.push("dataCenterIds");
  }
  // ---- mounts: the kind and volume are fixed at create, a path changes in place
  const newMounts = news.mounts ?? {};
  const oldMounts = olds.mounts ?? {};
  if (isUnknown(newMounts)) replaces.push("mounts");
  else {
    // A template's persistent mount is the template's, not the program's: no opinion about it.
    const ignorePersistent = news.templateId !== undefined && newMounts.persistent === undefined;
    const has = (m: PodOutputs["mounts"] | PodInputs["mounts"], kind: (typeof MOUNT_KINDS)[number]) => {
      const v = m?.[kind];
      return Array.isArray(v) ? v.length > 0 : v !== undefined;
    };
    for (const kind of MOUNT_KINDS) {
      if (kind === "persistent" && ignorePersistent) continue;
      if (has(newMounts, kind) !== has(oldMounts, kind)) replaces.push(`mounts.${kind}`);
    }
    if (newMounts.persistent && oldMounts.persistent) {
      if (differs(newMounts.persistent.size, oldMounts.persistent.size))
        replaces.push("mounts.persistent.size");
      if (differs(newMounts.persistent.path, oldMounts.persistent.path))
        updates.push("mounts.persistent.path");
    }
    for (const kind of ["network", "global"] as const) {
      const n = newMounts[kind] ?? [];
      const o = oldMounts[kind] ?? [];
      n.forEach((entry, i) => {
        const old = o[i];
        if (!old) return;
        if (differs(entry.volumeId, old.volumeId)) replaces.push(`mounts.${kind}[${i}].volumeId`);
        if (entry.path !== undefined && differs(entry.path, old.path))
          updates.push(`mounts.${kind}[${i}].path`);
      });
    }
  }

  // ---- update in place: PATCH takes these
  if (differs(news.name, olds.name)) updates.push("name");
  if (news.image !== undefined && differs(news.image, olds.image)) updates.push("image");
  if (commandChanged(news, olds.args)) updates.push("args");
  if (news.disk !== undefined && differs(news.disk, olds.disk)) updates.push("disk");
  if (differs(news.env ?? {}, olds.env ?? {})) updates.push("env");
  if (news.ports !== undefined && differs(news.ports, olds.ports)) updates.push("ports");
  if (news.registry !== undefined && differs(news.registry, olds.registry)) updates.push("registry");
  if (differs(news.locked ?? false, olds.locked ?? false)) updates.push("locked");
  if (
    differs(
      news.desiredStatus ?? "RUNNING",
      olds.desiredStatus ?? desiredStatusOf(olds.status, news.desiredStatus),
    )
  )
    updates.push("desiredStatus");
  if (
    differs(
      news.globalNetworking ?? false,
      olds.requestedGlobalNetworking ?? olds.globalNetworking?.enabled ?? false,
    )
  ) {
    updates.push("globalNetworking");
  }

  return { changes: replaces.length + updates.length > 0, replaces, updates, deleteBeforeReplace: false };
}

// ---------------------------------------------------------------- API bodies and outputs

/**
 * The CreatePodRequest for these inputs: the contract's fields only, unchanged, plus the create
 * key in env when there is one.
 */
function createBody(inputs: PodInputs, createKey?: string): CreateBody {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(CreatePodRequest.shape)) {
    const v = (inputs as unknown as Record<string, unknown>)[key];
    if (v !== undefined) body[key] = v;
  }
  if (createKey !== undefined) body.env = { ...inputs.env, [CREATE_KEY_ENV]: createKey };
  return body as CreateBody;
}

/** The PATCH body taking a pod from `olds` to `news`: only what changed, never an empty mount array. */
function updateBody(
  olds: Partial<PodOutputs>,
  news: PodInputs,
  currentEnv: Record<string, string>,
): UpdatePodRequest {
  const d = diffPod(olds, news);
  const body: Record<string, unknown> = {};
  const has = (p: string) => d.updates.includes(p);
  if (has("name")) body.name = news.name;
  if (has("image")) body.image = news.image;
  if (has("args")) {
    if (news.args !== undefined) body.args = news.args;
    if (news.cmd !== undefined) body.cmd = news.cmd;
    if (news.entrypoint !== undefined) body.entrypoint = news.entrypoint;
  }
  if (has("disk")) body.disk = news.disk;
  if (has("env")) {
    // PATCH replaces the whole env: keep what the service injected or a template added, drop only
    // the keys the program stopped declaring.
    const dropped = Object.keys(olds.env ?? {}).filter((k) => !(k in (news.env ?? {})));
    const kept = Object.fromEntries(Object.entries(currentEnv).filter(([k]) => !dropped.includes(k)));
    body.env = { ...kept, ...(news.env ?? {}) };
  }
  if (has("ports")) body.ports = news.ports;
  if (has("registry")) body.registry = news.registry;
  if (has("locked")) body.locked = news.locked ?? false;
  if (has("globalNetworking")) body.globalNetworking = news.globalNetworking ?? false;
  if (d.updates.some((u) => u.startsWith("mounts."))) {
    // Full entries for every kind the pod has (contract: Mounts, rule 3).
    const mounts: Record<string, unknown> = {};
    const old = olds.mounts ?? {};
    const next = news.mounts ?? {};
    if (old.persistent && next.persistent)
      mounts.persistent = { size: old.persistent.size, path: next.persistent.path };
    for (const kind of ["network", "global"] as const) {
      const entries = old[kind];
      if (!entries?.length) continue;
      mounts[kind] = entries.map((e, i) => ({ volumeId: e.volumeId, path: next[kind]?.[i]?.path ?? e.path }));
    }
    body.mounts = mounts;
  }
  return body as UpdatePodRequest;
}

/** The inputs that would produce `outputs`: what refresh hands back so the next diff starts from the truth. */
function inputsFromOutputs(o: PodOutputs, prior: Partial<PodInputs>): PodInputs {
  const gpu = o.gpu
    ? {
        id: prior.gpu?.id ?? o.gpu.id,
        ...(o.gpu.count !== 1 || prior.gpu?.count !== undefined ? { count: o.gpu.count } : {}),
        ...Object.fromEntries(GPU_CONSTRAINTS.filter((c) => o.gpu?.[c] !== null).map((c) => [c, o.gpu?.[c]])),
      }
    : undefined;
  const inputs: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(prior).filter(([k]) =>
        ["placement", "waitFor", "readiness", "failFast", "timeouts", "onCreateFailure", "adoptId"].includes(
          k,
        ),
      ),
    ),
    name: o.name,
    image: o.image,
    ...(prior.args !== undefined ? { args: o.args } : {}),
    ...(prior.cmd !== undefined ? { cmd: o.cmd } : {}),
    ...(prior.entrypoint !== undefined ? { entrypoint: o.entrypoint } : {}),
    disk: o.disk,
    ...(Object.keys(o.env).length > 0 || prior.env ? { env: o.env } : {}),
    ports: o.ports,
    ...(prior.registry !== undefined || o.registry !== null ? { registry: o.registry } : {}),
    ...(gpu ? { gpu } : {}),
    ...(o.cpu ? { cpu: { id: o.cpu.id, vcpuCount: o.cpu.vcpuCount } } : {}),
    ...(prior.cloud !== undefined || o.cloud !== "SECURE" ? { cloud: o.cloud } : {}),
    ...(o.dataCenterIds ? { dataCenterIds: o.dataCenterIds } : {}),
    ...(Object.keys(o.mounts).length > 0 ? { mounts: o.mounts } : {}),
    ...(o.templateId ? { templateId: o.templateId } : {}),
    ...(o.startSsh ? { startSsh: true } : {}),
    ...(o.startJupyter ? { startJupyter: true } : {}),
    ...(o.locked || prior.locked !== undefined ? { locked: o.locked } : {}),
    ...(o.desiredStatus === "STOPPED" || prior.desiredStatus !== undefined
      ? { desiredStatus: o.desiredStatus }
      : {}),
    ...(o.requestedGlobalNetworking || prior.globalNetworking !== undefined
      ? { globalNetworking: o.requestedGlobalNetworking }
      : {}),
  };
  return inputs as unknown as PodInputs;
}

// ---------------------------------------------------------------- the provider

const DEFAULT_TIMEOUTS = { create: 600, update: 600, delete: 300 };

function timeoutsOf(t: PodInputs["timeouts"] | null | undefined) {
  return {
    create: t?.create ?? DEFAULT_TIMEOUTS.create,
    update: t?.update ?? DEFAULT_TIMEOUTS.update,
    delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
  };
}

/**
 * Pods known to belong to a resource in state: the ones this process created or adopted, and every
 * pod id the engine showed it (diff, read, update). A create takes over only a pod with its create
 * key that is none of these. The engine checks a replacement again without its old inputs, so the
 * replacement carries the same key as the pod it replaces; the diff that decided the replacement
 * has put that pod here first.
 */
const claimed = new Set<string>();

/** A failure after the API accepted the pod: the host records it in state as partially created. */
function partialFailure(id: string, properties: object, message: string): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}

const label = byName("Pod") as (
  props: Partial<PodInputs> | Partial<PodOutputs> | undefined,
  id?: string,
) => string;

/** Waits through the shared watcher, printing each status transition with the time elapsed. */
async function waitForPod(
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  target: WaitTarget,
  timeoutSeconds: number,
  extra: { signal?: AbortSignal; onRead?: (pod: ApiPod) => void; kind?: string } = {},
): Promise<ApiPod | undefined> {
  const started = now();
  let previous: PodStatus = pod.status;
  return watcher().waitFor({
    podId: pod.id,
    target,
    timeoutMs: timeoutSeconds * 1000,
    ...(extra.signal ? { signal: extra.signal } : {}),
    ...(extra.onRead ? { onRead: extra.onRead } : {}),
    ...(extra.kind !== undefined ? { kind: extra.kind } : {}),
    onStatus: (status) => {
      if (status === previous) return;
      progress(label(inputs), `${pod.id} ${previous} -> ${status} (${elapsed(now() - started)})`);
      previous = status;
    },
  });
}

/**
 * Waits for `target`, then for the pod's readiness check (readiness.ts), all within
 * `timeoutSeconds`; fails within seconds when the pod's log says its container will never start
 * (container-watch.ts). Failures are WaitFailures that carry the pod as last read.
 */
async function waitUntilReady(
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  target: WaitTarget,
  timeoutSeconds: number,
  justCreated = false,
): Promise<ApiPod | undefined> {
  const deadline = now() + timeoutSeconds * 1000;
  const failed = new AbortController();
  const failFast = failFastOptions(inputs.failFast);
  const secrets = [settings().apiKey ?? "", ...Object.values(inputs.env ?? {})];
  const pulls = `${pod.image} ${pod.registry ?? ""} ${pod.disk}`;
  const containers = new ContainerWatch(pod.id, pulls, failFast, secrets, (f) => failed.abort(f));
  let latest = pod;
  const asWaitFailure = (err: unknown) => {
    if (!failed.signal.aborted) return err;
    const f = failed.signal.reason as ContainerFailure;
    return new WaitFailure(pod.id, "CONTAINER", latest.status, latest, f.message);
  };
  try {
    const reached = await waitForPod(pod, inputs, target, timeoutSeconds, {
      signal: failed.signal,
      onRead: (p) => containers.observe(p.status),
      // Pods of one image on one GPU type in one data center take about as long to start.
      ...(justCreated ? { kind: `${pod.image} ${pod.gpu?.id ?? "cpu"} ${pod.dataCenterId ?? ""}` } : {}),
    }).catch((err) => {
      throw asWaitFailure(err);
    });
    if (reached) latest = reached;
    const r = inputs.readiness;
    if (target !== "RUNNING" || !r || r.check === "RUNNING" || !reached) return reached;
    return await untilChecked(latest, inputs, r, deadline, failed.signal, containers, (p) => {
      latest = p;
    }).catch((err) => {
      throw asWaitFailure(err);
    });
  } finally {
    containers.close();
  }
}

/** The readiness check of a RUNNING pod: its ports mapped, or a probe passing, by its own timeout. */
async function untilChecked(
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  r: Readiness,
  deadline: number,
  failed: AbortSignal,
  containers: ContainerWatch,
  seen: (pod: ApiPod) => void,
): Promise<ApiPod> {
  const limitMs = Math.min(deadline - now(), (r.timeout ?? Number.POSITIVE_INFINITY) * 1000);
  const limit =
    r.timeout !== undefined && r.timeout * 1000 <= deadline - now()
      ? `readiness.timeout (${r.timeout} s)`
      : "the create or update timeout";
  progress(label(inputs), `${pod.id} RUNNING; waiting for ${describeReadiness(r)}`);
  const stop = new AbortController();
  const onFailed = () => stop.abort(failed.reason);
  failed.addEventListener("abort", onFailed, { once: true });
  let latest = pod;
  let probed = false;
  let lastAnswer = "no answer yet";
  try {
    const statusWait = watcher().waitFor({
      podId: pod.id,
      target: "RUNNING",
      timeoutMs: Math.max(0, limitMs),
      signal: stop.signal,
      // A probe decides success: once it has an address to go to, the API is read only for failures.
      relaxed: () =>
        r.check === "HTTP" || (r.check === "TCP" && publicTcp(latest, r.port ?? 0) !== undefined),
      onRead: (p) => containers.observe(p.status),
      until: (p) => {
        latest = p;
        seen(p);
        return r.check === "PORTS" ? portsMapped(p) : probed;
      },
    });
    // Settled either way below; this only keeps a rejection after the race from going unhandled.
    statusWait.catch(() => undefined);
    if (r.check === "PORTS" && portsMapped(pod)) return pod;
    if (r.check === "PORTS") return (await statusWait) ?? latest;
    const probing = probeUntilReady(
      { ...r, check: r.check === "HTTP" ? "HTTP" : "TCP" },
      pod.id,
      () => latest,
      (line, answer) => {
        lastAnswer = answer;
        if (line) progress(label(inputs), `${pod.id} ${line}`);
      },
      stop.signal,
    ).then(() => {
      probed = true;
      return latest;
    });
    return (await Promise.race([statusWait, probing])) ?? latest;
  } catch (err) {
    if (err instanceof WaitFailure && err.reason === "TIMEOUT") {
      const what =
        r.check === "PORTS" ? "public addresses for every <port>/tcp" : `last answer: ${lastAnswer}`;
      throw new WaitFailure(
        pod.id,
        "NOT_READY",
        latest.status,
        latest,
        `pod ${pod.id} is RUNNING but did not pass its readiness check ${describeReadiness(r)} (${what}) within ${limit}`,
      );
    }
    throw err;
  } finally {
    failed.removeEventListener("abort", onFailed);
    stop.abort();
  }
}

/** Whether a pod was created for the resource with this create key. */
const carries = (key: string, pod: ApiPod) => pod.env[CREATE_KEY_ENV] === key;

/** Stops a pod (`desiredStatus: "STOPPED"`) and waits until it is EXITED; it keeps its disk and volume. */
async function stopPod(pod: ApiPod, inputs: Partial<PodInputs>, timeoutSeconds: number): Promise<ApiPod> {
  try {
    await api().podAction(pod.id, "stop");
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
      throw new Error(`${label(inputs)}: pod ${pod.id} cannot be stopped now: ${err.detail ?? err.message}`);
    }
    throw err;
  }
  const stopped = (await waitForPod(pod, inputs, "STOPPED", timeoutSeconds)) ?? pod;
  progress(label(inputs), `${pod.id} stopped: its disk and volume are kept, its GPU no longer bills`);
  return stopped;
}

/**
 * Starts a stopped pod (`desiredStatus: "RUNNING"`). Starting needs a free GPU of the pod's type on
 * its machine: when there is none the API refuses (400) and the pod stays stopped, which the error
 * says, so that the next `pulumi up` simply tries again. Waiting for RUNNING is the caller's.
 */
async function resumePod(pod: ApiPod, inputs: Partial<PodInputs>): Promise<ApiPod> {
  try {
    const started = await api().podAction(pod.id, "start");
    progress(label(inputs), `${pod.id} starting`);
    return started ?? (await api().getPod(pod.id));
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.BAD_REQUEST, ERROR_CODES.CONFLICT)) {
      throw new Error(
        `${label(inputs)}: pod ${pod.id} could not be started: ${err.detail ?? err.message}. It stays stopped (${pod.status}); starting needs a free ${pod.gpu?.id ?? "machine"} where the pod lives, so run \`pulumi up\` again later, or replace the pod elsewhere.`,
      );
    }
    throw err;
  }
}

/** Deletes a pod and waits until it is gone; false when it was gone already (404). */
async function terminateAndWait(id: string, timeoutSeconds: number): Promise<boolean> {
  try {
    await api().deletePod(id);
  } catch (err) {
    if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
    return false;
  }
  await watcher().waitFor({ podId: id, target: "GONE", timeoutMs: timeoutSeconds * 1000 });
  return true;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * How an existing pod compares with the inputs: the replace-only properties it differs in, and its
 * outputs as if it had been created from them (what the PATCH that takes it over starts from).
 */
function compareWithInputs(pod: ApiPod, inputs: PodInputs, requestedGpuId: string | null) {
  // The pod does not show templateId, startSsh or startJupyter: the outputs take the inputs' values.
  const adopted = { ...podOutputs(pod, inputs), requestedGpuId };
  return { blocking: diffPod(adopted, inputs).replaces, adopted };
}

/**
 * The account's pods when this provider process first created one, per API client: whatever an
 * interrupted run left behind exists by then (its process is gone). One list serves every create.
 */
const podsAtStart = new WeakMap<object, Promise<ApiPod[]>>();

function listPodsOnce(): Promise<ApiPod[]> {
  const client = api();
  let listing = podsAtStart.get(client);
  if (!listing) {
    listing = listPatiently(() => client.listPods());
    podsAtStart.set(client, listing);
    // A failed list is asked again by the next create.
    listing.catch(() => podsAtStart.delete(client));
  }
  return listing;
}

/**
 * A pod carrying this resource's create key that no resource of this process owns was made by an
 * interrupted run of this resource (the provider process was killed, or the run was cancelled,
 * after the API accepted the create): the engine dropped that pending create, so this create takes
 * the pod over instead of making a second one. One that failed, or that differs in
 * something that cannot change in place, is terminated instead and a new pod is created.
 */
async function resumeInterrupted(
  inputs: PodInputs,
  key: string,
  deleteTimeout: number,
): Promise<ApiPod | undefined> {
  let pods: ApiPod[];
  try {
    pods = await listPodsOnce();
  } catch (err) {
    throw new Error(
      `could not check for a pod an interrupted run may have left (${messageOf(err)}); nothing was created. Run again.`,
    );
  }
  const left = pods
    .filter((p) => carries(key, p) && !claimed.has(p.id) && p.status !== "TERMINATED")
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  for (const orphan of left) {
    claimed.add(orphan.id);
    const gpus = [
      inputs.gpu?.id,
      ...(inputs.placement?.gpuTypeIds ?? []),
      ...(inputs.placement?.candidates ?? []).map((c) => c.gpuTypeId),
    ];
    // A fallback GPU type placement could have chosen is not a difference.
    const requested =
      orphan.gpu && gpus.includes(orphan.gpu.id) ? (inputs.gpu?.id ?? null) : (orphan.gpu?.id ?? null);
    const { blocking, adopted } = compareWithInputs(orphan, inputs, requested);
    const unusable =
      orphan.status === "ERROR" || orphan.status === "EXITED"
        ? `it is ${orphan.status}`
        : blocking.length > 0
          ? `it differs from the inputs in ${blocking.join(", ")}`
          : undefined;
    if (unusable) {
      progress(
        label(inputs),
        `pod ${orphan.id} was left by an interrupted run but ${unusable}; terminating it`,
      );
      await terminateAndWait(orphan.id, deleteTimeout);
      claimed.delete(orphan.id);
      continue;
    }
    progress(label(inputs), `taking over pod ${orphan.id} (${orphan.status}), created by an interrupted run`);
    const body = updateBody(adopted, inputs, orphan.env);
    return Object.keys(body).length > 0 ? await api().updatePod(orphan.id, body) : orphan;
  }
  return undefined;
}

/** Waits until every unanswered create of these attempts has landed or died (wall-clock time). */
async function untilSettled(attempts: readonly PlacementAttempt[]): Promise<void> {
  await waitWallClock(Math.max(0, ...attempts.map((a) => a.settlesAt ?? 0)) - Date.now());
}

/**
 * After a create that went unanswered at least once: a late request may have made a second pod
 * with this resource's create key. It is ours and nobody else's, so it is terminated. Looked for
 * once the unanswered requests have settled (usually long before the pod is RUNNING).
 */
async function terminateDuplicates(
  inputs: PodInputs,
  key: string,
  keep: string,
  attempts: readonly PlacementAttempt[],
  deleteTimeout: number,
) {
  await untilSettled(attempts);
  let pods: ApiPod[];
  try {
    pods = await api().listPods();
  } catch (err) {
    progress(
      label(inputs),
      `could not check for a duplicate made by an unanswered create (${messageOf(err)}); look for pods with ${CREATE_KEY_ENV}=${key} in their environment`,
    );
    return;
  }
  for (const dup of pods.filter((p) => carries(key, p) && p.id !== keep && !claimed.has(p.id))) {
    try {
      await terminateAndWait(dup.id, deleteTimeout);
      progress(label(inputs), `terminated pod ${dup.id}, a duplicate made by an unanswered create`);
    } catch (err) {
      progress(
        label(inputs),
        `pod ${dup.id}, a duplicate made by an unanswered create, could not be terminated (${messageOf(err)}); delete it in the RunPod console, it bills`,
      );
    }
  }
}

/** The pod a create starts from: one an interrupted run left, or a new one placed by the candidates. */
async function startPod(
  inputs: PodInputs,
  key: string | undefined,
  deleteTimeout: number,
): Promise<{ pod: ApiPod; unanswered: readonly PlacementAttempt[] }> {
  if (key !== undefined) {
    const resumed = await resumeInterrupted(inputs, key, deleteTimeout);
    if (resumed) return { pod: resumed, unanswered: [] };
  }
  const body = createBody(inputs, key);
  const ctx = {
    api: api(),
    claimed,
    onAttempt: (a: PlacementAttempt) =>
      progress(
        label(inputs),
        `${describeCandidate(a.candidate)} answered ${a.status}: ${a.detail}; trying the next candidate`,
      ),
    onFound: (a: PlacementAttempt, found: ApiPod) =>
      progress(
        label(inputs),
        `the create in ${describeCandidate(a.candidate)} went unanswered (${a.status}); found the pod it made, ${found.id}`,
      ),
    ...(key === undefined ? {} : { isOwnPod: (p: ApiPod) => carries(key, p) }),
  };
  const candidates = await buildCandidates(inputs);
  const retryFor = inputs.placement?.retryFor ?? 0;
  try {
    const { pod, attempts, candidate } =
      retryFor > 0
        ? await placePodRetrying(ctx, body, candidates, retryFor * 1000, (round, waitMs, leftMs) =>
            progress(
              label(inputs),
              `every candidate is out of capacity (round ${round}); walking the list again in ${elapsed(waitMs)} (placement.retryFor: ${elapsed(leftMs)} left)`,
            ),
          )
        : await placePod(ctx, body, candidates);
    const where = describeCandidate({
      dataCenterId: pod.dataCenterId ?? candidate.dataCenterId,
      gpuTypeId: pod.gpu?.id,
    });
    progress(
      label(inputs),
      `created ${pod.id} in ${where}${attempts.length > 0 ? ` after ${attempts.length} rejected attempt(s)` : ""}`,
    );
    return { pod, unanswered: attempts.filter(wasAmbiguous) };
  } catch (err) {
    // An unanswered create may land after every later attempt failed: one last look for it, once
    // it has settled.
    const unanswered = ((err as { tried?: readonly PlacementAttempt[] }).tried ?? []).filter(wasAmbiguous);
    if (key !== undefined && unanswered.length > 0) {
      await untilSettled(unanswered);
      const found = await findUnacknowledged(ctx, body, now()).catch(() => undefined);
      if (found) {
        claimed.add(found.id);
        progress(label(inputs), `found ${found.id}, made by a create that went unanswered`);
        return { pod: found, unanswered: [] };
      }
    }
    throw err;
  }
}

/** The candidates to walk, then the unpinned one when `placement.anyDataCenter` asks for it. */
async function buildCandidates(inputs: PodInputs): Promise<PlacementCandidate[]> {
  const list = await pinnedCandidates(inputs);
  if (inputs.placement?.anyDataCenter !== true || list.some((c) => c.dataCenterId === undefined)) return list;
  return [...list, inputs.gpu ? { gpuTypeId: inputs.gpu.id } : {}];
}

async function pinnedCandidates(inputs: PodInputs): Promise<PlacementCandidate[]> {
  const p = inputs.placement;
  // A network volume pins the pod to the volume's data center (contract: Mounts).
  const volumeId = inputs.mounts?.network?.[0]?.volumeId;
  const volumeDc = volumeId ? (await api().getNetworkVolume(volumeId)).dataCenter : undefined;
  const allowDc = (dc: string | undefined) => volumeDc === undefined || dc === undefined || dc === volumeDc;

  const source = placementSource(p);
  if (source === "candidates" && p?.candidates) {
    const list = p.candidates
      .filter((c) => allowDc(c.dataCenterId))
      .map((c) => ({
        dataCenterId: c.dataCenterId,
        gpuTypeId: inputs.gpu ? (c.gpuTypeId ?? inputs.gpu.id) : undefined,
      }));
    if (list.length === 0) {
      throw new Error(
        `${label(inputs)}: no placement candidate is in ${volumeDc}, where network volume ${volumeId} lives.`,
      );
    }
    return list;
  }
  if (source === "catalog" && p) {
    const list = await catalogCandidates(api(), {
      ...(inputs.gpu ? { gpuTypeIds: [inputs.gpu.id, ...(p.gpuTypeIds ?? [])] } : {}),
      ...(inputs.cpu ? { cpuFlavorId: inputs.cpu.id } : {}),
      ...(p.regions ? { regions: p.regions } : {}),
      ...(p.minAvailability ? { minAvailability: p.minAvailability } : {}),
      ...(p.maxCandidates ? { maxCandidates: p.maxCandidates } : {}),
      ...(volumeDc
        ? { dataCenterIds: [volumeDc] }
        : inputs.dataCenterIds?.length
          ? { dataCenterIds: inputs.dataCenterIds }
          : {}),
      ...(inputs.globalNetworking ? { globalNetworking: true } : {}),
      ...(inputs.gpu?.allowedCudaVersions?.length
        ? { allowedCudaVersions: inputs.gpu.allowedCudaVersions }
        : {}),
      ...(inputs.gpu?.minCudaVersion ? { minCudaVersion: inputs.gpu.minCudaVersion } : {}),
      ...(inputs.gpu?.count !== undefined && inputs.gpu.count > 1 ? { gpuCount: inputs.gpu.count } : {}),
      ...(p.countryCodes?.length ? { countryCodes: p.countryCodes } : {}),
    });
    if (list.length === 0 && p.anyDataCenter !== true) {
      throw new Error(
        `${label(inputs)}: the catalog lists no data center with ${inputs.gpu ? [inputs.gpu.id, ...(p.gpuTypeIds ?? [])].join(" or ") : inputs.cpu?.id} available${p.regions ? ` in ${p.regions.join(", ")}` : ""}${volumeDc ? ` in ${volumeDc}` : ""}. Widen placement.regions or placement.gpuTypeIds.`,
      );
    }
    return list;
  }
  if (volumeDc && !inputs.dataCenterIds?.length) return [{ dataCenterId: volumeDc }];
  return [{}];
}

export class PodProvider implements pulumi.dynamic.ResourceProvider<PodInputs, PodOutputs> {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: PodInputs, news: PodInputs): Promise<pulumi.dynamic.CheckResult<PodInputs>> {
    const failures = checkPod(news as unknown as Record<string, unknown>);
    return failures.length > 0 ? { inputs: news, failures } : { inputs: news };
  }

  async diff(id: string, olds: PodOutputs, news: PodInputs): Promise<pulumi.dynamic.DiffResult> {
    // The pod is in state: a replacement's create (which carries the same create key) must never
    // take it over as if an interrupted run had left it.
    if (id) claimed.add(id);
    return diffResult(diffPod(olds, news), news);
  }

  async create(inputs: PodInputs): Promise<pulumi.dynamic.CreateResult<PodOutputs>> {
    const timeouts = timeoutsOf(inputs.timeouts);
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);

    const key = createKeyIn(inputs);
    const { pod, unanswered } = await startPod(inputs, key, timeouts.delete);
    try {
      return await this.untilReady(pod, inputs, timeouts);
    } finally {
      if (unanswered.length > 0 && key !== undefined) {
        await terminateDuplicates(inputs, key, pod.id, unanswered, timeouts.delete);
      }
    }
  }

  /** Waits for a pod the API accepted; on failure terminates it (or keeps it in state), naming it. */
  private async untilReady(
    pod: ApiPod,
    inputs: PodInputs,
    timeouts: ReturnType<typeof timeoutsOf>,
  ): Promise<pulumi.dynamic.CreateResult<PodOutputs>> {
    // From here on the pod exists and bills: every failure names it, and it is either
    // terminated or recorded in state.
    let last: ApiPod = pod;
    try {
      const target = inputs.waitFor ?? "RUNNING";
      if (target !== "NONE")
        last = (await waitUntilReady(pod, inputs, target, timeouts.create, true)) ?? last;
      if (inputs.desiredStatus === "STOPPED") last = await stopPod(last, inputs, timeouts.create);
      if (inputs.locked) last = await api().updatePod(pod.id, { locked: true });
      return { id: pod.id, outs: podOutputs(last, inputs) };
    } catch (err) {
      if (err instanceof WaitFailure && err.lastPod) last = err.lastPod;
      const why =
        err instanceof WaitFailure && err.reason === "TIMEOUT"
          ? `pod ${pod.id} did not reach ${inputs.waitFor ?? "RUNNING"} within timeouts.create (${timeouts.create} s)`
          : err instanceof Error
            ? err.message
            : String(err);
      const status = last.status;
      if (inputs.onCreateFailure === "keep") {
        throw partialFailure(
          pod.id,
          podOutputs(last, inputs),
          `${label(inputs)}: pod ${pod.id} was created but did not become ready (${why}; last status ${status}). It was kept as you asked (onCreateFailure: "keep") and is recorded in state; it bills until you delete it.`,
        );
      }
      try {
        await terminateAndWait(pod.id, timeouts.delete);
      } catch (cleanup) {
        throw partialFailure(
          pod.id,
          podOutputs(last, inputs),
          `${label(inputs)}: pod ${pod.id} did not become ready (${why}; last status ${status}) and terminating it failed too (${cleanup instanceof Error ? cleanup.message : String(cleanup)}). It is recorded in state; run \`pulumi destroy\` or delete pod ${pod.id} in the RunPod console, as it may still bill.`,
        );
      }
      throw new Error(
        `${label(inputs)}: pod ${pod.id} did not become ready (${why}; last status ${status}). It was terminated so it does not bill; set onCreateFailure: "keep" to keep a failed pod for inspection.`,
      );
    }
  }

  /** `adoptId`: take over an existing pod instead of creating one, then apply what differs in place. */
  private async adopt(id: string, inputs: PodInputs): Promise<pulumi.dynamic.CreateResult<PodOutputs>> {
    let pod: ApiPod;
    try {
      pod = await api().getPod(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) {
        throw new Error(`${label(inputs)}: adoptId ${id}: no such pod (or this API key cannot see it).`);
      }
      throw err;
    }
    // What the pod really is: its own GPU type, not the one the inputs ask for.
    const { blocking, adopted } = compareWithInputs(pod, inputs, pod.gpu?.id ?? null);
    if (blocking.length > 0) {
      throw new Error(
        `${label(inputs)}: adoptId ${id} cannot be adopted: it differs from the inputs in ${blocking.join(", ")}, which cannot change in place.`,
      );
    }
    claimed.add(id);
    const body = updateBody(adopted, inputs, pod.env);
    if (Object.keys(body).length > 0) pod = await api().updatePod(id, body);
    progress(label(inputs), `adopted existing pod ${id}`);
    return { id, outs: podOutputs(pod, inputs) };
  }

  async read(id: string, props?: PodOutputs): Promise<pulumi.dynamic.ReadResult<PodOutputs>> {
    let pod: ApiPod;
    try {
      pod = await podReads().get(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return {};
      throw err;
    }
    if (pod.status === "TERMINATED") return {};
    claimed.add(id);
    const prior = (props ?? {}) as Partial<PodOutputs> & Partial<PodInputs>;
    // On refresh `props` are the old outputs; on get they are the program's inputs. Either way its
    // env keys are the declared ones; for a get without env, every key the service did not inject.
    const declaredEnv =
      prior.env && Object.keys(prior.env).length > 0
        ? prior.env
        : props && "status" in props
          ? {}
          : Object.fromEntries(
              Object.keys(pod.env)
                .filter((k) => k !== "PUBLIC_KEY" && k !== "JUPYTER_PASSWORD" && k !== CREATE_KEY_ENV)
                .map((k) => [k, ""]),
            );
    const priorInputs = {
      ...(prior as Record<string, unknown>),
      env: declaredEnv,
      ...(prior.gpu ? { gpu: { ...toGpuInput(prior.gpu), id: prior.requestedGpuId ?? prior.gpu.id } } : {}),
      ...(typeof prior.requestedGlobalNetworking === "boolean"
        ? { globalNetworking: prior.requestedGlobalNetworking }
        : {}),
      templateId: prior.templateId ?? undefined,
      dataCenterIds: prior.dataCenterIds ?? undefined,
      placement: prior.placement ?? undefined,
      timeouts: prior.timeouts ?? undefined,
    } as unknown as Partial<PodInputs>;
    const outs = podOutputs(pod, stripNulls(priorInputs));
    // The pod's own create key goes back into the inputs, as the program declares it.
    const key = pod.env[CREATE_KEY_ENV];
    const inputs = {
      ...inputsFromOutputs(outs, stripNulls(priorInputs)),
      ...(key !== undefined && CREATE_KEY.test(key) ? { __createKey: key } : {}),
    };
    // ReadResult types `inputs` as outputs; they are inputs.
    return { id, props: outs, inputs: inputs as unknown as PodOutputs };
  }

  async update(
    id: string,
    olds: PodOutputs,
    news: PodInputs,
  ): Promise<pulumi.dynamic.UpdateResult<PodOutputs>> {
    claimed.add(id);
    podReads().forget(id);
    const timeouts = timeoutsOf(news.timeouts);
    // PATCH replaces the whole env, so the pod's current env is read only when env changes; PATCH
    // answers with the pod.
    const current = diffPod(olds, news).updates.includes("env") ? await api().getPod(id) : undefined;
    const body = updateBody(olds, news, current?.env ?? {});
    let pod: ApiPod;
    if (Object.keys(body).length === 0) {
      pod = current ?? (await api().getPod(id));
    } else {
      try {
        pod = await api().updatePod(id, body);
      } catch (err) {
        if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
          throw new Error(`${label(news)}: pod ${id} cannot be changed: ${err.detail ?? err.message}`);
        }
        throw err;
      }
    }
    if (body.globalNetworking !== undefined) {
      progress(
        label(news),
        `${id}: the globalNetworking change takes effect at the pod's next start or restart`,
      );
    }
    const desired = news.desiredStatus ?? "RUNNING";
    if (desiredStatusOf(pod.status, desired) !== desired) {
      pod = desired === "STOPPED" ? await stopPod(pod, news, timeouts.update) : await resumePod(pod, news);
    }
    if (pod.status === "STARTING" || pod.status === "PROVISIONING") {
      try {
        pod = (await waitUntilReady(pod, news, "RUNNING", timeouts.update)) ?? pod;
      } catch (err) {
        const last = err instanceof WaitFailure && err.lastPod ? err.lastPod : pod;
        throw partialFailure(
          id,
          podOutputs(last, news),
          `${label(news)}: pod ${id} was updated but did not come back to RUNNING (${err instanceof Error ? err.message : String(err)}).`,
        );
      }
    }
    return { outs: podOutputs(pod, news) };
  }

  async delete(id: string, props: PodOutputs): Promise<void> {
    podReads().forget(id);
    const name = label(props, id);
    const started = now();
    let existed: boolean;
    try {
      existed = await terminateAndWait(id, timeoutsOf(props?.timeouts).delete);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
        const hint = props?.cluster
          ? `it belongs to cluster ${props.cluster.id}; delete the cluster through /v2/clusters/${props.cluster.id}`
          : "it is locked; set locked: false and run `pulumi up` first, then destroy";
        throw new Error(`${name}: pod ${id} cannot be deleted: ${hint}. (${err.detail ?? err.message})`);
      }
      throw err;
    }
    claimed.delete(id);
    if (existed) progress(name, `${id} deleted (${elapsed(now() - started)})`);
  }
}

function toGpuInput(g: PodGpuOutput | NonNullable<PodInputs["gpu"]>): NonNullable<PodInputs["gpu"]> {
  const out: Record<string, unknown> = { id: g.id };
  if (g.count !== undefined && g.count !== null) out.count = g.count;
  for (const c of GPU_CONSTRAINTS) {
    const v = (g as Record<string, unknown>)[c];
    if (v !== null && v !== undefined) out[c] = v;
  }
  return out as NonNullable<PodInputs["gpu"]>;
}

function stripNulls<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}

export const podProvider = named(new PodProvider(), label);
