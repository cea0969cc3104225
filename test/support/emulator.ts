/**
 * Starts the compiled emulator in-process and a real typed client pointed at it, for one test or
 * for all of a file's; raw HTTP for what the client will not send; and what the default seed
 * holds, as the tests expect it.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
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
 * it frozen for the next; the clock is not set back, so a test reads its times from `t0`.
 */
export function frozenEmulatorForAllTests(each: { reset?: boolean } = {}): SharedEmulator {
  const shared = startedForAllTests<SharedEmulator>(
    async () => {
      const { emu, api } = await frozenEmulator({ startTime: START });
      return { emu, api, client: api.client, t0: START };
    },
    ({ emu }) => emu.close(),
  );
  beforeEach(() => {
    if (each.reset) shared.emu.control.reset();
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

// ---------------------------------------------------------------- raw HTTP by surface

// For the tests that must not go through the provider's client: a call answers status, headers and
// parsed body; `ok` throws a Problem on a non-2xx answer and `problem` turns a failed call into
// what the tests compare.

export type Surface = "base" | "rest" | "serverless";

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body the tests index freely.
  body: any;
}

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: string[],
  ) {
    super(`${status} ${detail}`);
  }
}

/**
 * Calls on `target`: an emulator, or a file's shared one (read at each call, so that the calls can
 * be set up when the file loads, before the emulator has started).
 */
export function http(target: RunningEmulator | SharedEmulator) {
  const base = (surface: Surface) => {
    const emu = "baseUrl" in target ? target : target.emu;
    return surface === "base" ? emu.baseUrl : surface === "rest" ? emu.restUrl : emu.serverlessUrl;
  };
  const call = async (
    method: string,
    surface: Surface,
    path: string,
    body?: unknown,
    options: { key?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const res = await raw(`${base(surface)}${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.headers ? { headers: options.headers } : {}),
    });
    return { status: res.status, headers: res.headers, body: res.body };
  };
  /** The body of a 2xx answer, or a thrown Problem. */
  const ok = async (answer: Promise<Answer>) => {
    const a = await answer;
    if (a.status === 204) return undefined;
    if (a.status >= 200 && a.status < 300) return a.body;
    throw new Problem(a.status, a.body?.detail ?? "", a.body?.errors ?? []);
  };
  return {
    call,
    ok,
    get: (surface: Surface, path: string) => call("GET", surface, path),
    post: (surface: Surface, path: string, body?: unknown) => call("POST", surface, path, body),
    patch: (surface: Surface, path: string, body?: unknown) => call("PATCH", surface, path, body),
    del: (surface: Surface, path: string) => call("DELETE", surface, path),
  };
}

/** The job calls under serverless_url, made with `c`: each answers a 2xx's body or throws a Problem. */
export function jobCalls(c: ReturnType<typeof http>) {
  return {
    runJob: (id: string, input: Record<string, unknown>) =>
      c.ok(c.post("serverless", `/v2/${id}/run`, { input })),
    runJobSync: (id: string, input: Record<string, unknown>) =>
      c.ok(c.post("serverless", `/v2/${id}/runsync`, { input })),
    getJobStatus: (id: string, jobId: string) => c.ok(c.get("serverless", `/v2/${id}/status/${jobId}`)),
  };
}

/** Status, detail and validation errors of a failed call (`errors` [] when the answer has none). */
export async function problem(answer: Promise<Answer | unknown>) {
  try {
    const a = await answer;
    if (a && typeof a === "object" && "status" in a && "body" in a) {
      const { status, body } = a as Answer;
      if (status >= 400) return { status, detail: body?.detail, errors: body?.errors ?? [] };
    }
  } catch (err) {
    if (err instanceof Problem) return { status: err.status, detail: err.detail, errors: err.errors };
    throw err;
  }
  throw new Error("expected the call to fail");
}

// ---------------------------------------------------------------- request bodies

/** A pod body: one A40 in US-KS-2 running acme/app:1, whose container starts and stays up. */
export const APP_POD = {
  name: "p",
  image: "acme/app:1",
  gpu: { id: "NVIDIA A40" },
  dataCenterIds: ["US-KS-2"],
};

/** A v2 endpoint body: QUEUE, scaled by queue delay, on the ADA_24 pool, with `fields` (name, image...). */
export function queueEndpoint(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    type: "QUEUE",
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    gpu: { pools: ["ADA_24"] },
    ...fields,
  };
}

// ---------------------------------------------------------------- the default seed, as the suites expect it

/** The default seed's hub listings by stars, descending (hub-draft, the last, has no release). */
export const HUB_BY_STARS = [
  "hub-comfy",
  "hub-jupyter",
  "hub-comfy-pod",
  "hub-vllm",
  "hub-ollama",
  "hub-sdxl",
  "hub-axolotl",
  "hub-whisper",
  "hub-flux-lora",
  "hub-embed",
  "hub-cpu-tts",
  "hub-draft",
];

/** A hub listing summary's fields (what LISTINGS_QUERY selects), in the order the CLI prints them. */
export const HUB_SUMMARY_FIELDS = [
  "id",
  "title",
  "repoOwner",
  "repoName",
  "type",
  "category",
  "description",
  "tags",
  "stars",
  "deploys",
  "views",
  "language",
  "createdAt",
  "updatedAt",
];

/** hub-vllm's release config, the JSON string as the seed holds it and the hub answers it. */
export const HUB_VLLM_CONFIG =
  '{"runsOn":"GPU","containerDiskInGb":30,"gpuIds":"AMPERE_80,ADA_80_PRO","gpuCount":1,"allowedCudaVersions":["12.4"],"env":[{"key":"MODEL_NAME","input":{"default":"Qwen/Qwen2.5-7B-Instruct"}},{"key":"MAX_MODEL_LEN","input":{"default":8192}}]}';

/** The job routes the emulator gives a queue endpoint, under its serverless address `serverlessUrl`. */
export function queueUrls(serverlessUrl: string, id: string) {
  const at = `${serverlessUrl}/v2/${id}`;
  return {
    run: `${at}/run`,
    runSync: `${at}/runsync`,
    status: `${at}/status/{job_id}`,
    stream: `${at}/stream/{job_id}`,
    cancel: `${at}/cancel/{job_id}`,
    retry: `${at}/retry/{job_id}`,
    purgeQueue: `${at}/purge-queue`,
    health: `${at}/health`,
  };
}
