/**
 * A Cluster's fields, each declared once (docs/decisions.md, "One declaration per field"). Only the
 * name changes in place (the API's update is a rename); everything else replaces the cluster.
 */
import { z } from "zod";
import { EnvMap, Port } from "../../client/schemas/common.js";
import type { CLUSTER_TYPES } from "../../client/vocabulary.js";
import { declareResource, mirror } from "../../fields/declaration.js";
import { choice } from "../../fields/meta.js";
import { adoptId, NetworkMount, OnCreateFailure } from "../common-fields.js";
import { PodStatus } from "../pod/field-types.js";
import { CLUSTER_DESCRIPTION, CLUSTER_EXAMPLES, CLUSTER_GET } from "./docs.js";

export const ClusterType = choice("ClusterType", "The topology of an instant cluster.", {
  APPLICATION: "A group of pods for an application of your own.",
  TRAINING: "Generic distributed training.",
  SLURM: "A Slurm cluster.",
  RAY: "A Ray cluster.",
} satisfies Record<(typeof CLUSTER_TYPES)[number], string>);

export const ClusterCompute = z
  .strictObject({
    gpuTypeId: z
      .string()
      .min(1)
      .meta({ description: "GPU type id of every pod, for example `NVIDIA H100 80GB HBM3`." }),
    gpuCountPerPod: z.int().min(1).meta({ description: "GPUs per pod." }),
    podCount: z.int().min(2).max(250).meta({ description: "Member pods, 2 to 250." }),
  })
  .meta({ id: "ClusterCompute", description: "A cluster's compute: every member pod is alike." });

export const ClusterMounts = z
  .strictObject({
    network: z
      .array(NetworkMount)
      .max(1)
      .optional()
      .meta({ description: "The network volume every pod mounts.", defaultText: "none" }),
  })
  .meta({ id: "ClusterMounts", description: "A cluster's storage." });

export const ClusterTimeouts = z
  .strictObject({
    create: z.int().min(1).max(86_400).optional().meta({
      description: "How long to wait until every member pod runs.",
      unit: "seconds",
      default: 1200,
    }),
    delete: z.int().min(1).max(86_400).optional().meta({
      description: "How long to wait until the members are gone.",
      unit: "seconds",
      default: 600,
    }),
  })
  .meta({ id: "ClusterTimeouts", description: "How long a cluster's create and delete may wait." });

/** Sent in the create body, as given (a template's settings are read and sent with them, body.ts). */
export const CLUSTER_BODY = {
  name: z.string().min(1).meta({ description: "Cluster name.", onChange: "update" }),
  type: ClusterType.meta({ description: "The cluster's topology.", onChange: "replace" }),
  compute: ClusterCompute.meta({
    description: "Every member pod is alike: this many pods with this many GPUs of this type.",
    onChange: "replace",
  }),
  image: z.string().min(1).optional().meta({
    description: "Container image of every pod. Required unless a template is given.",
    defaultText: "the template's",
    onChange: "replace",
  }),
  args: z.string().optional().meta({
    description: "The container command as one raw string.",
    defaultText: "the image's (or the template's)",
    onChange: "replace",
  }),
  disk: z.int().min(1).optional().meta({
    description: "Container disk of every pod.",
    unit: "GB",
    defaultText: "the API's (or the template's)",
    onChange: "replace",
  }),
  env: EnvMap.optional().meta({
    description: "Environment variables of every pod, always secret in state.",
    default: {},
    onChange: "replace",
    secret: true,
  }),
  ports: z.array(Port).optional().meta({
    description: "Exposed ports, each `<port>/<protocol>`.",
    defaultText: "the template's, else none",
    onChange: "replace",
  }),
  dataCenterIds: z.array(z.string().min(1)).optional().meta({
    description: "Preferred data centers; the cluster is always in one.",
    defaultText: "any with capacity",
    onChange: "replace",
  }),
  mounts: ClusterMounts.optional().meta({
    description: "A NetworkVolume every pod mounts: the cluster is then placed in its data center.",
    defaultText: "none",
    onChange: "replace",
  }),
  startJupyter: z.boolean().optional().meta({
    description: "Injects a generated JUPYTER_PASSWORD into every pod.",
    default: false,
    onChange: "replace",
  }),
  startSsh: z.boolean().optional().meta({
    description:
      "Injects the account's SSH keys into every pod: make the cluster depend on its SshKey resources.",
    default: false,
    onChange: "replace",
  }),
};

