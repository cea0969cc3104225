/**
 * The one request pipeline (octokit/request.js style): build the URL, add auth, send with a
 * deadline through the shared keep-alive pool, parse by content type, map non-2xx to a typed
 * error, validate 2xx with the response schema. Every resource, the CLI and the catalog functions
 * go through `RunpodClient.request`; nothing else in this package talks HTTP.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import type { z } from "zod";
import { type Clock, realClock } from "./clock.js";
import { type RunpodSettings, requireApiKey } from "./config.js";
import {
  adviceFor,
  codeForStatus,
  ERROR_CODES,
  type RequestOutcome,
  RunpodApiError,
  type RunpodErrorCode,
  redact,
} from "./errors.js";
import { type RateLimitBudget, RateLimitBudgets, type RequestPriority } from "./rate-limit.js";
import { DEFAULT_RETRY, type RetryOptions, withRetries } from "./retry.js";
import { MAX_REQUEST_BYTES, Problem } from "./schemas/common.js";
import { PACKAGE_VERSION } from "./version.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** Which base address a path is relative to (contract: address placeholders). */
export type ApiBase = "v2" | "serverless";

export interface RequestSpec<T> {
  readonly method: HttpMethod;
  readonly base: ApiBase;
  /** Path under the base address, starting with `/` (e.g. `/v2/pods`). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
  readonly body?: unknown;
  /** Strict schema the body must satisfy before it is sent. */
  readonly requestSchema?: z.ZodType;
  /**
   * Largest body sent on the v2 base; a larger one fails here, unsent. @default 102400 bytes, the
   * pods' limit (contract: Limits)
   */
  readonly maxBodyBytes?: number;
  /** Values of the body that are secrets besides its env (a secret's value): kept out of every error. */
  readonly secretValues?: readonly string[];
  /** Loose schema a 2xx body must satisfy. Without one, the body is returned as parsed JSON. */
  readonly responseSchema?: z.ZodType<T>;
  /** Whether repeating the request is harmless. @default true except for POST */
  readonly idempotent?: boolean;
  /** Deadline for the whole exchange, response body included. @default the client's */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal | undefined;
  /** `background` for polls: spread out when the quota runs low. @default "foreground" */
  readonly priority?: RequestPriority | undefined;
}

export interface EventStreamSpec {
  readonly base: ApiBase;
  readonly path: string;
  readonly query?: RequestSpec<unknown>["query"];
  /** Resume after this event (the stream's `Last-Event-ID`). */
  readonly lastEventId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** @default "background" */
  readonly priority?: RequestPriority | undefined;
}

export interface ClientOptions {
  /** @default the real clock */
  readonly clock?: Clock;
  /** @default DEFAULT_RETRY */
  readonly retry?: Partial<RetryOptions>;
  /** Per-request deadline. @default 30000 */
  readonly deadlineMs?: number;
  /** One budget for every request of this client. @default the budget of `budgets` for the origin and key */
  readonly budget?: RateLimitBudget;
  /**
   * Where the budget per origin and key comes from; clients sharing it space their requests
   * together. @default the process's, per clock
   */
  readonly budgets?: RateLimitBudgets;
}

/** Process-wide state: one keep-alive pool per origin, one budget per quota. */
interface SharedState {
  agent: Agent;
  /** Long-lived event streams, apart from the pool requests use. */
  streams: Agent;
  budgets: WeakMap<Clock, RateLimitBudgets>;
}

const SHARED_KEY = Symbol.for("runpod-dynamic.client.shared");

function shared(): SharedState {
  const g = globalThis as { [SHARED_KEY]?: SharedState };
  g[SHARED_KEY] ??= {
    agent: new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32 }),
    streams: new Agent({ keepAliveTimeout: 1000 }),
    budgets: new WeakMap(),
  };
  return g[SHARED_KEY];
}

/** The budget every client of this process without its own `budgets` shares for one origin and key. */
export function sharedBudget(origin: string, apiKey: string, clock: Clock): RateLimitBudget {
  const state = shared();
  let budgets = state.budgets.get(clock);
  if (!budgets) {
    budgets = new RateLimitBudgets(clock);
    state.budgets.set(clock, budgets);
  }
  return budgets.for(origin, apiKey);
}

