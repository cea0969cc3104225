/**
 * A faithful local RunPod API: the embedded default for every example, test and benchmark.
 *
 * @example
 * const emu = await startEmulator();
 * process.env.RUNPOD_API_KEY = emu.apiKey;
 * process.env.RUNPOD_BASE_URL = emu.baseUrl; // and serverlessUrl
 * await emu.close();
 * @packageDocumentation
 * @module runpod-dynamic/emulator
 */

import type { WindowPolicy } from "./http/rate-limit.js";
import { EmulatorControl } from "./platform/control.js";
import { allRoutes } from "./platform/routes.js";
import { listen } from "./platform/server.js";
import { EmulatorState } from "./platform/state.js";
import { PodNetwork } from "./pods/network.js";
import { DEFAULT_API_KEY } from "./seed/default.js";
import type { SeedInput } from "./seed/schema.js";
import { EmulatorClock } from "./store/clock.js";
import type { Settings } from "./store/settings.js";

export { DEFAULT_USER_ID } from "./account/accounts.js";
export type { FaultRuleInput } from "./http/faults.js";
export { DEFAULT_POLICY, type WindowPolicy } from "./http/rate-limit.js";
export type { LoggedRequest } from "./http/request-log.js";
export { type ApiKeyOptions, type CapacityChange, EmulatorControl } from "./platform/control.js";
export { EmulatorState } from "./platform/state.js";
export { BEHAVIOUR_KINDS, type ContainerBehaviour } from "./schemas/container-behaviour.js";
export type { LoadSegment, PodLoadTimelineInput } from "./schemas/pod-load.js";
export {
  DEFAULT_API_KEY,
  defaultSeed,
  EXEMPT_API_KEY,
  HISTORY_ENDPOINTS,
  HISTORY_PODS,
  LIMITED_API_KEY,
  seedProblems,
} from "./seed/default.js";
export type { Seed, SeedInput } from "./seed/schema.js";
export { EmulatorClock } from "./store/clock.js";
export type { LoadTimeline } from "./store/pod-records.js";
export { DEFAULT_SETTINGS, type Settings } from "./store/settings.js";

export interface EmulatorOptions {
  /** @default "127.0.0.1" */
  readonly host?: string;
  /** Fixed ports; 0 or absent picks a free one. */
  readonly ports?: { readonly base?: number; readonly rest?: number; readonly serverless?: number };
  /** Top-level keys replacing the default seed's. */
  readonly seed?: Partial<SeedInput>;
  readonly settings?: Partial<Settings>;
  /** Emulator time runs this many times faster than real time; 0 freezes it. @default 1 */
  readonly clockScale?: number;
  /** Emulator time at start, ms since the epoch. @default now */
  readonly startTime?: number;
  /** Seed of the emulator's random source (ids, ERROR share, fault probabilities). */
  readonly randomSeed?: number;
  readonly rateLimit?: readonly WindowPolicy[];
  /** Serve the `/__emulator/` control plane over HTTP. @default false */
  readonly control?: boolean;
  /**
   * Open a real listener for every pod's `<port>/tcp` and an HTTP proxy for its `<port>/http`
   * (pods/network.ts), so readiness probes reach the pod. Off, pods show made-up public addresses
   * nothing answers on. @default true
   */
  readonly servePorts?: boolean;
}

export interface RunningEmulator {
  /** `{base_url}`: pods, clusters, catalog, account, templates, network volumes, registries, serverless, billing, hub GraphQL. */
  readonly baseUrl: string;
  /**
   * `{rest_url}`: where REST v1 was. RunPod retired it on 2026-11-15: every `/v1` request here
   * answers 410 Gone, naming the v2 route under `baseUrl` that replaces it.
   */
  readonly restUrl: string;
  /** `{serverless_url}`: jobs. */
  readonly serverlessUrl: string;
  /**
   * `{podId}`/`{port}` template of a pod's HTTP proxy address (RunPod's is
   * `https://{podId}-{port}.proxy.runpod.net`); empty when `servePorts` is off.
   */
  readonly proxyUrl: string;
  /** A key the emulator accepts. */
  readonly apiKey: string;
  readonly state: EmulatorState;
  readonly control: EmulatorControl;
  /** RUNPOD_* variables pointing a client at this emulator. */
  env(): Record<string, string>;
  /** `runpod:*` stack configuration pointing the provider at this emulator. */
  pulumiConfig(): Record<string, string>;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = new EmulatorClock(options.startTime ?? Date.now(), options.clockScale ?? 1);
  const state = new EmulatorState({
    clock,
    ...(options.seed ? { seed: options.seed } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.randomSeed === undefined ? {} : { randomSeed: options.randomSeed }),
  });
  const control = new EmulatorControl(state);
  if (options.rateLimit) control.setRateLimitPolicy(options.rateLimit);
  const host = options.host ?? "127.0.0.1";
  const listeners = await listen(state, allRoutes(), {
    host,
    ports: {
      v2: options.ports?.base ?? 0,
      rest: options.ports?.rest ?? 0,
      serverless: options.ports?.serverless ?? 0,
    },
    control: options.control ? (m, p, q, b) => control.handle(m, p, q, b) : undefined,
  });
  const url = (surface: string) => listeners.find((l) => l.surface === surface)?.url ?? "";
  const baseUrl = url("v2");
  const restUrl = url("rest");
  const serverlessUrl = url("serverless");
  // Responses that carry URLs (serverless requestUrls) point at these listeners.
  state.urls = { base: baseUrl, rest: restUrl, serverless: serverlessUrl };
  const network = options.servePorts === false ? undefined : new PodNetwork(state, host);
  await network?.start();
  state.podPorts = network;
  const proxyUrl = network?.proxyUrl ?? "";
  return {
    baseUrl,
    restUrl,
    serverlessUrl,
    proxyUrl,
    apiKey: DEFAULT_API_KEY,
    state,
    control,
    env: () => ({
      RUNPOD_API_KEY: DEFAULT_API_KEY,
      RUNPOD_BASE_URL: baseUrl,
      ...(proxyUrl ? { RUNPOD_PROXY_URL: proxyUrl } : {}),
      RUNPOD_SERVERLESS_URL: serverlessUrl,
    }),
    pulumiConfig: () => ({
      "runpod:apiKey": DEFAULT_API_KEY,
      "runpod:baseUrl": baseUrl,
      "runpod:serverlessUrl": serverlessUrl,
      ...(proxyUrl ? { "runpod:proxyUrl": proxyUrl } : {}),
    }),
    close: async () => {
      await network?.close();
      await Promise.all(
        listeners.map(
          (l) =>
            new Promise<void>((resolve) => {
              l.server.closeAllConnections();
              l.server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
