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
import { type OutputNames, optionInputs, readById, unsetOutputs } from "./common.js";
import { createKeyOf } from "./pod/create-key.js";
import type { PodArgs, PodGpuOutput, PodOutputs } from "./pod/types.js";

export { POD_TYPE } from "../both/type-tokens.js";

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
  /** The data centers the create was allowed to use, as the program gave them. */
  declare readonly dataCenterIds: pulumi.Output<string[] | null>;
  declare readonly cudaVersion: pulumi.Output<string | null>;
  declare readonly ssh: pulumi.Output<PodOutputs["ssh"]>;
  declare readonly cluster: pulumi.Output<PodOutputs["cluster"]>;
  declare readonly template: pulumi.Output<string | null>;
  /** The template the program created the pod from, as it gave it (`template` is the API's). */
  declare readonly templateId: pulumi.Output<string | null>;
  declare readonly cost: pulumi.Output<number>;
  declare readonly locked: pulumi.Output<boolean>;
  declare readonly desiredStatus: pulumi.Output<"RUNNING" | "STOPPED">;
  declare readonly globalNetworking: pulumi.Output<PodOutputs["globalNetworking"]>;
  declare readonly runtime: pulumi.Output<Record<string, unknown> | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly startedAt: pulumi.Output<string | null>;
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
    const parentUrn: pulumi.Input<string> = opts.parent?.urn ?? "";
    super(
      thinProvider("Pod"),
      name,
      {
        ...unsetOutputs(POD_OUTPUTS),
        ...args,
        ...secretEnv(args.env),
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