const USER_AGENT = `runpod-dynamic/${PACKAGE_VERSION} (node ${process.version})`;
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "EHOSTUNREACH",
]);

export class RunpodClient {
  readonly clock: Clock;
  private readonly retry: RetryOptions;
  private readonly deadlineMs: number;
  private readonly dispatcher: Dispatcher;

  constructor(
    readonly settings: RunpodSettings,
    private readonly options: ClientOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.dispatcher = shared().agent;
  }

  /** The budget this client's requests to `base` go through. */
  budgetFor(base: ApiBase): RateLimitBudget {
    const origin = new URL(this.baseUrl(base)).origin;
    const apiKey = requireApiKey(this.settings);
    return (
      this.options.budget ??
      this.options.budgets?.for(origin, apiKey) ??
      sharedBudget(origin, apiKey, this.clock)
    );
  }

  /** Sends one request under the retry policy and returns the validated body (undefined for 204). */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const apiKey = requireApiKey(this.settings);
    const url = this.buildUrl(spec);
    const shown = `${url.pathname}${url.search}`;
    let body: string | undefined;
    if (spec.body !== undefined) {
      if (spec.requestSchema) checkRequestBody(spec, shown);
      body = JSON.stringify(spec.body);
      const bytes = Buffer.byteLength(body);
      const limit = spec.maxBodyBytes ?? MAX_REQUEST_BYTES;
      if (spec.base !== "serverless" && bytes > limit) {
        throw new RunpodApiError({
          code: ERROR_CODES.PAYLOAD_TOO_LARGE,
          message: `${spec.method} ${shown}: the request body is ${bytes} bytes, over the ${limit}-byte limit; it was not sent. ${adviceFor(ERROR_CODES.PAYLOAD_TOO_LARGE)}`,
          method: spec.method,
          url: shown,
          outcome: "not-sent",
        });
      }
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: "application/json, application/problem+json",
      "user-agent": USER_AGENT,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.settings.teamId) headers["x-team-id"] = this.settings.teamId;

