/**
 * A Pod's fields, each declared once (docs/decisions.md, "One declaration per field"): the inputs
 * grouped by the API body they go in (docs/api-model.md, Creating a pod), then the provider's own
 * options, then the outputs. Check, the diff table, the API bodies, the plugin's schema, every SDK,
 * the TypeScript declarations and the reference docs are read from here.
 */
import { z } from "zod";
import { EnvMap } from "../../client/schemas/common.js";
import { declareResource, mirror } from "../../fields/declaration.js";
import { adoptId, CONTAINER_FIELDS, OnCreateFailure } from "../common-fields.js";
import { PodAutostop } from "./autostop.js";
import { POD_DESCRIPTION, POD_EXAMPLES, POD_GET } from "./docs.js";
import {
  Cloud,
  PodAction,
  PodCluster,
  PodCpu,
  PodCpuAllocation,
  PodDesiredStatus,
  PodFailFast,
  PodGlobalNetworking,
  PodGpu,
  PodGpuAllocation,
  PodMounts,
  PodPlacement,
  PodReadiness,
  PodSsh,
  PodStatus,
  PodTimeouts,
  PodWaitFor,
} from "./field-types.js";

// ---------------------------------------------------------------- inputs

/** Sent in the create body and in the update body, as given. */
export const POD_CREATE_AND_UPDATE = {
  name: z.string().min(1).meta({ description: "Pod name, not unique.", onChange: "update" }),
  image: z.string().min(1).optional().meta({
    description: "Container image. Required unless a template is given.",
    defaultText: "the template's image",
    onChange: "update",
  }),
  ...CONTAINER_FIELDS,
  env: EnvMap.optional().meta({
    description:
      "Environment variables, always secret in state. A Secret's reference as a value keeps the value itself out of state.",
    default: {},
    onChange: "update",
    secret: true,
  }),
  globalNetworking: z.boolean().optional().meta({
    description:
      "Private networking across data centers. A change takes effect at the pod's next start. Needs an NVIDIA GPU and a data center that offers it.",
    default: false,
    onChange: "update",
  }),
  mounts: PodMounts.optional().meta({
    description: "Storage: a persistent disk, or a network and a global volume.",
    defaultText: "no storage but the container disk",
    onChange: {
      kinds: ["replace", "update"],
      detail:
        "a new kind, another volume or a new persistent size replaces the pod; a new path updates it in place",
    },
  }),
};

/** Sent in the create body only: the API cannot change them on an existing pod. */
export const POD_CREATE_ONLY = {
  gpu: PodGpu.optional().meta({
    description: "A GPU pod: its GPU type, count and host constraints. Exactly one of a GPU and a CPU.",
    defaultText: "none: a CPU pod",
    onChange: "replace",
  }),
  cpu: PodCpu.optional().meta({
    description: "A CPU pod: its flavor and vCPU count. Exactly one of a GPU and a CPU.",
    defaultText: "none: a GPU pod",
    onChange: "replace",
  }),
  cloud: Cloud.optional().meta({
    description: "Where the pod runs.",
    default: "SECURE",
    onChange: "replace",
  }),
  dataCenterIds: z
    .array(z.string().min(1))
    .optional()
    .meta({
      description: "Preferred data centers, in order.",
      defaultText: "any data center with capacity",
      onChange: {
        kinds: ["replace", "none"],
        detail: "the pod is replaced only when its data center leaves the list; any other change is no diff",
      },
    }),
  startJupyter: z.boolean().optional().meta({
    description: "Injects a generated JUPYTER_PASSWORD, exposed as the secret Jupyter password output.",
    default: false,
    onChange: "replace",
  }),
  startSsh: z.boolean().optional().meta({
    description: "Injects the account's SSH keys. Make the pod depend on its SshKey resources.",
    default: false,
    onChange: "replace",
  }),
  templateId: z.string().min(1).optional().meta({
    description:
      "A one-time source of settings at create (a Template's id, or a public one): later template edits do not change the pod. A serverless template cannot back a pod: check cannot see the template's kind without an API call, so the create fails with the API's 422.",
    defaultText: "none: no template",
    onChange: "replace",
  }),
};

