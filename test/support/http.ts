/**
 * Raw HTTP to the emulator, for the tests that must not go through the provider's client (bad
 * JSON, wrong types, no auth, the job routes as RunPod's own clients call them).
 */
import { emulatorLib, type RunningEmulator, type SharedEmulator } from "./emulator.js";

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
