/**
 * The emulator's one state store: everything the API areas read and change, the settings the
 * control plane adjusts, the clock and a seeded random source. Handlers run to completion on one
 * thread, so concurrent requests never interleave inside a change.
 */
import { z } from "zod";
import { DEFAULT_USER_ID } from "./accounts.js";
import { EmulatorClock } from "./clock.js";
import type { ClusterRecord } from "./cluster-records.js";
import type { Boot, ContainerBehaviour } from "./containers.js";
import { badRequest } from "./errors.js";
import { FaultRules } from "./faults.js";
import { DEFAULT_POLICY, RateLimiter } from "./rate-limit.js";
import type { DelegationRecord, RegistryRecord } from "./registries.js";
import { RequestLog } from "./request-log.js";
import type { Availability } from "./schemas/catalog.js";
import type { PodStatus } from "./schemas/common.js";
import type { SecretRecord } from "./secrets.js";
import { mergeSeed } from "./seed.js";
import { seedCluster, seedEndpoint, seedPod, seedVolume } from "./seed-resources.js";
import type { Seed, SeedInput } from "./seed-schema.js";
import type { EndpointRecord } from "./serverless-records.js";
import { stockKey } from "./stock-key.js";
import { UsageLedger } from "./usage-ledger.js";

export { stockKey } from "./stock-key.js";

/** What the control plane adjusts (`PUT /__emulator/settings` takes any subset of it). */
export const SettingsSchema = z.strictObject({
  /** Time from create to STARTING. */
  provisioningMs: z.number().min(0),
  /** Time from STARTING to RUNNING (also after a restart). */
  startingMs: z.number().min(0),
  /** Time a deleted pod stays readable as TERMINATED before GET answers 404. */
  terminatingMs: z.number().min(0),
  /** Share of new pods that end in ERROR instead of RUNNING, 0..1. */
  errorShare: z.number().min(0).max(1),
  /** When true, every create answers 402 (balance exhausted). */
  balanceExhausted: z.boolean(),
  /** Time a job waits in the queue, then runs. */
  jobQueueMs: z.number().min(0),
  jobRunMs: z.number().min(0),
  /** Share of jobs that end FAILED, 0..1. */
  jobFailureShare: z.number().min(0).max(1),
  /** Longest a /runsync waits before answering with the job still in progress (its `?wait=` overrides). */
  runsyncWaitMs: z.number().min(0),
  /** Time between two pulls of an image that failed to pull (containers.ts). */
  pullRetryMs: z.number().min(1),
  /** Time a crash-looping container stays down before the service restarts it (containers.ts). */
  crashRestartMs: z.number().min(1),
  /**
   * Longest time after a container starts before its `<port>/tcp` entries get their public
   * address; each pod draws its own delay up to this (pod-network.ts).
   */
  portMappingMs: z.number().min(0),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  provisioningMs: 2000,
  startingMs: 3000,
  terminatingMs: 1000,
  errorShare: 0,
  balanceExhausted: false,
  jobQueueMs: 500,
  jobRunMs: 1500,
  jobFailureShare: 0,
  runsyncWaitMs: 90_000,
  pullRetryMs: 30_000,
  crashRestartMs: 10_000,
  portMappingMs: 5000,
};

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
 * The container a pod runs, as the emulator keeps it and answers it (pod-view.ts); declared once.
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
  /** A PATCHed value that applies at the next start (contract: UpdatePodRequest.globalNetworking). */
  pendingGlobalNetworking?: boolean;
  cluster?: { id: string; rank: number | null; role?: string; ip?: string };
  costPerHour: number;
  createdAt: number;
  /** When the pod last became RUNNING (emulator time); null until it first does. */
  startedAt: number | null;
  /** Read off the current boot on every read (pods.ts `settle`); set directly when stopped or forced. */
  status: PodStatus;
  /** Every boot of the pod, oldest first; the last one without `endedAt` drives the status. */
  boots: Boot[];
  /** When a deleted pod stops being readable. */
  goneAt?: number;
  /** The account that owns it (accounts.ts). */
  account: string;
}

export interface GpuStock {
  total: number;
  free: number;
  cudaVersions: string[];
  ramPerGpu: number;
  vcpuPerGpu: number;
  availability?: Availability;
}

export interface CpuStock {
  totalVcpu: number;
  free: number;
}

