/** Runs the compiled provider implementation in-process against an emulator, on the emulator's clock. */
import { afterEach, beforeEach } from "vitest";
import type { EmulatorOptions } from "../../emulator/index.js";
import type { Clock } from "../../provider/client/clock.js";
import type { ClientOptions } from "../../provider/client/index.js";
import { clientLib, loadDist } from "./dist.js";
import { emulatorLib, type RunningEmulator } from "./emulator.js";

export const runtimeLib = loadDist<typeof import("../../provider/dynamic/runtime.js")>(
  "provider/dynamic/runtime.js",
);
export const providerLib = loadDist<typeof import("../../provider/index.js")>("provider/index.js");
/** What the policy pack and the CLI share with the provider (`runpod-dynamic/review`). */
export const reviewLib = loadDist<typeof import("../../provider/review.js")>("provider/review.js");

/** The coalescing pod reader, as the provider host loads it. */
export const loadPodReads = () =>
  loadDist<typeof import("../../provider/host/pod-reads.js")>("provider/host/pod-reads.js");

/** A client clock reading the emulator's own clock, sleeping real time scaled by its rate. */
export function emulatorClock(emu: RunningEmulator): Clock {
  return {
    now: () => emu.control.now(),
    sleep: (ms, signal) => clientLib.realClock.sleep(ms / Math.max(emu.state.clock.rate, 1e-9), signal),
  };
}

/** The emulator's three API addresses and its pods' proxy, as `useRuntime` takes them. */
export function emulatorUrls(emu: RunningEmulator) {
  return {
    baseUrl: emu.baseUrl,
    restUrl: emu.restUrl,
    serverlessUrl: emu.serverlessUrl,
    ...(emu.proxyUrl ? { proxyUrl: emu.proxyUrl } : {}),
  };
}

/** Backoff of a millisecond or two: tests wait on the service, not on the retry schedule. */
const FAST_RETRY = { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false } as const;

/** The providers of one host context, with the engine's call shape (what `useRuntime` returns). */
export type HostProviders = ReturnType<typeof runtimeLib.providersFor>;

/**
 * A host context of its own pointed at these addresses with this key (`restUrl` and
 * `serverlessUrl` default to `baseUrl`, for a scripted server answering every API): its providers,
 * the context, and the progress lines it prints. Nothing is shared with another call.
 */
export function useRuntime(options: {
  apiKey: string;
  baseUrl: string;
  restUrl?: string;
  serverlessUrl?: string;
  /** Where readiness probes reach a pod's HTTP ports. @default RunPod's proxy */
  proxyUrl?: string;
  clock?: Clock;
  /** @default fast retries (1-2 ms backoff) */
  clientOptions?: ClientOptions;
  watcher?: { minIntervalMs?: number; maxIntervalMs?: number };
}): { progress: string[]; providers: HostProviders; context: InstanceType<typeof runtimeLib.HostContext> } {
  const settings: Record<string, string> = {
    "runpod:apiKey": options.apiKey,
    "runpod:baseUrl": options.baseUrl,
    "runpod:restUrl": options.restUrl ?? options.baseUrl,
    "runpod:serverlessUrl": options.serverlessUrl ?? options.baseUrl,
    ...(options.proxyUrl ? { "runpod:proxyUrl": options.proxyUrl } : {}),
  };
  const lines: string[] = [];
  const context = new runtimeLib.HostContext({
    settings: clientLib.resolveSettings((k) => settings[k], process.env),
    clock: options.clock ?? clientLib.realClock,
    clientOptions: options.clientOptions ?? { retry: FAST_RETRY },
    ...(options.watcher ? { watcher: options.watcher } : {}),
    progress: (line) => lines.push(line),
  });
  return { progress: lines, providers: runtimeLib.providersFor(context), context };
}

/** Providers whose check and diff print nowhere, for tests of check and diff alone (no API call). */
export function quietProviders(): HostProviders {
  return runtimeLib.providersFor(
    new runtimeLib.HostContext({
      settings: clientLib.resolveSettings(() => undefined, process.env),
      clock: clientLib.realClock,
      progress: () => undefined,
    }),
  );
}

/** Points the in-process provider runtime at `emu`; returns the progress lines it prints. */
export function useEmulator(
  emu: RunningEmulator,
  watcher: { minIntervalMs?: number; maxIntervalMs?: number } = {},
) {
  return useRuntime({
    apiKey: emu.apiKey,
    ...emulatorUrls(emu),
    clock: emulatorClock(emu),
    clientOptions: { retry: { ...FAST_RETRY, maxTimeoutMs: 5 } },
    watcher,
  });
}

/**
 * Before each test, a fresh emulator at 50 times real speed and a host context of the test's own
 * pointed at it (handed to `use` with its providers); both closed after the test. With
 * `firstSeed`, each emulator gets the next random seed.
 */
export function freshEmulatorForEachTest(
  options: { firstSeed?: number } & Pick<EmulatorOptions, "seed">,
  use: (t: { emu: RunningEmulator; progress: string[]; providers: HostProviders }) => void,
): void {
  let next = options.firstSeed;
  let emu: RunningEmulator | undefined;
  let context: { close(): void } | undefined;
  beforeEach(async () => {
    emu = await emulatorLib.startEmulator({
      clockScale: 50,
      ...(next === undefined ? {} : { randomSeed: next++ }),
      ...(options.seed ? { seed: options.seed } : {}),
    });
    const runtime = useEmulator(emu);
    context = runtime.context;
    use({ emu, progress: runtime.progress, providers: runtime.providers });
  });
  afterEach(async () => {
    context?.close();
    await emu?.close();
  });
}
