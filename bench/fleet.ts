/**
 * Scenario 1: a fleet of pods created concurrently in one process under the default quota (60
 * requests a minute), on identical fresh emulators, by four strategies: ours (the Pod provider
 * with its shared watcher and rate-limit budget) on an account that never ran a pod of the fleet's
 * kind, ours on one that runs one already (an earlier deployment's, created by another process
 * before the fleet's clock starts and not counted), and per-pod polling every 1 s and every 5 s:
 * one read per pod per interval, the simplest way to wait for many pods. The baselines live here
 * only; they are not product code.
 */
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../emulator/index.js";
import type { Clock } from "../provider/client/clock.js";
import { realClock } from "../provider/client/clock.js";
import { resolveSettings } from "../provider/client/config.js";
import { HostContext, providersFor } from "../provider/dynamic/runtime.js";

export type Strategy = "ours" | "ours-seen" | "poll-1s" | "poll-5s";

export interface FleetOptions {
  readonly n: number;
  /** Emulator seconds from create to RUNNING. */
  readonly tSeconds: number;
  /** Emulator time runs this many times faster than real time. */
  readonly scale: number;
}

export interface FleetResult {
  readonly strategy: Strategy;
  readonly n: number;
  readonly tSeconds: number;
  /** Emulator seconds from the first create until the last pod was known RUNNING. */
  readonly allRunningSeconds: number;
  readonly ratioToT: number;
  readonly requests: number;
  readonly byRoute: Record<string, number>;
  readonly status429: number;
  /** Emulator seconds between a pod becoming RUNNING and the caller learning it: median, p90, max. */
  readonly lagMedian: number;
  readonly lagP90: number;
  readonly lagMax: number;
  readonly failures: number;
}

/** Where every fleet runs: a GPU type and data center with room for any fleet (freshEmulator). */
export const FLEET_GPU = "NVIDIA A40";
export const FLEET_DC = "US-KS-2";
/**
 * The fleet's pods are done at RUNNING (`readiness.settle` 0): the default 30 s of settling would
 * add 30 s to every pod's time and lag alike and hide what the watcher and the budget do.
 */
export const FLEET_READINESS = { settle: 0 };

/** The `q` quantile of `sorted` (nearest rank); NaN when it is empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))] ?? Number.NaN;
}

/**
 * A fresh emulator for one run: time `o.scale` times faster than real time, pods `o.tSeconds` of
 * emulator time from create to RUNNING (a third provisioning, two thirds starting), a fixed random
 * seed, and room for any fleet of FLEET_GPU in FLEET_DC. `options` adds to or replaces these.
 */
export async function freshEmulator(
  o: Pick<FleetOptions, "scale" | "tSeconds">,
  options: EmulatorOptions = {},
): Promise<RunningEmulator> {
  const emu = await startEmulator({
    clockScale: o.scale,
    randomSeed: 7,
    settings: { provisioningMs: (o.tSeconds * 1000) / 3, startingMs: (o.tSeconds * 2000) / 3 },
    ...options,
  });
  emu.control.setCapacity({ dataCenterId: FLEET_DC, gpuTypeId: FLEET_GPU, free: 10_000, total: 10_000 });
  return emu;
}

/**
 * The providers of a host context pointed at `emu`, on its clock, silent (progress lines would
 * swamp the tables); with that clock.
 */
export function useEmulatorRuntime(emu: RunningEmulator): {
  clock: Clock;
  providers: ReturnType<typeof providersFor>;
} {
  const clock = emulatorClockOf(emu);
  const config: Record<string, string> = emu.pulumiConfig();
  const context = new HostContext({
    settings: resolveSettings((k) => config[k]),
    clock,
    progress: () => undefined,
  });
  return { clock, providers: providersFor(context) };
}

export function emulatorClockOf(emu: RunningEmulator): Clock {
  return {
    now: () => emu.control.now(),
    sleep: (ms, signal) => realClock.sleep(ms / emu.state.clock.rate, signal),
  };
}

