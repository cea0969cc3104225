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
import { optionInputs } from "./common.js";
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