export const ClusterArgsSchema = z.strictObject({
  ...CLUSTER_BODY,
  templateId: z.string().min(1).optional().meta({
    description:
      "A template (yours or a public one) whose image, command, disk, ports and environment variables the pods start from; the program's own values win, and environment variables are merged per key.",
    defaultText: "none: the settings given",
    onChange: "replace",
  }),
  timeouts: ClusterTimeouts.optional().meta({
    description: "How long create and delete may wait.",
    defaultText: "1200 seconds to create, 600 to delete",
    onChange: "none",
  }),
  onCreateFailure: OnCreateFailure.optional().meta({
    description: "What happens to a cluster whose pods never all run.",
    default: "terminate",
    onChange: "none",
  }),
  adoptId: adoptId("a cluster"),
});

export const ClusterMember = z
  .object({
    podId: z.string().meta({ description: "The member pod's id." }),
    status: PodStatus.meta({ description: "Its status." }),
    rank: z.int().nullable().meta({ description: "Node rank, 0 for the entry node; null until assigned." }),
    role: z.string().nullable().meta({
      description: "`SLURM_CONTROLLER`, `SLURM_COMPUTE`, `RAY_HEAD` or `RAY_WORKER`; null for other types.",
    }),
    ip: z
      .string()
      .nullable()
      .meta({ description: "Address on the cluster's private network; null until assigned." }),
  })
  .meta({ id: "ClusterMember", description: "One member pod of a cluster." });

export const ClusterPrimary = z
  .object({
    podId: z.string().meta({ description: "The entry pod's id." }),
    status: PodStatus.meta({ description: "Its status." }),
    sshEndpoint: z.string().nullable().meta({ description: "Its SSH address; null until it has one." }),
  })
  .meta({ id: "ClusterPrimary", description: "A cluster's entry pod (rank 0)." });

export const ClusterNetwork = z
  .object({ cidr: z.string().meta({ description: "The private network's address range." }) })
  .meta({ id: "ClusterNetwork", description: "A cluster's private network." });

const input = ClusterArgsSchema.shape;
const given = { internal: true } as const;

export const ClusterStateSchema = z.object({
  clusterId: z.string().meta({ description: "The cluster id; also the resource id." }),
  name: mirror(input.name, "api"),
  type: mirror(input.type, "api"),
  compute: mirror(input.compute, "built", given),
  templateId: mirror(input.templateId, "given", given).nullable(),
  image: mirror(input.image, "given", given).nullable(),
  args: mirror(input.args, "given", given).nullable(),
  disk: mirror(input.disk, "given", given).nullable(),
  ports: mirror(input.ports, "given", given).nullable(),
  dataCenterIds: mirror(input.dataCenterIds, "given", given).nullable(),
  mounts: mirror(input.mounts, "given", given).nullable(),
  startJupyter: mirror(input.startJupyter, "given", given),
  startSsh: mirror(input.startSsh, "given", given),
  dataCenterId: z
    .string()
    .nullable()
    .meta({ description: "The data center the cluster runs in; null until placed." }),
  members: z.array(ClusterMember).meta({ description: "The member pods, by rank." }),
  primary: ClusterPrimary.nullable().meta({
    description: "The entry pod (rank 0): its id, status and SSH address; null before it exists.",
  }),
  network: ClusterNetwork.nullable().meta({
    description: "The cluster's private network; null when the API does not say.",
  }),
  env: mirror(input.env, "built").meta({
    description: "The environment variables the program declared (secret).",
  }),
  createdAt: z.string().meta({ description: "When the cluster was created (ISO 8601)." }),
  timeouts: mirror(input.timeouts, "given", given).nullable(),
});

export const CLUSTER = declareResource({
  kind: "Cluster",
  description: CLUSTER_DESCRIPTION,
  get: CLUSTER_GET,
  examples: CLUSTER_EXAMPLES,
  inputs: ClusterArgsSchema,
  outputs: ClusterStateSchema,
});
