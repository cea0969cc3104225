/**
 * `Pod`: a GPU or CPU pod managed by `pulumi up` (type `pulumi-nodejs:dynamic/runpod:Pod`).
 *
 * Inputs are the contract's CreatePodRequest fields, unchanged, plus `locked` and the provider's
 * own options (placement, waiting, timeouts, what happens to a pod whose create fails, adoption).
 * Outputs are every field of the contract's Pod response, JSON-clean, plus the input fields the
 * next diff compares.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PodStatus } from "../client/vocabulary.js";
import { secretEnv } from "../program/secret-inputs.js";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs, withSecretOutputs } from "./common.js";
import type { PodArgs } from "./pod/args.js";
import { createKeyOf } from "./pod/translate.js";
import type { PodGpuOutput, PodOutputs } from "./pod/types.js";
import { SECRET_FIELDS } from "./secret-fields.js";
import { markOf } from "./stack-identity.js";

// ---------------------------------------------------------------- the resource

/** One thin provider for every Pod: Pulumi serializes it once per program. */
const POD_PROVIDER = thinProvider("Pod");

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
  /** Pod name. */
  declare readonly name: pulumi.Output<string>;
  /** Lifecycle status as the API reports it (`RUNNING`, `EXITED`, `TERMINATED`, ...). Moving on its own is never a diff. */
  declare readonly status: pulumi.Output<PodStatus>;
  /** What the API allows on the pod now (`stop`, `start`, `restart`, `terminate`, ...). */
  declare readonly actions: pulumi.Output<string[]>;
  /** Container image (the template's when the program left it out). */
  declare readonly image: pulumi.Output<string>;
  /** The container command as one raw string, as the API stores it. */
  declare readonly args: pulumi.Output<string>;
  /** CMD in exec form: as the API returned it, else decoded from `args`. */
  declare readonly cmd: pulumi.Output<string[]>;
  /** ENTRYPOINT in exec form: as the API returned it, else decoded from `args`. */
  declare readonly entrypoint: pulumi.Output<string[]>;
  /** Container disk in GB. */
  declare readonly disk: pulumi.Output<number>;
  /** The environment variables the program declared (secret). Keys the service injects (PUBLIC_KEY, JUPYTER_PASSWORD) or a template adds are not drift. */
  declare readonly env: pulumi.Output<Record<string, string>>;
  /** Exposed ports, `<port>/<protocol>`. */
  declare readonly ports: pulumi.Output<string[]>;
  /** The registry credential id, or `null`. */
  declare readonly registry: pulumi.Output<string | null>;
  /** The pod's storage, as created. */
  declare readonly mounts: pulumi.Output<PodOutputs["mounts"]>;
  /** The GPU type placement ended on, the count, the allocated vCPUs and RAM, and the constraints; `null` on a CPU pod. */
  declare readonly gpu: pulumi.Output<PodGpuOutput | null>;
  /** The CPU flavor, vCPUs and memory; `null` on a GPU pod. */
  declare readonly cpu: pulumi.Output<PodOutputs["cpu"]>;
  /** `SECURE` or `COMMUNITY`. */
  declare readonly cloud: pulumi.Output<"SECURE" | "COMMUNITY">;
  /** The data center the pod runs in; `null` until placed. */
  declare readonly dataCenterId: pulumi.Output<string | null>;
  /** The data centers the create was allowed to use, as the program gave them. */
  declare readonly dataCenterIds: pulumi.Output<string[] | null>;
  /** The host's CUDA version; `null` until placed or on a CPU pod. */
  declare readonly cudaVersion: pulumi.Output<string | null>;
  /** How to reach the pod over SSH: through RunPod's proxy (shell only) or directly over `22/tcp`. */
  declare readonly ssh: pulumi.Output<PodOutputs["ssh"]>;
  /** The cluster a member pod belongs to (id, rank, role, overlay IP); `null` for a pod of its own. */
  declare readonly cluster: pulumi.Output<PodOutputs["cluster"]>;
  /** The template the pod was created from, as the API names it; `null` without one. */
  declare readonly template: pulumi.Output<string | null>;
  /** The template the program created the pod from, as it gave it (`template` is the API's). */
  declare readonly templateId: pulumi.Output<string | null>;
  /** USD per hour RunPod bills now; `null` when the API does not say (the declared type leaves the null out). */
  declare readonly cost: pulumi.Output<number>;
  /** Whether the pod is locked. */
  declare readonly locked: pulumi.Output<boolean>;
  /** `STOPPED` when the pod is stopped (EXITED), else `RUNNING`; a failed pod (ERROR) shows what was asked of it. */
  declare readonly desiredStatus: pulumi.Output<"RUNNING" | "STOPPED">;
  /** Private networking as the pod has it now: a change applies at the next start, so this may lag the input. */
  declare readonly globalNetworking: pulumi.Output<PodOutputs["globalNetworking"]>;
  /** The API's runtime block (uptime, ports, GPU use) as returned; `null` when the API gives none. */
  declare readonly runtime: pulumi.Output<Record<string, unknown> | null>;
  /** When the pod was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the container last started (ISO 8601); `null` when it is not running. */
  declare readonly startedAt: pulumi.Output<string | null>;
  /** The injected JupyterLab password (secret); `null` without `startJupyter`. */
  declare readonly jupyterPassword: pulumi.Output<string | null>;

  /**
   * An existing pod, read by its id and never changed by this program: `pulumi up` reads it (a
   * `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without
   * terminating it. Its outputs are the API's answer; `env` holds every variable the pod was given
   * (secret in state). To take a pod over and manage it from then on, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The pod's id, as the RunPod console and `runpod-dynamic pods list` show it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const notebook = Pod.get("notebook", "5s2rzot80s4vlq");
   * export const notebookSsh = notebook.ssh;
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Pod {
    return readById(Pod, name, id, opts);
  }

  constructor(name: string, args: PodArgs, opts: pulumi.CustomResourceOptions = {}) {
    const createKey = markOf(name, opts, createKeyOf);
    super(
      POD_PROVIDER,
      name,
      {
        ...unsetOutputs(POD_OUTPUTS),
        ...args,
        ...secretEnv(args.env),
        ...optionInputs(opts),
        ...(createKey ? { __createKey: createKey } : {}),
      },
      withSecretOutputs(opts, ...SECRET_FIELDS.Pod.outputs),
      "runpod",
      "Pod",
    );
  }
}

/** Every output of a Pod (common.ts `OutputNames`). */
const POD_OUTPUTS: OutputNames<Pod> = {
  name: true,
  status: true,
  actions: true,
  image: true,
  args: true,
  cmd: true,
  entrypoint: true,
  disk: true,
  env: true,
  ports: true,
  registry: true,
  mounts: true,
  gpu: true,
  cpu: true,
  cloud: true,
  dataCenterId: true,
  dataCenterIds: true,
  cudaVersion: true,
  ssh: true,
  cluster: true,
  template: true,
  templateId: true,
  cost: true,
  locked: true,
  desiredStatus: true,
  globalNetworking: true,
  runtime: true,
  createdAt: true,
  startedAt: true,
  jupyterPassword: true,
};
