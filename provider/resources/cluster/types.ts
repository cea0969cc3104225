/** The types of `Cluster`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */
import type * as pulumi from "@pulumi/pulumi";
import type { ClusterType, PodStatus } from "../../client/vocabulary.js";

/** Checked inputs of a Cluster, as `check` accepts them and the provider sees them. */
export interface ClusterInputs {
  name: string;
  type: ClusterType;
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  templateId?: string | undefined;
  image?: string | undefined;
  args?: string | undefined;
  disk?: number | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  dataCenterIds?: string[] | undefined;
  mounts?: { network?: { volumeId: string; path: string }[] | undefined } | undefined;
  startJupyter?: boolean | undefined;
  startSsh?: boolean | undefined;
  timeouts?: { create?: number | undefined; delete?: number | undefined } | undefined;
  onCreateFailure?: "terminate" | "keep" | undefined;
  adoptId?: string | undefined;
}

type In<T> = pulumi.Input<T>;
type InList<T> = pulumi.Input<pulumi.Input<T>[]>;

/** How the program describes an instant cluster. Every field may be a Pulumi Input. */
export interface ClusterArgs {
  /** Changes in place. */
  name: In<string>;
  /** `TRAINING` (generic distributed training), `SLURM`, `RAY` or `APPLICATION`. */
  type: In<"APPLICATION" | "TRAINING" | "SLURM" | "RAY">;
  /** Every member pod is alike: `podCount` (2-250) pods with `gpuCountPerPod` GPUs of `gpuTypeId`. */
  compute: In<{ gpuTypeId: In<string>; gpuCountPerPod: In<number>; podCount: In<number> }>;
  /** A template (yours or a public one) whose image, args, disk, ports and env the pods start from. */
  templateId?: In<string>;
  /** Container image of every pod. Required unless `templateId` is set. */
  image?: In<string>;
  args?: In<string>;
  disk?: In<number>;
  /** Stored as secrets in state. */
  env?: In<Record<string, In<string>>>;
  ports?: InList<string>;
  /** Preferred data centers; the cluster is always in one. */
  dataCenterIds?: InList<string>;
  /** A `NetworkVolume` every pod mounts (the cluster is then placed in its data center). */
  mounts?: In<{ network?: InList<{ volumeId: In<string>; path: In<string> }> }>;
  startJupyter?: In<boolean>;
  /** Injects the account's SSH keys into every pod: make the cluster `dependsOn` its `SshKey`s. */
  startSsh?: In<boolean>;
  /** Seconds. @default { create: 1200, delete: 600 } */
  timeouts?: In<{ create?: In<number>; delete?: In<number> }>;
  /** A cluster whose pods never all run is deleted (billing stops) or kept (in state). @default "terminate" */
  onCreateFailure?: In<"terminate" | "keep">;
  /** Adopt this existing cluster instead of creating one. */
  adoptId?: In<string>;
}

export interface ClusterMember {
  podId: string;
  status: PodStatus;
  rank: number | null;
  role: string | null;
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
  primary: { podId: string; status: PodStatus; sshEndpoint: string | null } | null;
  network: { cidr: string } | null;
  /** The env keys the program declared (secret). */
  env: Record<string, string>;
  createdAt: string;
  timeouts: ClusterInputs["timeouts"] | null;
}
