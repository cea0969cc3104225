/**
 * A pod's records as the store keeps them: its machine, its container, every boot of it, and the
 * cluster it may belong to. Types only: the pod lifecycle (pods/lifecycle.ts) is the one module
 * that changes a pod's status and boots.
 */

import type { ClusterType } from "../schemas/clusters.js";
import type { PodStatus } from "../schemas/common.js";
import type { LoadSegment } from "../schemas/pod-load.js";

export interface Machine {
  readonly dataCenterId: string;
  readonly gpuTypeId?: string;
  readonly gpuCount?: number;
  readonly cpuFlavorId?: string;
  readonly vcpuCount: number;
  readonly memoryGb: number;
  readonly cudaVersion: string | null;
  readonly publicIp: string;
  /** Public port per private port, for `<port>/tcp` entries. */
  readonly portMap: Record<number, number>;
  held: boolean;
}

/**
 * The container a pod runs, as the emulator keeps it and answers it (pods/view.ts); declared once.
 * A type alias, not an interface, so a view built on it stays a plain JSON record.
 */
export type ContainerRecord = {
  image: string;
  /** The start command as one string; the view splits it into `entrypoint` and `cmd`. */
  args: string;
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
  mounts: {
    persistent?: { size: number; path: string };
    network?: { volumeId: string; path: string }[];
    global?: { volumeId: string; path: string }[];
  };
};

export interface PodRecord extends ContainerRecord {
  id: string;
  name: string;
  gpu?: { id: string; count: number };
  cpu?: { id: string; vcpuCount: number };
  cloud: "SECURE" | "COMMUNITY";
  machine: Machine;
  locked: boolean;
  globalNetworking: boolean;
  /** A PATCHed value that applies at the next start (docs/api-model.md, Pods; the description's UpdatePodRequest.globalNetworking). */
  pendingGlobalNetworking?: boolean;
  cluster?: { id: string; rank: number | null; role?: string; ip?: string };
  costPerHour: number;
  createdAt: number;
  /** When the pod last became RUNNING (emulator time); null until it first does. */
  startedAt: number | null;
  /**
   * Written by pods/lifecycle.ts alone: read off the current boot on every read (`settle`), set
   * directly when stopped, terminated or forced.
   */
  status: PodStatus;
  /** Every boot of the pod, oldest first; the last one without `endedAt` drives the status. */
  boots: Boot[];
  /** When a deleted pod stops being readable. */
  goneAt?: number;
  /** The account that owns it (account/accounts.ts). */
  account: string;
  /**
   * The utilization `runtime` reports while RUNNING, scripted through the control plane
   * (pods/load.ts). Kept across stop and start; it goes with the record.
   */
  loadTimeline?: LoadTimeline;
}

/** A pod's scripted load: `segments` (sorted by `atMs`) from `startsAt`, emulator time. */
export interface LoadTimeline {
  readonly startsAt: number;
  readonly segments: readonly LoadSegment[];
  /** The period the timeline repeats with (a day, a week); once through without it. */
  readonly repeatEveryMs?: number;
}

export type ContainerScript =
  | { kind: "start"; lines: string[] }
  /** settings.errorShare: the container fails for good and the pod ends in ERROR. */
  | { kind: "error" }
  | {
      kind: "pullFailure";
      reason: "imageNotFound" | "unauthorized" | "outOfDisk";
      retryMs: number;
      detail: string;
    }
  | { kind: "crashLoop"; runMs: number; restartMs: number; exitCode: number; lines: string[] };

/** The container's environment as one boot started it (account/secret-references.ts). */
export interface BootEnvironment {
  /** Every variable with its references substituted. Never answered: see `scrubSecrets`. */
  readonly variables: Readonly<Record<string, string>>;
  /** The secret values substituted, for scrubbing. */
  readonly secretValues: readonly string[];
  /** Each reference, by variable: the secret it named and whether the account had it. */
  readonly references: readonly { variable: string; secret: string; resolved: boolean }[];
}

/** One boot of a pod: its create, a `start`, or a restart of the container (pods/containers.ts). */
export interface Boot {
  at: number;
  kind: "create" | "start" | "restart";
  image: string;
  provisioningMs: number;
  startingMs: number;
  script: ContainerScript;
  /** The container's environment, secret references resolved; never answered as such. */
  environment: BootEnvironment;
  endedAt?: number;
  endedBy?: "stop" | "terminate" | "restart" | "forced";
}

export interface ClusterRecord {
  id: string;
  name: string;
  type: ClusterType;
  compute: { gpuTypeId: string; gpuCountPerPod: number; podCount: number };
  dataCenterId: string;
  /** Member pod ids by rank. */
  memberIds: string[];
  createdAt: number;
  /** The account that owns it (account/accounts.ts). */
  account: string;
  /** When a deleted cluster stops being readable. */
  goneAt?: number;
}
