/**
 * What one configured provider host shares, in one object: the settings, the API client with its
 * rate-limit budgets, the pod watcher, the coalesced pod reads, the shared catalog and volume reads,
 * the clock, where progress goes, and
 * what this host has claimed or learned so far. `provider/host/provider-host.ts` makes it from the
 * configuration `configure` received; tests and benchmarks make their own. Every provider method
 * that talks to the API is handed it (`provider/host/bind.ts`, `HostedProvider`), and passes
 * on the parts its helpers need: nothing here is found through a module or a global.
 */
import type {
  CatalogReader,
  CpuFlavor,
  CpuFlavorsQuery,
  DataCenter,
  DataCentersQuery,
  GpuType,
  GpuTypesQuery,
} from "../catalog/types.js";
import { RunpodApi } from "../client/api.js";
import type { Clock } from "../client/clock.js";
import type { RunpodSettings } from "../client/config.js";
import { RateLimitBudget } from "../client/rate-limit.js";
import { RateLimitBudgets } from "../client/rate-limit-budgets.js";
import { type ClientOptions, RunpodClient } from "../client/request.js";
import type { NetworkVolume } from "../client/schemas/index.js";
import type { Pod } from "../client/schemas/pods.js";
import { type ProgressSink, stderrProgress, warningsTo } from "./engine-log.js";
import { EnginePacing } from "./engine-pacing.js";
import { InFlightJobs } from "./jobs-in-flight.js";
import type { ImagePulls } from "./pod-health.js";
import { PodReads } from "./pod-reads.js";
import { PodWatcher, type WatcherOptions } from "./watcher.js";

/** A progress line about `resource` (`Pod trainer`). */
export function progressLine(resource: string, message: string): string {
  return `runpod ${resource}: ${message}`;
}

/** `1m05s`, `42s`: elapsed time for progress lines. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** What Pulumi's dynamic-provider host passes to `configure`. */
export interface ConfigureRequest {
  /** A config value by key: text, or (from the provider plugin) the value as it was set. */
  readonly config: { get(key: string): unknown };
}

/** Client options a context's client takes: the clock and the budgets are the context's own. */
export type ContextClientOptions = Omit<ClientOptions, "clock" | "budgets">;

export interface HostContextOptions {
  readonly settings: RunpodSettings;
  readonly clock: Clock;
  /** @default the client's defaults */
  readonly clientOptions?: ContextClientOptions;
  /** @default the watcher's defaults */
  readonly watcher?: Partial<WatcherOptions>;
  /** Where progress lines go. @default stderr, unless RUNPOD_DYNAMIC_QUIET is set */
  readonly progress?: ProgressSink;
  /** @default the shared reads' defaults */
  readonly sharedReads?: Partial<SharedReadsOptions>;
  /**
   * Pod creates of the host, to tell the user once when the engine paces a fleet.
   * @default this context's own, warning through the progress sink
   */
  readonly pacing?: EnginePacing;
  /** What the host has claimed, when it outlives one context (provider-host.ts). @default none yet */
  readonly claims?: Claims;
}

/** Claims of no id yet. */
export function noClaims(): Claims {
  return {
    pods: new Set(),
    clusters: new Set(),
    endpoints: new Set(),
    registries: new Set(),
    templates: new Set(),
    volumes: new Set(),
  };
}

/**
 * The ids this host owns, per kind: created, adopted, found again after an unanswered create, or
 * shown by the engine. A create that looks for what an unanswered or interrupted create made never
 * takes one of these (`provider/client/create-once.ts`, `provider/resources/pod/start.ts`).
 */
export interface Claims {
  readonly pods: Set<string>;
  readonly clusters: Set<string>;
  readonly endpoints: Set<string>;
  readonly registries: Set<string>;
  readonly templates: Set<string>;
  readonly volumes: Set<string>;
}

export class HostContext {
  readonly settings: RunpodSettings;
  readonly clock: Clock;
  /** One budget per API origin and key: every request of this host spaces itself through them. */
  readonly budgets: RateLimitBudgets;
  /** The budget of requests to the v2 API: the watcher's reads and the pods' log streams go through it. */
  readonly v2Budget: RateLimitBudget;
  readonly api: RunpodApi;
  /** One pod list serves every pod waited for. */
  readonly watcher: PodWatcher;
  /** Reads of single pods, coalesced into list requests when they come together (refresh). */
  readonly podReads: PodReads;
  /** The catalog and network volumes, read once for every resource that asks within a minute. */
  readonly reads: SharedReads;
  readonly claims: Claims;
  /** Per image, which slow pod reads its log, and which images are known to pull. */
  readonly imagePulls: ImagePulls = new Map();
  /** The account's SSH key set has one writer at a time (`provider/resources/ssh-key/key-set.ts`). */
  readonly sshKeyWrites = new OneAtATime();
  /** ServerlessJob waits, cancelled when the host is stopped while they run. */
  readonly jobs: InFlightJobs;
  /** Pod creates in flight, to tell the user once when the engine paces a fleet. */
  readonly pacing: EnginePacing;
  private readonly sink: ProgressSink;
  private podsListing: Promise<Pod[]> | undefined;

