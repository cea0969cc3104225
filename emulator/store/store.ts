/**
 * The emulator's one state store: everything the API areas read and change, the settings the
 * control plane adjusts, the clock and a seeded random source. Handlers run to completion on one
 * thread, so concurrent requests never interleave inside a change.
 *
 * The store holds records and imports no behaviour: filling it from a seed asks the pod lifecycle
 * for the seeded pods, so that happens above it (platform/state.ts, whose `EmulatorState` is the
 * store the package exports).
 */
import { FaultRules } from "../http/faults.js";
import { DEFAULT_POLICY, RateLimiter } from "../http/rate-limit.js";
import { RequestLog } from "../http/request-log.js";
import type { ContainerBehaviour } from "../schemas/container-behaviour.js";
import type { Seed } from "../seed/schema.js";
import { EmulatorClock } from "./clock.js";
import type { ClusterRecord, PodRecord } from "./pod-records.js";
import type {
  CpuFlavorRecord,
  CpuStock,
  DataCenterRecord,
  DelegationRecord,
  GpuStock,
  GpuTypeRecord,
  NetworkVolumeRecord,
  RegistryRecord,
  SecretRecord,
  TemplateRecord,
} from "./records.js";
import type { EndpointRecord, JobRecord } from "./serverless-records.js";
import { DEFAULT_SETTINGS, type Settings } from "./settings.js";
import { UsageLedger } from "./usage-ledger.js";

/** What a store starts from besides its records. */
export interface StoreOptions {
  clock?: EmulatorClock;
  randomSeed?: number;
  settings?: Partial<Settings>;
}

export class Store {
  readonly clock: EmulatorClock;
  readonly limiter = new RateLimiter(DEFAULT_POLICY);
  readonly faults = new FaultRules();
  readonly log = new RequestLog();
  settings: Settings = { ...DEFAULT_SETTINGS };
  seed!: Seed;

  /** The seed's catalog by id (built by `Store.load`); the seed's arrays keep the listing order. */
  gpuTypeById = new Map<string, GpuTypeRecord>();
  cpuFlavorById = new Map<string, CpuFlavorRecord>();
  dataCenterById = new Map<string, DataCenterRecord>();

  pods = new Map<string, PodRecord>();
  templates = new Map<string, TemplateRecord>();
  networkVolumes = new Map<string, NetworkVolumeRecord>();
  /** Serverless endpoints (`/v2/serverless`), which jobs run on. */
  endpoints = new Map<string, EndpointRecord>();
  jobs = new Map<string, JobRecord>();
  registries = new Map<string, RegistryRecord>();
  delegations = new Map<string, DelegationRecord>();
  /** Account secrets; values are write-only (account/secrets.ts). Not in the seed: none after a reset. */
  secrets = new Map<string, SecretRecord>();
  clusters = new Map<string, ClusterRecord>();
  /** Per-image container behaviour, first match wins (pods/containers.ts). */
  containerBehaviours: ContainerBehaviour[] = [];
  /** The listeners' addresses, for the URLs responses carry (set once they listen). */
  urls = { base: "http://127.0.0.1", rest: "http://127.0.0.1", serverless: "http://127.0.0.1" };
  /** The host pods' TCP ports really listen on, when the emulator serves them (pods/network.ts). */
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

  constructor(options: StoreOptions = {}) {
    this.clock = options.clock ?? new EmulatorClock();
    this.rngState = options.randomSeed ?? 0x5eed;
    if (options.settings) this.settings = { ...this.settings, ...options.settings };
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
