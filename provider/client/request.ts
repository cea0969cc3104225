/**
 * The one request pipeline (octokit/request.js style): build the URL, add auth, send with a
 * deadline through the shared keep-alive pool, parse by content type, map non-2xx to a typed
 * error, validate 2xx with the response schema. Every resource, the CLI and the catalog functions
 * go through `RunpodClient.request`; nothing else in this package talks HTTP. What an answer becomes
 * (a validated body, a typed error) is responses.ts; the shared pools and budgets are pools.ts; an
 * event stream's reading is event-stream.ts.
 */
import type { EventSourceMessage } from "eventsource-parser";
import { type Dispatcher, request as undiciRequest } from "undici";
import type { z } from "zod";
import { type Clock, realClock } from "./clock.js";
import { type RunpodSettings, requireApiKey } from "./config.js";
import {
  adviceFor,
  ERROR_CODES,
  type RequestOutcome,
  RunpodApiError,
  type RunpodErrorCode,
  redact,
} from "./errors.js";
import { readEventStream } from "./event-stream.js";
import { requestPool, sharedBudget } from "./pools.js";
import type { RateLimitBudget } from "./rate-limit.js";
import type { RateLimitBudgets } from "./rate-limit-budgets.js";
import type { RequestPriority } from "./rate-limit-types.js";
import { encodeBody } from "./request-body.js";
import {
  checkRequestBody,
  envValues,
  headerValue,
  networkErrorCode,
  networkFailureName,
  parseSuccess,
  type ResponseHeaders,
  rateLimitHeaders,
  rejection,
} from "./responses.js";
import { DEFAULT_RETRY, type RetryOptions, withRetries } from "./retry.js";
import { MAX_REQUEST_BYTES } from "./schemas/common.js";
import { PACKAGE_VERSION } from "./version.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** Which base address a path is relative to (docs/api-model.md, Addresses). */
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
   * Largest body sent on the v2 base, in bytes of its compact UTF-8 JSON; a larger one fails here,
   * unsent. @default 102400 bytes, the pods' limit on the body as sent (docs/api-model.md, Limits)
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
    this.dispatcher = requestPool();
  }

  /** The budget this client's requests to `base` go through. */
  budgetFor(base: ApiBase): RateLimitBudget {
    const origin = new URL(this.baseUrl(base)).origin;
    const apiKey = requireApiKey(this.settings);
    return (
      this.options.budget ??
      this.options.budgets?.for(origin, apiKey) ??
      sharedBudget(origin, apiKey, this.clock, this.settings.quotaShareForOthers)
    );
  }

  /** Sends one request under the retry policy and returns the validated body (undefined for 204). */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const apiKey = requireApiKey(this.settings);
    const url = this.buildUrl(spec);
    const shown = `${url.pathname}${url.search}`;
    let body: string | undefined;
    if (spec.body !== undefined) {
      if (spec.requestSchema) checkRequestBody(spec.method, shown, spec.requestSchema, spec.body);
      const { text, bytes } = encodeBody(spec.body);
      body = text;
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
    const headers = this.headers(apiKey, "application/json, application/problem+json");
    if (body !== undefined) headers["content-type"] = "application/json";

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

  /**
   * Opens a server-sent event stream (a GET) and yields its events until the server ends it or
   * `signal` aborts (then it just returns). One request under the budget, at background priority
   * unless told; a non-2xx answer throws the same typed errors as `request`. Never retried: a
   * caller that wants more resumes from the last event's id (`lastEventId`).
   */
  async *events(spec: EventStreamSpec): AsyncGenerator<EventSourceMessage> {
    const apiKey = requireApiKey(this.settings);
    const headers = this.headers(apiKey, "text/event-stream, application/problem+json");
    if (spec.lastEventId) headers["last-event-id"] = spec.lastEventId;
    yield* readEventStream({
      url: this.buildUrl({ method: "GET", base: spec.base, path: spec.path, query: spec.query ?? {} }),
      headers,
      budget: this.budgetFor(spec.base),
      priority: spec.priority ?? "background",
      signal: spec.signal,
      headersTimeoutMs: this.deadlineMs,
      secrets: [apiKey],
      configNamespace: this.settings.configNamespace,
    });
  }

  /** What every request and event stream carries: the key, the answers taken, who asks, the team. */
  private headers(apiKey: string, accept: string): Record<string, string> {
    return {
      authorization: `Bearer ${apiKey}`,
      accept,
      "user-agent": USER_AGENT,
      ...(this.settings.teamId ? { "x-team-id": this.settings.teamId } : {}),
    };
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
        message: redact(
          `${spec.method} ${shown}: ${message} ${adviceFor(code, this.settings.configNamespace)}`.trim(),
          secrets,
        ),
        method: spec.method,
        url: shown,
        outcome,
        cause,
      });

    let status: number;
    let responseHeaders: ResponseHeaders;
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
        `network failure (${networkFailureName(err)}) talking to ${url.origin}.`,
        outcome,
        err,
      );
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
      ticket.release();
    }

    budget.observe(rateLimitHeaders(responseHeaders));
    const contentType = headerValue(responseHeaders, "content-type") ?? "";

    if (status >= 200 && status < 300) {
      return parseSuccess(spec.responseSchema, status, contentType, text, (message) =>
        fail(ERROR_CODES.INVALID_RESPONSE, message, "unknown"),
      );
    }

    throw rejection(
      spec.method,
      shown,
      status,
      responseHeaders,
      contentType,
      text,
      secrets,
      this.settings.configNamespace,
    );
  }
}