  constructor(options: HostContextOptions) {
    this.settings = options.settings;
    this.clock = options.clock;
    this.budgets = new RateLimitBudgets(this.clock, this.settings.quotaShareForOthers);
    this.api = new RunpodApi(
      new RunpodClient(this.settings, { ...options.clientOptions, clock: this.clock, budgets: this.budgets }),
    );
    // Without an API key nothing is sent (every request asks for it first), so nothing waits for a
    // pod either: a budget no request draws on stands in for the key's.
    this.v2Budget = this.settings.apiKey
      ? this.api.client.budgetFor("v2")
      : new RateLimitBudget(this.clock, this.settings.quotaShareForOthers);
    this.watcher = new PodWatcher(this.api, this.clock, this.v2Budget, options.watcher);
    this.podReads = new PodReads(this.api, this.clock);
    this.reads = new SharedReads(this.api, this.clock, options.sharedReads);
    this.jobs = new InFlightJobs(this.api);
    this.sink = options.progress ?? stderrProgress;
    this.pacing = options.pacing ?? new EnginePacing(warningsTo(this.sink));
    this.claims = options.claims ?? noClaims();
  }

  now(): number {
    return this.clock.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }

  /** A progress line about `resource` (`Pod trainer`), where the user sees it. */
  progress(resource: string, message: string): void {
    this.sink(progressLine(resource, message));
  }

  /**
   * The account's pods when this host first needed them: whatever an interrupted run left behind
   * exists by then (its process is gone), so one list serves every create. A failed list is asked
   * again by the next caller.
   */
  podsAtStart(): Promise<Pod[]> {
    if (!this.podsListing) {
      const listing = this.api.pods.list();
      this.podsListing = listing;
      listing.catch(() => {
        if (this.podsListing === listing) this.podsListing = undefined;
      });
    }
    return this.podsListing;
  }

  /** Stops the watcher: the waits still running on it fail. */
  close(): void {
    this.watcher.close();
  }
}

/** Runs tasks one after another: each starts once every task run before it has settled. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every earlier task has finished, whether it succeeded or failed. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.last.then(fn, fn);
    this.last = run.catch(() => undefined);
    return run;
  }
}

// ---------------------------------------------------------------- reads every resource shares

export interface SharedReadsOptions {
  /**
   * How long an answer serves later asks. A minute: the length of the quota's shortest window, so
   * a fleet spends at most one request per read and window on it, and short next to how long the
   * catalog's stock ratings stay meaningful (they only order candidates). @default 60000
   */
  readonly keepMs: number;
  /** Distinct reads kept at once; the oldest goes first. @default 64 */
  readonly maxEntries: number;
}

export const SHARED_READS_DEFAULTS: SharedReadsOptions = { keepMs: 60_000, maxEntries: 64 };

interface Entry {
  readonly at: number;
  readonly answer: Promise<unknown>;
}

const CATALOG = "catalog ";
const VOLUME = "volume ";

/**
 * Read-mostly lookups one provider host shares among its resources: the catalog (data centers, GPU
 * types, CPU flavors) and network volumes. A fleet's pods ask for the same catalog and the same
 * volume within seconds of each other; without sharing, every pod spends one or two requests of
 * the key's quota on an answer the pod before it already had (docs/fleets.md, Reads shared across
 * a run).
 *
 * Concurrent asks for the same read share one request. An answer is kept for `keepMs` on the
 * host's clock, then read again; a failed read is kept for no one. Who learns that an answer is
 * stale says so (`forgetCatalog`, `forgetVolume`): a walk whose every catalog candidate was out of
 * capacity, a volume this host changed or deleted, a create refused about its volume.
 */
export class SharedReads {
  private readonly entries = new Map<string, Entry>();
  private readonly options: SharedReadsOptions;
  /** The catalog as every resource of the host reads it. */
  readonly catalog: CatalogReader;

  constructor(
    private readonly api: RunpodApi,
    private readonly clock: Clock,
    options: Partial<SharedReadsOptions> = {},
  ) {
    this.options = { ...SHARED_READS_DEFAULTS, ...options };
    this.catalog = {
      gpuTypes: (query: GpuTypesQuery = {}) =>
        this.read<GpuType[]>(`${CATALOG}gpus ${canonical(query)}`, () => api.catalog.gpuTypes(query)),
      cpuFlavors: (query: CpuFlavorsQuery = {}) =>
        this.read<CpuFlavor[]>(`${CATALOG}cpus ${canonical(query)}`, () => api.catalog.cpuFlavors(query)),
      dataCenters: (query: DataCentersQuery = {}) =>
        this.read<DataCenter[]>(`${CATALOG}datacenters ${canonical(query)}`, () =>
          api.catalog.dataCenters(query),
        ),
    };
  }

  /** The network volume `id`, as read within `keepMs`. */
  volume(id: string): Promise<NetworkVolume> {
    return this.read(`${VOLUME}${id}`, () => this.api.networkVolumes.get(id));
  }

  /** Every catalog answer kept: the next ask reads again. */
  forgetCatalog(): void {
    this.forget((key) => key.startsWith(CATALOG));
  }

  /** The volume `id` as kept: the next ask reads again. */
  forgetVolume(id: string): void {
    this.forget((key) => key === `${VOLUME}${id}`);
  }

  private read<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const kept = this.entries.get(key);
    if (kept && now - kept.at < this.options.keepMs) return kept.answer as Promise<T>;
    const answer = fetch();
    const entry = { at: now, answer };
    this.entries.delete(key);
    this.entries.set(key, entry);
    answer.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(oldest);
    }
    return answer;
  }

  private forget(which: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (which(key)) this.entries.delete(key);
  }
}

/** A query as a key: the same fields in any order, arrays in their own order (it can matter). */
function canonical(query: object): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
}
