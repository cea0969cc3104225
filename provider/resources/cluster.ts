/**
 * `Cluster` (type `pulumi-nodejs:dynamic/runpod:Cluster`): an instant cluster, 2 to 250 identical
 * GPU pods in one data center on a private network, managed through `{base_url}/v2/clusters`.
 *
 * Create waits until every member pod is RUNNING, through the shared pod watcher (one pod list for
 * every waiting pod, cluster members included). Only the name changes in place (the API's update
 * is a rename); everything else replaces. Delete terminates the members and waits until they are
 * gone. Member pods are not `Pod` resources: the API refuses changes to them (409).
 *
 * The API takes the container settings directly and no template id: with `templateId`, the
 * template's image, args, disk, ports and env are read and sent, the program's own values winning
 * (env merged per key), as a template is applied elsewhere.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ClusterType } from "../client/vocabulary.js";
import { secretEnv } from "../program/secret-inputs.js";
import { thinProvider } from "../program/thin.js";
import type { ClusterArgs, ClusterMember, ClusterOutputs } from "./cluster/types.js";
import { type OutputNames, optionInputs, readById, unsetOutputs, withSecretOutputs } from "./common.js";
import { SECRET_FIELDS } from "./secret-fields.js";

/** One thin provider for every Cluster: Pulumi serializes it once per program. */
const CLUSTER_PROVIDER = thinProvider("Cluster");

/**
 * An instant cluster.
 * @example
 * const cluster = new Cluster("trainers", {
 *   name: "trainers",
 *   type: "TRAINING",
 *   compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 4 },
 *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
 *   mounts: { network: [{ volumeId: datasets.id, path: "/data" }] },
 * });
 * export const primary = cluster.primary;
 */
export class Cluster extends pulumi.dynamic.Resource {
  /** The cluster id; also the resource id. */
  declare readonly clusterId: pulumi.Output<string>;
  /** Cluster name. */
  declare readonly name: pulumi.Output<string>;
  /** `TRAINING`, `SLURM`, `RAY` or `APPLICATION`. */
  declare readonly type: pulumi.Output<ClusterType>;
  /** The data center the cluster runs in; `null` until placed. */
  declare readonly dataCenterId: pulumi.Output<string | null>;
  /** The member pods, by rank. */
  declare readonly members: pulumi.Output<ClusterMember[]>;
  /** The entry pod (rank 0): its id, status and SSH endpoint; `null` before it exists. */
  declare readonly primary: pulumi.Output<ClusterOutputs["primary"]>;
  /** The cluster's private network (`cidr`); `null` when the API does not say. */
  declare readonly network: pulumi.Output<ClusterOutputs["network"]>;
  /** The environment variables the program declared (secret). */
  declare readonly env: pulumi.Output<Record<string, string>>;
  /** When the cluster was created (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;

  /**
   * An existing instant cluster, read by its id and never changed by this program: `pulumi up`
   * reads it (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it
   * without deleting it (its pods keep running, and billing). `env` holds every variable its pods
   * were given (secret in state). To take a cluster over and manage it, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The cluster's id, as `GET /v2/clusters` lists it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const trainers = Cluster.get("trainers", "su3fh1x1omktyn");
   * export const primary = trainers.primary;
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Cluster {
    return readById(Cluster, name, id, opts);
  }

  constructor(name: string, args: ClusterArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      CLUSTER_PROVIDER,
      name,
      {
        ...unsetOutputs(CLUSTER_OUTPUTS),
        ...args,
        ...secretEnv(args.env),
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, ...SECRET_FIELDS.Cluster.outputs),
      "runpod",
      "Cluster",
    );
  }
}

/** Every output of a Cluster (common.ts `OutputNames`). */
const CLUSTER_OUTPUTS: OutputNames<Cluster> = {
  clusterId: true,
  name: true,
  type: true,
  dataCenterId: true,
  members: true,
  primary: true,
  network: true,
  env: true,
  createdAt: true,
};