/** Sent in the update body only: the create body has no such field, so create sends an update after it. */
export const POD_UPDATE_ONLY = {
  locked: z.boolean().optional().meta({
    description: "A locked pod cannot be stopped, restarted or deleted.",
    default: false,
    onChange: "update",
  }),
};

/** The provider's own options: never sent as they are. */
export const POD_OPTIONS = {
  desiredStatus: PodDesiredStatus.optional().meta({
    description:
      "Whether the pod runs. Stopping it keeps its disk and volume and stops billing for the GPU; running it again needs a free GPU of its type on its machine and can fail for capacity (the pod then stays stopped and the error says so). Not STOPPED while the pod is locked.",
    default: "RUNNING",
    onChange: "update",
  }),
  placement: PodPlacement.optional().meta({
    description:
      "Where to try, in order, at create. Without it the pod is created once with the preferred data centers as given.",
    defaultText: "none: one create with the preferred data centers",
    onChange: "none",
  }),
  waitFor: PodWaitFor.optional().meta({
    description: "What create waits for.",
    default: "RUNNING",
    onChange: "none",
  }),
  readiness: PodReadiness.optional().meta({
    description: "What done means for a create, past the status.",
    defaultText: "the check RUNNING, settling for 30 seconds",
    onChange: "none",
  }),
  failFast: PodFailFast.optional().meta({
    description:
      "Failing fast on an image that cannot be pulled or a crash loop, instead of waiting out the timeout.",
    defaultText: "logs read 15 seconds after placement; 3 exits within 300 seconds are a crash loop",
    onChange: "none",
  }),
  timeouts: PodTimeouts.optional().meta({
    description: "How long create, update and delete may wait.",
    defaultText: "600 seconds to create or update, 300 to delete",
    onChange: {
      kinds: ["none"],
      detail:
        "nothing on the pod changes; a later destroy waits as long as the value recorded at create or at the last update says",
    },
  }),
  onCreateFailure: OnCreateFailure.optional().meta({
    description: "What happens to a pod that never reaches what create waits for.",
    default: "terminate",
    onChange: "none",
  }),
  adoptId: adoptId("a pod"),
  autostop: PodAutostop.optional().meta({
    description:
      "Stopping the pod when its GPUs have been idle for a while (the `runpod-dynamic autostop` watcher). Not with locked, which the API never stops.",
    defaultText: "none: nothing stops the pod for being idle",
    onChange: {
      kinds: ["update"],
      detail: "an update that sends nothing to the API: the watcher reads the new setting from state",
    },
  }),
};

export const PodArgsSchema = z.strictObject({
  ...POD_CREATE_AND_UPDATE,
  ...POD_CREATE_ONLY,
  ...POD_UPDATE_ONLY,
  ...POD_OPTIONS,
});

// ---------------------------------------------------------------- outputs

const input = PodArgsSchema.shape;

