/**
 * The provider's process-wide runtime: settings from `configure` (or the environment), one client,
 * one pod watcher, one reader of single pods. In a `pulumi up` every dynamic resource runs in one provider host process, so
 * all of them share the HTTP pool, the rate-limit budget and the watcher kept here.
 */
import { RunpodApi } from "../client/api.js";
import { type Clock, realClock, scaledClock } from "../client/clock.js";
import { type RunpodSettings, resolveSettings, type SettingsLookup } from "../client/config.js";
import { type ClientOptions, RunpodClient } from "../client/request.js";
import { PodReads } from "./pod-reads.js";
import { PodWatcher, type WatcherOptions } from "./watcher.js";

/** What Pulumi's dynamic-provider host passes to `configure`. */
export interface ConfigureRequest {
  readonly config: { get(key: string): string | undefined };
}

interface Runtime {
  lookup: SettingsLookup;
  clock: Clock | undefined;
  clientOptions: ClientOptions;
  watcherOptions: Partial<WatcherOptions>;
  cache: { key: string; api: RunpodApi; watcher: PodWatcher; reads: PodReads } | undefined;
}

const KEY = Symbol.for("runpod-dynamic.runtime");
function runtime(): Runtime {
  const g = globalThis as { [KEY]?: Runtime };
  g[KEY] ??= {
    lookup: () => undefined,
    clock: undefined,
    clientOptions: {},
    watcherOptions: {},
    cache: undefined,
  };
  return g[KEY];
}

/** Called by every resource's `configure`: keeps the stack config for later lookups. */
export function configureRuntime(req: ConfigureRequest): void {
  const config = req.config;
  runtime().lookup = (key) => {
    try {
      return config.get(key);
    } catch {
      return undefined;
    }
  };
  runtime().cache = undefined;
}

/**
 * For tests and benchmarks running providers in-process: a clock that follows the emulator,
 * client options, watcher tuning. RUNPOD_DYNAMIC_TIME_SCALE does the same for a provider host.
 */
export function setRuntimeOverrides(overrides: {
  clock?: Clock;
  clientOptions?: ClientOptions;
  watcher?: Partial<WatcherOptions>;
  lookup?: SettingsLookup;
}): void {
  const r = runtime();
  if (overrides.clock) r.clock = overrides.clock;
  if (overrides.clientOptions) r.clientOptions = overrides.clientOptions;
  if (overrides.watcher) r.watcherOptions = overrides.watcher;
  if (overrides.lookup) r.lookup = overrides.lookup;
  r.cache = undefined;
}

function clock(): Clock {
  const r = runtime();
  if (r.clock) return r.clock;
  const scale = Number(process.env.RUNPOD_DYNAMIC_TIME_SCALE ?? "1");
  r.clock = Number.isFinite(scale) && scale > 0 && scale !== 1 ? scaledClock(scale) : realClock;
  return r.clock;
}

export function settings(): RunpodSettings {
  return resolveSettings(runtime().lookup, process.env);
}

function current(): { api: RunpodApi; watcher: PodWatcher; reads: PodReads } {
  const r = runtime();
  const s = settings();
  const key = JSON.stringify(s);
  if (r.cache?.key !== key) {
    const client = new RunpodClient(s, { ...r.clientOptions, clock: clock() });
    const api = new RunpodApi(client);
    r.cache?.watcher.close();
    r.cache = {
      key,
      api,
      watcher: new PodWatcher(api, clock(), r.watcherOptions),
      reads: new PodReads(api, clock()),
    };
  }
  return r.cache;
}

/** The shared API client for the current settings. */
export function api(): RunpodApi {
  return current().api;
}

/** Reads of single pods, coalesced into list requests when they come together (refresh). */
export function podReads(): PodReads {
  return current().reads;
}

/** The shared pod watcher. */
export function watcher(): PodWatcher {
  return current().watcher;
}

export function now(): number {
  return clock().now();
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return clock().sleep(ms, signal);
}