    const budget = this.budgetFor(spec.base);
    const idempotent = spec.idempotent ?? spec.method !== "POST";
    const secrets = [apiKey, ...envValues(spec.body), ...(spec.secretValues ?? [])];
    return withRetries(() => this.attempt(spec, url, shown, headers, body, budget, secrets), {
      idempotent,
      options: this.retry,
      budget,
      signal: spec.signal,
    });
  }

  private baseUrl(base: ApiBase): string {
    switch (base) {
      case "v2":
        return this.settings.baseUrl;
      case "serverless":
        return this.settings.serverlessUrl;
    }
  }

  private buildUrl(spec: RequestSpec<unknown>): URL {
    const url = new URL(this.baseUrl(spec.base) + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v === undefined) continue;
      url.searchParams.set(k, Array.isArray(v) ? v.join(",") : String(v));
    }
    return url;
  }

  private async attempt<T>(
    spec: RequestSpec<T>,
    url: URL,
    shown: string,
    headers: Record<string, string>,
    body: string | undefined,
    budget: RateLimitBudget,
    secrets: readonly string[],
  ): Promise<T> {
    const ticket = await budget.acquire(spec.signal, spec.priority ?? "foreground");
    const deadlineMs = spec.deadlineMs ?? this.deadlineMs;
    const controller = new AbortController();
    let timedOut = false;
    // The deadline is wall-clock time on purpose: it bounds how long a connection may hang, which
    // has nothing to do with the service's clock that the budget follows.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("deadline"));
    }, deadlineMs);
    const onCallerAbort = () => controller.abort(spec.signal?.reason);
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const fail = (code: RunpodErrorCode, message: string, outcome: RequestOutcome, cause?: unknown) =>
      new RunpodApiError({
        code,
        message: redact(`${spec.method} ${shown}: ${message} ${adviceFor(code)}`.trim(), secrets),
        method: spec.method,
        url: shown,
        outcome,
        cause,
      });

    let status: number;
    let responseHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const res = await undiciRequest(url, {
        method: spec.method,
        headers,
        body: body ?? null,
        dispatcher: this.dispatcher,
        signal: controller.signal,
      });
      status = res.statusCode;
      responseHeaders = res.headers;
      text = await res.body.text();
    } catch (err) {
      if (timedOut) {
        throw fail(
          ERROR_CODES.TIMEOUT,
          `no complete response within ${deadlineMs} ms.`,
          spec.method === "GET" ? "rejected" : "unknown",
        );
      }
      if (spec.signal?.aborted) {
        throw fail(ERROR_CODES.ABORTED, "cancelled by the caller.", "unknown", spec.signal.reason);
      }
      const code = networkErrorCode(err);
      const outcome: RequestOutcome = code && NOT_SENT_CODES.has(code) ? "not-sent" : "unknown";
      throw fail(
        ERROR_CODES.NETWORK,
        `network failure (${code ?? (err instanceof Error ? err.message : "unknown")}) talking to ${url.origin}.`,
        outcome,
        err,
      );
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
      ticket.release();
    }

    budget.observe({
      rateLimit: headerValue(responseHeaders, "ratelimit"),
      policy: headerValue(responseHeaders, "ratelimit-policy"),
    });
    const contentType = headerValue(responseHeaders, "content-type") ?? "";

    if (status >= 200 && status < 300) {
      return parseSuccess(spec, status, contentType, text, (message) =>
        fail(ERROR_CODES.INVALID_RESPONSE, message, "unknown"),
      );
    }

    throw rejection(spec.method, shown, status, responseHeaders, contentType, text, secrets);
  }

  /**
   * Opens a server-sent event stream (a GET) and yields its events until the server ends it or
   * `signal` aborts (then it just returns). One request under the budget, at background priority
   * unless told; a non-2xx answer throws the same typed errors as `request`. Never retried: a
   * caller that wants more resumes from the last event's id (`lastEventId`).
   */
  async *events(spec: EventStreamSpec): AsyncGenerator<EventSourceMessage> {
    const apiKey = requireApiKey(this.settings);
    const url = this.buildUrl({ method: "GET", base: spec.base, path: spec.path, query: spec.query ?? {} });
    const shown = `${url.pathname}${url.search}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: "text/event-stream, application/problem+json",
      "user-agent": USER_AGENT,
      ...(this.settings.teamId ? { "x-team-id": this.settings.teamId } : {}),
      ...(spec.lastEventId ? { "last-event-id": spec.lastEventId } : {}),
    };
    const broken = (what: string, err: unknown) =>
      new RunpodApiError({
        code: ERROR_CODES.NETWORK,
        message: redact(
          `GET ${shown}: ${what} (${networkErrorCode(err) ?? (err instanceof Error ? err.message : "unknown")}) talking to ${url.origin}.`,
          [apiKey],
        ),
        method: "GET",
        url: shown,
        outcome: "rejected",
        cause: err,
      });
    const budget = this.budgetFor(spec.base);
    const ticket = await budget.acquire(spec.signal, spec.priority ?? "background");
    let res: Dispatcher.ResponseData;
    try {
      // Streams stay open for minutes: they get their own pool, so they never hold the
      // connections other requests need.
      res = await undiciRequest(url, {
        method: "GET",
        headers,
        dispatcher: shared().streams,
        signal: spec.signal,
        headersTimeout: this.deadlineMs,
        bodyTimeout: 0,
      });
    } catch (err) {
      if (spec.signal?.aborted) return;
      throw broken("network failure", err);
    } finally {
      ticket.release();
    }
    budget.observe({
      rateLimit: headerValue(res.headers, "ratelimit"),
      policy: headerValue(res.headers, "ratelimit-policy"),
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const text = await res.body.text();
      const contentType = headerValue(res.headers, "content-type") ?? "";
      throw rejection("GET", shown, res.statusCode, res.headers, contentType, text, [apiKey]);
    }
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
        while (events.length > 0) yield events.shift() as EventSourceMessage;
      }
    } catch (err) {
      if (spec.signal?.aborted) return;
      throw broken("the event stream broke", err);
    } finally {
      res.body.destroy();
    }
  }
}

/** The typed error of a non-2xx answer, its texts scrubbed of `secrets`. */
function rejection(
  method: HttpMethod,
  shown: string,
  status: number,
  responseHeaders: Record<string, string | string[] | undefined>,
  contentType: string,
  text: string,
  secrets: readonly string[],
): RunpodApiError {
  const problem = parseProblem(contentType, text);
  const code = codeForStatus(status);
  const requestId = headerValue(responseHeaders, "x-request-id");
  const retryAfterSeconds = code === ERROR_CODES.RATE_LIMITED ? retryAfter(responseHeaders) : undefined;
  const title = problem?.title ?? `HTTP ${status}`;
  const detail = problem?.detail;
  const errors = problem?.errors ?? [];
  const parts = [`${status} ${title}${detail ? `: ${detail}` : ""}`];
  if (errors.length > 0) parts.push(`(${errors.join("; ")})`);
  const sentence = parts.join(" ").replace(/[.!?]?$/, ".");
  const message = redact(`${method} ${shown}: ${sentence} ${adviceFor(code)}`.trim(), secrets);
  return new RunpodApiError({
    code,
    message,
    status,
    title: redact(title, secrets),
    detail: detail === undefined ? undefined : redact(detail, secrets),
    errors: errors.map((e) => redact(e, secrets)),
    requestId,
    retryAfterSeconds,
    method,
    url: shown,
    outcome: "rejected",
  });
}

/** Paths and rules only: values may be secrets (env). */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => `${["$", ...i.path.map(String)].join(".")}: ${i.message}`);
}

function checkRequestBody(spec: RequestSpec<unknown>, shown: string): void {
  const result = spec.requestSchema?.safeParse(spec.body);
  if (!result || result.success) return;
  const issues = describeIssues(result.error.issues);
  throw new RunpodApiError({
    code: ERROR_CODES.INVALID_REQUEST,
    message: `${spec.method} ${shown}: the request body was not sent because it breaks the API contract: ${issues.join("; ")}.`,
    errors: issues,
    method: spec.method,
    url: shown,
    outcome: "not-sent",
  });
}

function parseSuccess<T>(
  spec: RequestSpec<T>,
  status: number,
  contentType: string,
  text: string,
  invalid: (message: string) => RunpodApiError,
): T {
  if (status === 204 || text.trim() === "") {
    if (spec.responseSchema) {
      const empty = spec.responseSchema.safeParse(undefined);
      if (!empty.success) throw invalid(`expected a body, got ${status} with none.`);
      return empty.data;
    }
    return undefined as T;
  }
  if (/application\/problem\+json/i.test(contentType)) {
    const problem = parseProblem(contentType, text);
    throw invalid(
      `status ${status} carried an error body${problem ? ` (${problem.title}: ${problem.detail})` : ""}.`,
    );
  }
  if (!/json/i.test(contentType)) throw invalid(`expected JSON, got ${contentType || "no content type"}.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid("the body is not valid JSON.");
  }
  if (!spec.responseSchema) return parsed as T;
  const result = spec.responseSchema.safeParse(parsed);
  if (!result.success) {
    const issues = describeIssues(result.error.issues.slice(0, 5)).join("; ");
    throw invalid(`the body does not have the expected shape: ${issues}.`);
  }
  return result.data;
}

function parseProblem(contentType: string, text: string): Problem | undefined {
  if (!/json/i.test(contentType)) return undefined;
  try {
    const r = Problem.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** `Retry-After` in integer seconds (contract: Limits). An HTTP date is honoured too. */
function retryAfter(headers: Record<string, string | string[] | undefined>): number | undefined {
  const v = headerValue(headers, "retry-after");
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function networkErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The request's env values, kept out of everything built from the answer: a service may echo the
 * request. Values shorter than 8 characters ("1", "true", "batch") are left alone: they are not
 * what a secret looks like, and removing them would garble the message.
 */
function envValues(body: unknown): string[] {
  const env = (body as { env?: unknown } | undefined)?.env;
  if (env === null || typeof env !== "object") return [];
  return Object.values(env).filter((v): v is string => typeof v === "string" && v.length >= 8);
}