/**
 * A template: the seed's (defaults filled in by the seed schema; public, readable by every
 * account) or one created through the API (`source` "user", owned by `account`).
 */
export type TemplateRecord = Seed["templates"][number];

export type GpuTypeRecord = Seed["gpuTypes"][number];
export type CpuFlavorRecord = Seed["cpuFlavors"][number];
export type DataCenterRecord = Seed["dataCenters"][number];

export interface NetworkVolumeRecord {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: string;
  /** The account that owns it (accounts.ts). */
  account: string;
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

export class EmulatorState {
  readonly clock: EmulatorClock;
  readonly limiter = new RateLimiter(DEFAULT_POLICY);
  readonly faults = new FaultRules();
  readonly log = new RequestLog();
  settings: Settings = { ...DEFAULT_SETTINGS };
  seed!: Seed;

  /** The seed's catalog by id (built by `load`); the seed's arrays keep the listing order. */
  gpuTypeById = new Map<string, GpuTypeRecord>();
  cpuFlavorById = new Map<string, CpuFlavorRecord>();
  dataCenterById = new Map<string, DataCenterRecord>();

  pods = new Map<string, PodRecord>();
  templates = new Map<string, TemplateRecord>();
  networkVolumes = new Map<string, NetworkVolumeRecord>();
  /** One store for serverless endpoints, whichever view (v1 or v2) created them. */
  endpoints = new Map<string, EndpointRecord>();
  jobs = new Map<string, JobRecord>();
  registries = new Map<string, RegistryRecord>();
  delegations = new Map<string, DelegationRecord>();
  /** Account secrets; values are write-only (secrets.ts). Not part of the seed: none after a reset. */
  secrets = new Map<string, SecretRecord>();
  clusters = new Map<string, ClusterRecord>();
  /** Per-image container behaviour, first match wins (containers.ts). */
  containerBehaviours: ContainerBehaviour[] = [];
  /** The listeners' addresses, for the URLs responses carry (set once they listen). */
  urls = { base: "http://127.0.0.1", rest: "http://127.0.0.1", serverless: "http://127.0.0.1" };
  /** The host pods' TCP ports really listen on, when the emulator serves them (pod-network.ts). */
  podPorts: { readonly host: string } | undefined;
  /** Each account's SSH public keys (`/v2/account/ssh-keys`). */
  sshKeys = new Map<string, string[]>();
  gpuStock = new Map<string, GpuStock>();
  cpuStock = new Map<string, CpuStock>();
  apiKeys = new Map<string, Seed["apiKeys"][number]>();
  teams = new Map<string, Seed["teams"][number]>();
  /** What every resource used, kept after the resource is gone (usage-ledger.ts). */
  readonly usage = new UsageLedger();

  private rngState: number;

  constructor(
    options: {
      seed?: Partial<SeedInput>;
      clock?: EmulatorClock;
      randomSeed?: number;
      settings?: Partial<Settings>;
    } = {},
  ) {
    this.clock = options.clock ?? new EmulatorClock();
    this.rngState = options.randomSeed ?? 0x5eed;
    this.load(options.seed);
    if (options.settings) this.settings = { ...this.settings, ...options.settings };
  }