export const PodStateSchema = z.object({
  name: mirror(input.name, "api"),
  status: PodStatus.meta({
    description: "Lifecycle status as the API reports it. Moving on its own is never a diff.",
  }),
  actions: z.array(PodAction).meta({ description: "What the API allows on the pod now." }),
  image: mirror(input.image, "api").meta({
    description: "Container image (the template's when the program left it out).",
  }),
  args: mirror(input.args, "built").meta({
    description: "The container command as one raw string, as the API stores it.",
  }),
  cmd: mirror(input.cmd, "built").meta({
    description: "CMD in exec form: as the API returned it, else decoded from the command string.",
  }),
  entrypoint: mirror(input.entrypoint, "built").meta({
    description: "ENTRYPOINT in exec form: as the API returned it, else decoded from the command string.",
  }),
  disk: mirror(input.disk, "api"),
  env: mirror(input.env, "built").meta({
    description:
      "The environment variables the program declared (secret). Keys the service injects (PUBLIC_KEY, JUPYTER_PASSWORD) or a template adds are not drift.",
  }),
  ports: mirror(input.ports, "api"),
  registry: mirror(input.registry, "api"),
  mounts: mirror(input.mounts, "built").meta({ description: "The pod's storage, as created." }),
  gpu: PodGpuAllocation.nullable().meta({
    description:
      "The GPU type placement ended on, the count, the allocated vCPUs and RAM, and the constraints; null on a CPU pod.",
  }),
  cpu: PodCpuAllocation.nullable().meta({ description: "The CPU flavor, vCPUs and RAM; null on a GPU pod." }),
  cloud: mirror(input.cloud, "api"),
  dataCenterId: z
    .string()
    .nullable()
    .meta({ description: "The data center the pod runs in; null until placed." }),
  dataCenterIds: mirror(input.dataCenterIds, "given")
    .nullable()
    .meta({ description: "The data centers the create was allowed to use, as the program gave them." }),
  cudaVersion: z
    .string()
    .nullable()
    .meta({ description: "The host's CUDA version; null until placed or on a CPU pod." }),
  ssh: PodSsh.meta({
    description:
      "How to reach the pod over SSH: through RunPod's proxy (a shell only) or directly over `22/tcp`.",
  }),
  cluster: PodCluster.nullable().meta({
    description: "The cluster a member pod belongs to; null for a pod of its own.",
  }),
  template: z
    .string()
    .nullable()
    .meta({ description: "The template the pod was created from, as the API names it; null without one." }),
  templateId: mirror(input.templateId, "given").nullable().meta({
    description:
      "The template the program created the pod from, as it gave it (the template output is the API's).",
  }),
  cost: z
    .number()
    .nullable()
    .meta({ description: "What RunPod bills now; null when the API does not say.", unit: "USD per hour" }),
  locked: mirror(input.locked, "api"),
  desiredStatus: PodDesiredStatus.meta({
    description:
      "STOPPED when the pod is stopped (EXITED), else RUNNING; a failed pod (ERROR), and one with autostop that was stopped outside this stack, show what was asked of it.",
  }),
  stoppedOutside: z.boolean().meta({
    description:
      "Whether the pod is stopped and this stack did not stop it (the autostop watcher, a person, another tool). With autostop, `pulumi up` leaves such a pod stopped.",
  }),
  autostop: mirror(input.autostop, "given").nullable(),
  globalNetworking: PodGlobalNetworking.meta({
    description:
      "Private networking as the pod has it now: a change applies at the next start, so this may lag the input.",
  }),
  requestedGlobalNetworking: z.boolean().meta({
    description: "Private networking as the program asked for it.",
    internal: true,
  }),
  runtime: z.record(z.string(), z.unknown()).nullable().meta({
    description:
      "The API's runtime block (uptime, ports, GPU use) as returned; null when the API gives none.",
  }),
  createdAt: z.string().meta({ description: "When the pod was created (ISO 8601)." }),
  startedAt: z
    .string()
    .nullable()
    .meta({ description: "When the container last started (ISO 8601); null when it is not running." }),
  startSsh: mirror(input.startSsh, "given", { internal: true }),
  startJupyter: mirror(input.startJupyter, "given", { internal: true }),
  jupyterPassword: z.string().nullable().meta({
    description: "The injected JupyterLab password (secret); null without JupyterLab.",
    secret: true,
  }),
  placement: mirror(input.placement, "given", { internal: true }).nullable(),
  requestedGpuId: z.string().nullable().meta({
    description: "The GPU type the program asked for; the GPU output names the one placement ended on.",
    internal: true,
  }),
  timeouts: mirror(input.timeouts, "given", { internal: true }).nullable(),
});

export const POD = declareResource({
  kind: "Pod",
  description: POD_DESCRIPTION,
  get: POD_GET,
  examples: POD_EXAMPLES,
  inputs: PodArgsSchema,
  outputs: PodStateSchema,
});
