/** Starts the compiled emulator in-process and a real typed client pointed at it. */
import { afterEach, beforeEach } from "vitest";
import { clientLib, loadDist } from "./dist.js";

export const emulatorLib = loadDist<typeof import("../../emulator/index.js")>("emulator/index.js");
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

/** A raw HTTP call, for what the typed client refuses to send (bad JSON, wrong types, no auth). */
export async function raw(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; key?: string | null } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? emulatorLib.DEFAULT_API_KEY}`;
  if (init.body !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown> };
}