  /**
   * Replaces every resource with the seed's (seed-resources.ts: the seeded pods, endpoints and
   * clusters with their member pods included) and starts the usage ledger over, so what the seed
   * holds bills from now on. Settings, faults and the log are kept.
   */
  load(overrides?: Partial<SeedInput>): void {
    this.seed = mergeSeed(overrides);
    const s = this.seed;
    this.gpuTypeById = new Map(s.gpuTypes.map((g) => [g.id, g]));
    this.cpuFlavorById = new Map(s.cpuFlavors.map((f) => [f.id, f]));
    this.dataCenterById = new Map(s.dataCenters.map((d) => [d.id, d]));
    this.pods.clear();
    this.endpoints.clear();
    this.jobs.clear();
    // A seeded template of the user's own (`source` "user") is the account's its `account` names.
    this.templates = new Map(
      s.templates.map((t): [string, TemplateRecord] => {
        const copy: TemplateRecord = structuredClone(t);
        if (t.source === "user") copy.account = t.account ?? DEFAULT_USER_ID;
        return [t.id, copy];
      }),
    );
    this.usage.clear();
    this.networkVolumes.clear();
    for (const v of s.networkVolumes) seedVolume(this, v);
    this.sshKeys = new Map([[DEFAULT_USER_ID, [...s.sshKeys]]]);
    this.apiKeys = new Map(s.apiKeys.map((k) => [k.key, k]));
    this.teams = new Map(s.teams.map((t) => [t.id, t]));
    this.gpuStock = new Map(
      s.gpuStock.map((g) => [
        stockKey(g.dataCenterId, g.gpuTypeId),
        {
          total: g.total,
          free: g.free ?? g.total,
          cudaVersions: [...g.cudaVersions],
          ramPerGpu: g.ramPerGpu,
          vcpuPerGpu: g.vcpuPerGpu,
          ...(g.availability ? { availability: g.availability } : {}),
        },
      ]),
    );
    this.cpuStock = new Map(
      s.cpuStock.map((c) => [
        stockKey(c.dataCenterId, c.cpuFlavorId),
        { totalVcpu: c.totalVcpu, free: c.free ?? c.totalVcpu },
      ]),
    );
    this.registries = new Map(s.registries.map((r) => [r.id, { ...r, account: DEFAULT_USER_ID }]));
    this.delegations.clear();
    this.secrets.clear();
    this.containerBehaviours = s.containerBehaviours.map((b) => ({ ...b }));
    this.clusters.clear();
    // The seed's clusters and their member pods: readable, members listed with includeClusterPods.
    for (const c of s.clusters) seedCluster(this, c);
    s.pods.forEach((p, i) => {
      seedPod(this, p, i);
    });
    for (const e of s.endpoints) seedEndpoint(this, e);
    this.limiter.reset();
  }

  /** Deterministic pseudo-random number in [0, 1) (mulberry32). */
  random(): number {
    this.rngState = (this.rngState + 0x6d2b79f5) | 0;
    let t = this.rngState;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  reseedRandom(seed: number): void {
    this.rngState = seed;
  }

  /** A fresh id shaped like the service's (lowercase letters and digits). */
  newId(length = 14): string {
    const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    let id = "";
    for (let i = 0; i < length; i += 1) id += alphabet[Math.floor(this.random() * alphabet.length)];
    return id;
  }

  now(): number {
    return this.clock.now();
  }
}

/**
 * The GPU type `id`, or the 400 pointing at the catalog. `field` is how the message names where
 * the id came from, exactly as it starts: `gpu.id` or `gpuTypeIds:`.
 */
export function requireGpuType(state: EmulatorState, id: string, field: string): GpuTypeRecord {
  const type = state.gpuTypeById.get(id);
  if (!type) throw badRequest(`${field} '${id}' is not a GPU type; see GET /v2/catalog/gpus.`);
  return type;
}

/** The CPU flavor `id`, or the 400 pointing at the catalog (`field` as for requireGpuType). */
export function requireCpuFlavor(state: EmulatorState, id: string, field: string): CpuFlavorRecord {
  const flavor = state.cpuFlavorById.get(id);
  if (!flavor) throw badRequest(`${field} '${id}' is not a CPU flavor; see GET /v2/catalog/cpus.`);
  return flavor;
}

/** The data center `id`, or the 400 pointing at the catalog (`field` as for requireGpuType). */
export function requireDataCenter(state: EmulatorState, id: string, field: string): DataCenterRecord {
  const dc = state.dataCenterById.get(id);
  if (!dc) throw badRequest(`${field} '${id}' is not a data center; see GET /v2/catalog/datacenters.`);
  return dc;
}

/** Network volume `id` when `account` owns it; another account's is unknown to it (accounts.ts). */
export function ownedVolume(
  state: EmulatorState,
  id: string,
  account: string,
): NetworkVolumeRecord | undefined {
  const v = state.networkVolumes.get(id);
  return v?.account === account ? v : undefined;
}

/** The SSH public keys of `account`. */
export function sshKeysOf(state: EmulatorState, account: string): string[] {
  return state.sshKeys.get(account) ?? [];
}

/** Template `id` when `account` may use it: a public one, or its own (accounts.ts). */
export function readableTemplate(
  state: EmulatorState,
  id: string,
  account: string,
): TemplateRecord | undefined {
  const t = state.templates.get(id);
  return t && (t.source !== "user" || t.account === account) ? t : undefined;
}