/** A naive client: create, then GET the pod every `intervalS` until RUNNING, waiting out 429s. */
async function pollingPod(
  emu: RunningEmulator,
  clock: Clock,
  name: string,
  intervalS: number,
): Promise<number> {
  const headers = { authorization: `Bearer ${emu.apiKey}`, "content-type": "application/json" };
  const body = JSON.stringify({ name, image: "img:1", gpu: { id: FLEET_GPU }, dataCenterIds: [FLEET_DC] });
  const call = async (url: string, init: RequestInit): Promise<Response> => {
    for (;;) {
      const res = await fetch(url, init);
      if (res.status !== 429) return res;
      await res.arrayBuffer();
      await clock.sleep(Number(res.headers.get("retry-after") ?? "1") * 1000);
    }
  };
  const created = await call(`${emu.baseUrl}/v2/pods`, { method: "POST", headers, body });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    await clock.sleep(intervalS * 1000);
    const res = await call(`${emu.baseUrl}/v2/pods/${id}`, { headers });
    const pod = (await res.json()) as { status: string };
    if (pod.status === "RUNNING") return clock.now();
    if (pod.status === "ERROR") throw new Error("ERROR");
  }
}

/** The figures of one run: when each pod was seen RUNNING (`done`) against when it became RUNNING. */
export function fleetResult(
  strategy: Strategy,
  o: FleetOptions,
  emu: RunningEmulator,
  start: number,
  done: readonly { name: string; at: number }[],
  failures: number,
): FleetResult {
  const runningAt = new Map(emu.control.snapshot().pods.map((p) => [p.name, p.runningAt]));
  const lags = done.map((d) => (d.at - (runningAt.get(d.name) ?? d.at)) / 1000).sort((a, b) => a - b);
  const { summary } = emu.control.requests();
  const last = Math.max(...done.map((d) => d.at), start);
  return {
    strategy,
    n: o.n,
    tSeconds: o.tSeconds,
    allRunningSeconds: (last - start) / 1000,
    ratioToT: (last - start) / 1000 / o.tSeconds,
    requests: summary.total,
    byRoute: summary.byRoute,
    status429: summary.byStatus["429"] ?? 0,
    lagMedian: quantile(lags, 0.5),
    lagP90: quantile(lags, 0.9),
    lagMax: lags.at(-1) ?? Number.NaN,
    failures,
  };
}

/**
 * One pod of the fleet's kind created and RUNNING by another process (its own host context) before
 * the fleet starts, as an earlier deployment leaves one; the requests it took are not counted, and
 * the fleet starts a quota window later, in a window of its own.
 */
export async function podOfTheKindOnTheAccount(emu: RunningEmulator): Promise<void> {
  const { providers, clock } = useEmulatorRuntime(emu);
  await providers.Pod.create({
    name: "earlier",
    image: "img:1",
    gpu: { id: FLEET_GPU },
    dataCenterIds: [FLEET_DC],
    readiness: FLEET_READINESS,
  });
  await clock.sleep(QUOTA_WINDOW_MS);
  emu.control.clearRequests();
}

/** The emulator's shortest rate-limit window (a minute). */
const QUOTA_WINDOW_MS = 60_000;

/**
 * `n` pods created at once through the Pod provider of a fresh host context on `emu`: when each
 * create returned (its pod known RUNNING), and how many failed.
 */
export async function createFleet(
  emu: RunningEmulator,
  n: number,
): Promise<{ done: { name: string; at: number }[]; failures: number }> {
  const { providers, clock } = useEmulatorRuntime(emu);
  const results = await Promise.allSettled(
    Array.from({ length: n }, async (_, i) => {
      await providers.Pod.create({
        name: `fleet-${i}`,
        image: "img:1",
        gpu: { id: FLEET_GPU },
        dataCenterIds: [FLEET_DC],
        readiness: FLEET_READINESS,
      });
      return { name: `fleet-${i}`, at: clock.now() };
    }),
  );
  const done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  return { done, failures: results.length - done.length };
}

export async function runFleet(strategy: Strategy, o: FleetOptions): Promise<FleetResult> {
  const emu = await freshEmulator(o);
  const clock = emulatorClockOf(emu);
  try {
    if (strategy === "ours-seen") await podOfTheKindOnTheAccount(emu);
    const start = clock.now();
    let done: { name: string; at: number }[];
    let failures = 0;
    if (strategy === "ours" || strategy === "ours-seen") {
      ({ done, failures } = await createFleet(emu, o.n));
    } else {
      const interval = strategy === "poll-1s" ? 1 : 5;
      const results = await Promise.allSettled(
        Array.from({ length: o.n }, async (_, i) => ({
          name: `fleet-${i}`,
          at: await pollingPod(emu, clock, `fleet-${i}`, interval),
        })),
      );
      done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      failures = results.length - done.length;
    }
    return fleetResult(strategy, o, emu, start, done, failures);
  } finally {
    await emu.close();
  }
}
