/**
 * Serverless records: the endpoint store (serverless/routes.ts serves it under base_url, and
 * serverless/jobs.ts runs jobs on it under serverless_url), its releases, and the jobs submitted
 * to it. Types and defaults only.
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
  /** The user who created it: the first release's `createdByUserId`. */
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
