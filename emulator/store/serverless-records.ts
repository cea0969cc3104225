/**
 * Serverless records: the one endpoint store both views share (serverless/routes.ts is the v2
 * view under base_url, serverless/v1-routes.ts the v1 view on rest_url, so an endpoint created
 * through either is read, changed and deleted through both, and jobs run on it either way), its
 * releases, and the jobs submitted to it. Types and defaults only.
 */
import type { EndpointScaling, EndpointType, FlashbootMode } from "../schemas/serverless.js";

/** Defaults of CreateEndpointRequest (v2 description). */
export const V2_DEFAULTS = {
  workers: { min: 0, max: 3, idleTimeout: 10 },
  timeout: 300_000,
  flashboot: "OFF" as FlashbootMode,
  gpuCount: 1,
  /** No default in the description; the pods' and templates' container disk default. */
  disk: 20,
};

export interface GpuCompute {
  kind: "GPU";
  pools: string[];
  excludedTypes: string[];
  count: number;
  allowedCudaVersions: string[];
  minCudaVersion: string | null;
  /**
   * The v1 `gpuTypeIds` in the priority order a v1 client gave, kept while the pools and
   * exclusions are the ones derived from it (a v2 `gpu.pools` replaces the selection and drops it).
   */
  typeOrder?: string[];
}

export interface CpuCompute {
  kind: "CPU";
  configs: { id: string; vcpuCount: number }[];
}

export interface Container {
  image: string;
  args: string;
  disk: number;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
}

export interface ReleaseRecord {
  id: string;
  version: number;
  createdAt: number;
  createdByUserId: string;
  container: Container;
  diff: { field: string; old: unknown; new: unknown }[];
}

export interface EndpointRecord {
  id: string;
  name: string;
  type: EndpointType;
  compute: GpuCompute | CpuCompute;
  /** `idleTimeout` is kept even where v2 hides it (queue endpoints scaling on request count). */
  workers: { min: number; max: number; idleTimeout: number };
  scaling: EndpointScaling;
  dataCenterIds: string[];
  networkVolumes: string[];
  timeout: number;
  flashboot: FlashbootMode;
  container: Container;
  /** The template the container settings last came from, if any. */
  templateId: string | null;
  /** True when a v1 create or update bound the template (it then cannot be deleted). */
  templateBound: boolean;
  /** The env that template contributed: the v1 `env` is what the endpoint sets on top of it. */
  templateEnv: Record<string, string>;
  /** v1 `networkVolumeId`, shown back while it is still attached. */
  v1PrimaryVolume?: string;
  createdAt: number;
  /** When `workers.min` last changed: always-on workers count from here. */
  minChangedAt: number;
  /**
   * Worker time before this is in the usage ledger already; what the workers do from here is
   * worked out from the jobs and `workers` when billing is read (serverless/usage.ts).
   */
  billedFrom: number;
  version: number;
  releases: ReleaseRecord[];
  /** The user who created it (v1 `userId`). */
  userId: string;
  /** The account that owns it (account/accounts.ts). */
  account: string;
  /** Jobs ever submitted, which spreads them over the worker slots. */
  jobCount: number;
}

/** Emulator time that never comes: a job no worker will take stays IN_QUEUE (JSON-safe, unlike Infinity). */
export const NEVER = Number.MAX_SAFE_INTEGER;

export interface JobRecord {
  id: string;
  endpointId: string;
  input: Record<string, unknown>;
  /** When the job (or its latest retry) entered the queue. */
  submittedAt: number;
  /** NEVER while no worker can take it (no workers allowed, or workers that cannot start). */
  startsAt: number;
  endsAt: number;
  fails: boolean;
  /** Ends TIMED_OUT at startsAt + timeoutMs instead, when the run is longer than the timeout. */
  timeoutMs?: number;
  workerId: string;
  /** The endpoint's worker slot that runs it (serverless endpoints only). */
  workerIndex?: number;
  kind: "image" | "video" | "audio" | "echo";
  /** `/runsync` or `/run`. */
  sync: boolean;
  cancelledAt?: number;
  /** How often `/retry` requeued it. */
  retries: number;
  /** Stream chunks already handed out by `/stream`. */
  streamed: number;
}
