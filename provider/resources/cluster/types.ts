/** The types of `Cluster`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { ClusterType, PodStatus } from "../../client/vocabulary.js";
import type { NetworkMountArgs } from "../mounts.js";
import type { Resolved } from "../same-type.js";

/** Checked inputs of a Cluster, as `check` accepts them and the provider sees them. */
export type ClusterInputs = Resolved<ClusterArgs>;

/**
 * How the program describes an instant cluster. Every field may be a Pulumi Input. Only the name
 * changes in place; `image` is required unless `templateId` is set.
 */
export interface ClusterArgs {
  /**
   * Cluster name.
   * @onChange update
   */
  name: pulumi.Input<string>;
  /**
   * `TRAINING` (generic distributed training), `SLURM`, `RAY` or `APPLICATION`.
   * @onChange replace
   */
  type: pulumi.Input<"APPLICATION" | "TRAINING" | "SLURM" | "RAY">;
  /**
   * Every member pod is alike: `podCount` pods with `gpuCountPerPod` GPUs of `gpuTypeId`.
   * @onChange replace
   */
  compute: pulumi.Input<ClusterComputeArgs>;
  /**
   * A template (yours or a public one) whose image, args, disk, ports and env the pods start from;
   * the program's own values win (env merged per key).
   * @defaultValue none: the settings below
   * @onChange replace
   */
  templateId?: pulumi.Input<string>;
  /**
   * Container image of every pod. Required unless `templateId` is set.
   * @defaultValue none: the template's
   * @onChange replace
   */
  image?: pulumi.Input<string>;
  /**
   * The container command as one raw string.
   * @defaultValue none: the image's (or the template's)
   * @onChange replace
   */
  args?: pulumi.Input<string>;
  /**
   * Container disk in GB of every pod.
   * @defaultValue none: the API's (or the template's)
   * @onChange replace
   */
  disk?: pulumi.Input<number>;
  /**
   * Environment variables of every pod. Stored as secrets in state.
   * @defaultValue `{}`
   * @onChange replace
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Exposed ports, `<port>/<protocol>`.
   * @defaultValue none: the template's, else none
   * @onChange replace
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Preferred data centers; the cluster is always in one.
   * @defaultValue none: any with capacity
   * @onChange replace
   */
  dataCenterIds?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * A `NetworkVolume` every pod mounts (the cluster is then placed in its data center).
   * @defaultValue none
   * @onChange replace
   */
  mounts?: pulumi.Input<ClusterMountsArgs>;
  /**
   * Injects a generated JUPYTER_PASSWORD into every pod.
   * @defaultValue `false`
   * @onChange replace
   */
  startJupyter?: pulumi.Input<boolean>;
  /**
   * Injects the account's SSH keys into every pod: make the cluster `dependsOn` its `SshKey`s.
   * @defaultValue `false`
   * @onChange replace
   */
  startSsh?: pulumi.Input<boolean>;
  /**
   * How long create and delete may wait, in seconds.
   * @defaultValue `{ create: 1200, delete: 600 }`
   * @onChange none
   */
  timeouts?: pulumi.Input<ClusterTimeoutsArgs>;
  /**
   * A cluster whose pods never all run is deleted (billing stops) or kept (in state).
   * @defaultValue `"terminate"`
   * @onChange none
   */
  onCreateFailure?: pulumi.Input<"terminate" | "keep">;
  /**
   * Adopt this existing cluster instead of creating one.
   * @defaultValue none: create a cluster
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

/** A cluster's `compute`: every member pod is alike. */
export interface ClusterComputeArgs {
  /** GPU type id of every pod, e.g. `NVIDIA H100 80GB HBM3`. */
  gpuTypeId: pulumi.Input<string>;
  /** GPUs per pod. */
  gpuCountPerPod: pulumi.Input<number>;
  /** Member pods, 2-250. */
  podCount: pulumi.Input<number>;
}

/** A cluster's `mounts`. */
export interface ClusterMountsArgs {
  /**
   * The network volume every pod mounts.
   * @defaultValue none
   */
  network?: pulumi.Input<pulumi.Input<NetworkMountArgs>[]>;
}

/** A cluster's `timeouts`, in seconds. */
export interface ClusterTimeoutsArgs {
  /**
   * Wait until every member pod runs.
   * @defaultValue `1200`
   */
  create?: pulumi.Input<number>;
  /**
   * Wait until the members are gone.
   * @defaultValue `600`
   */
  delete?: pulumi.Input<number>;
}

/** One member pod of a cluster. */
export interface ClusterMember {
  /** The member pod's id. */
  podId: string;
  /** Its status. */
  status: PodStatus;
  /** Node rank, 0 for the entry node; null until assigned. */
  rank: number | null;
  /** `SLURM_CONTROLLER`, `SLURM_COMPUTE`, `RAY_HEAD` or `RAY_WORKER`; null for other types. */
  role: string | null;
  /** Address on the cluster's private network; null until assigned. */
  ip: string | null;
}

export interface ClusterOutputs {
  clusterId: string;
  name: string;
  type: ClusterType;
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  /** As the program gave it: the API keeps the template only for a create that named one. */
  templateId: string | null;
  /** The create-time settings as the program gave them (none can change after create). */
  image: string | null;
  args: string | null;
  disk: number | null;
  ports: string[] | null;
  dataCenterIds: string[] | null;
  mounts: ClusterInputs["mounts"] | null;
  startJupyter: boolean;
  startSsh: boolean;
  dataCenterId: string | null;
  /** The member pods, by rank. */
  members: ClusterMember[];
  primary: {
    /** The entry pod's id. */
    podId: string;
    /** Its status. */
    status: PodStatus;
    /** Its SSH address; null until it has one. */
    sshEndpoint: string | null;
  } | null;
  network: {
    /** The private network's address range. */
    cidr: string;
  } | null;
  /** The env keys the program declared (secret). */
  env: Record<string, string>;
  createdAt: string;
  timeouts: ClusterInputs["timeouts"] | null;
}
