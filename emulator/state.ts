/**
 * The emulator's one state store: everything the API areas read and change, the settings the
 * control plane adjusts, the clock and a seeded random source. Handlers run to completion on one
 * thread, so concurrent requests never interleave inside a change.
 */
import type { PodStatus } from "../provider/client/schemas/pods.js";
import { EmulatorClock } from "./clock.js";
import { FaultRules } from "./faults.js";
import { DEFAULT_POLICY, RateLimiter } from "./rate-limit.js";
import { RequestLog } from "./request-log.js";
import { mergeSeed, type Seed, type SeedInput } from "./seed.js";

export interface Settings {
  /** Time from create to STARTING. */
  provisioningMs: number;
  /** Time from STARTING to RUNNING (also after a restart). */
  startingMs: number;
  /** Time a deleted pod stays readable as TERMINATED before GET answers 404. */
  terminatingMs: number;
  /** Share of new pods that end in ERROR instead of RUNNING, 0..1. */
  errorShare: number;
  /** When true, every create answers 402 (balance exhausted). */
  balanceExhausted: boolean;
  /** Time a job waits in the queue, then runs. */
  jobQueueMs: number;
  jobRunMs: number;
  /** Share of jobs that end FAILED, 0..1. */
  jobFailureShare: number;
  /** Longest a /runsync waits before answering with the job still in progress. */
  runsyncWaitMs: number;
}

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

export interface PodRecord {
  id: string;
  name: string;
  image: string;
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
  startedAt: number | null;
  status: PodStatus;
  /** Transitions still to come, in order. */
  schedule: { status: PodStatus; at: number }[];
  /** When the pod last became RUNNING (emulator time). */
  runningAt?: number;
  /** When a deleted pod stops being readable. */
  goneAt?: number;
  ownerKey: string;
}

export interface GpuStock {
  total: number;
  free: number;
  cudaVersions: string[];
  ramPerGpu: number;
  vcpuPerGpu: number;
  availability?: "NONE" | "LOW" | "MEDIUM" | "HIGH";
}

export interface CpuStock {
  totalVcpu: number;
  free: number;
}

export type TemplateRecord = Seed["templates"][number] & {
  id: string;
  name: string;
  image: string;
  args: string;
  disk: number;
  mounts: { persistent?: { size: number; path: string } };
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  serverless: boolean;
  public: boolean;
  category: string;
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[];
  readme: string;
};

export interface NetworkVolumeRecord {
  id: string;
  name: string;
  size: number;
  dataCenter: string;
  type: string;
}

export interface EndpointRecord {
  id: string;
  [field: string]: unknown;
}

export interface JobRecord {
  id: string;
  endpointId: string;
  input: Record<string, unknown>;
  submittedAt: number;
  startsAt: number;
  endsAt: number;
  fails: boolean;
  workerId: string;
  kind: "image" | "video" | "audio" | "echo";
}

export class EmulatorState {
  readonly clock: EmulatorClock;
  readonly limiter = new RateLimiter(DEFAULT_POLICY);
  readonly faults = new FaultRules();
  readonly log = new RequestLog();
  settings: Settings = { ...DEFAULT_SETTINGS };
  seed!: Seed;

  pods = new Map<string, PodRecord>();
  templates = new Map<string, TemplateRecord>();
  networkVolumes = new Map<string, NetworkVolumeRecord>();
  endpoints = new Map<string, EndpointRecord>();
  jobs = new Map<string, JobRecord>();
  sshKeys: string[] = [];
  gpuStock = new Map<string, GpuStock>();
  cpuStock = new Map<string, CpuStock>();
  apiKeys = new Map<string, Seed["apiKeys"][number]>();

  private rngState: number;
  private counter = 0;

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

  /** Replaces every resource with the seed's. Settings, faults and the log are kept. */
  load(overrides?: Partial<SeedInput>): void {
    this.seed = mergeSeed(overrides);
    const s = this.seed;
    this.pods.clear();
    this.endpoints.clear();
    this.jobs.clear();
    this.templates = new Map(s.templates.map((t) => [t.id, normalizeTemplate(t)]));
    this.networkVolumes = new Map(s.networkVolumes.map((v) => [v.id, { ...v }]));
    this.sshKeys = [...s.sshKeys];
    this.apiKeys = new Map(s.apiKeys.map((k) => [k.key, k]));
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
    this.counter += 1;
    const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    let id = "";
    for (let i = 0; i < length; i += 1) id += alphabet[Math.floor(this.random() * alphabet.length)];
    return id;
  }

  now(): number {
    return this.clock.now();
  }
}

export function stockKey(dataCenterId: string, id: string): string {
  return `${dataCenterId}|${id}`;
}

function normalizeTemplate(t: Seed["templates"][number]): TemplateRecord {
  const r = t as Record<string, unknown>;
  return {
    ...t,
    name: String(r.name ?? t.id),
    image: String(r.image ?? ""),
    args: String(r.args ?? ""),
    disk: Number(r.disk ?? 20),
    mounts: (r.mounts as TemplateRecord["mounts"]) ?? {},
    ports: (r.ports as string[]) ?? [],
    env: (r.env as Record<string, string>) ?? {},
    registry: (r.registry as string | null) ?? null,
    serverless: Boolean(r.serverless),
    public: r.public === undefined ? true : Boolean(r.public),
    category: String(r.category ?? "NVIDIA"),
    startSsh: Boolean(r.startSsh),
    startJupyter: Boolean(r.startJupyter),
    allowedCudaVersions: (r.allowedCudaVersions as string[]) ?? [],
    readme: String(r.readme ?? ""),
  };
}
