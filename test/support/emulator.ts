/**
 * Starts the compiled emulator in-process and a real typed client pointed at it, for one test or
 * for all of a file's, and reads the errors its calls fail with. Raw HTTP is in http.ts, request
 * bodies and what the default seed holds in seed-facts.ts.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { clientLib, loadDist } from "./dist.js";

export const emulatorLib = loadDist<typeof import("../../emulator/index.js")>("emulator/index.js");
type SeedInput = import("../../emulator/index.js").SeedInput;
export type RunningEmulator = Awaited<ReturnType<typeof emulatorLib.startEmulator>>;
export type Api = InstanceType<typeof clientLib.RunpodApi>;

/** A client for `emu` with fast backoff; `apiKey` overrides the emulator's default key. */
export function apiFor(emu: RunningEmulator, apiKey?: string): Api {
  const env = { ...emu.env(), ...(apiKey ? { RUNPOD_API_KEY: apiKey } : {}) };
  const settings = clientLib.resolveSettings(() => undefined, env);
  return new clientLib.RunpodApi(
    new clientLib.RunpodClient(settings, { retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false } }),
  );
}

/** A frozen-clock emulator (time moves only with `control.advance`) with a generous quota. */
export async function frozenEmulator(options: Parameters<typeof emulatorLib.startEmulator>[0] = {}) {
  const emu = await emulatorLib.startEmulator({
    clockScale: 0,
    rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }],
    ...options,
  });
  return { emu, api: apiFor(emu) };
}

/**
 * Before each test, a fresh frozen-clock emulator and a client (handed to `use`); closed after it.
 */
export function frozenEmulatorForEachTest(
  options: Parameters<typeof emulatorLib.startEmulator>[0],
  use: (t: { emu: RunningEmulator; api: Api }) => void,
): void {
  let emu: RunningEmulator | undefined;
  beforeEach(async () => {
    const t = await frozenEmulator(options);
    emu = t.emu;
    use(t);
  });
  afterEach(async () => {
    await emu?.close();
  });
}

/**
 * What `start` answers, shared by all of a file's tests: started before the first test, stopped
 * after the last. The object answered is filled in once `start` has run, so the file can hold it
 * from load time and read it in its tests and hooks.
 */
export function startedForAllTests<T extends object>(
  start: () => Promise<T>,
  stop: (t: T) => Promise<void>,
): T {
  const view = {} as T;
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
    Object.assign(view, started);
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  return view;
}

/**
 * A fixed start for frozen clocks, so that times and the seeded history read the same in every
 * run: 2026-11-21T12:00:00Z.
 */
export const START = Date.UTC(2026, 10, 21, 12);

/** An emulator a test file's tests share, with a client for it. */
export interface SharedEmulator {
  readonly emu: RunningEmulator;
  readonly api: Api;
  readonly client: Api["client"];
  /** Emulator time when the running test began (after the reset, with `reset`). */
  t0: number;
}

/**
 * One frozen-clock emulator, started at START, for all of a file's tests, which are many and short:
 * one emulator each would cost more than they do. With `reset`, each test starts from the seed
 * again (resources, settings, faults, request log), and a test that set the clock running leaves
 * it frozen for the next; the clock is not set back, so a test reads its times from `t0`. `seed`
 * replaces top-level keys of the default seed, at the start and at each reset.
 */
export function frozenEmulatorForAllTests(
  each: { reset?: boolean; seed?: Partial<SeedInput> } = {},
): SharedEmulator {
  const shared = startedForAllTests<SharedEmulator>(
    async () => {
      const { emu, api } = await frozenEmulator({
        startTime: START,
        ...(each.seed ? { seed: each.seed } : {}),
      });
      return { emu, api, client: api.client, t0: START };
    },
    ({ emu }) => emu.close(),
  );
  beforeEach(() => {
    if (each.reset) shared.emu.control.reset(each.seed);
    shared.t0 = shared.emu.control.now();
  });
  if (each.reset) {
    afterEach(() => {
      shared.emu.control.setClockScale(0);
    });
  }
  return shared;
}

/** The HTTP status of the emulator's last answer (from its request log). */
export function lastStatus(h: { readonly emu: RunningEmulator }): number | undefined {
  return h.emu.control.requests().entries.at(-1)?.status;
}

/** The error a promise rejects with (a RunpodApiError from the client). */
export async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (clientLib.isRunpodApiError(err)) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

/**
 * The error a promise rejects with, whatever its class (provider errors are plain Errors with
 * extra fields); fails when the promise resolves. `T` types the extra fields a test reads.
 */
export async function thrown<T extends object = { code?: string; id?: string; status?: number }>(
  p: Promise<unknown>,
): Promise<Error & T> {
  try {
    await p;
  } catch (err) {
    return err as Error & T;
  }
  throw new Error("expected a failure");
}
