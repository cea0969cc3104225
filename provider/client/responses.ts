/**
 * What the request pipeline makes of an answer, and the typed errors it builds: a 2xx body checked
 * against its schema, a non-2xx answer turned into a `RunpodApiError` (problem+json detail,
 * request id, Retry-After), a body checked before it is sent. Every text that reaches an error is
 * scrubbed of the key and the request's secrets.
 */
import type { z } from "zod";
import { adviceFor, codeForStatus, ERROR_CODES, RunpodApiError, redact } from "./errors.js";
import { Problem } from "./schemas/common.js";

/** Response headers as undici gives them. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The typed error of a non-2xx answer, its texts scrubbed of `secrets`. */
export function rejection(
  method: string,
  shown: string,
  status: number,
  responseHeaders: ResponseHeaders,
  contentType: string,
  text: string,
  secrets: readonly string[],
  configNamespace: string,
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
  const message = redact(
    `${method} ${shown}: ${sentence} ${adviceFor(code, configNamespace)}`.trim(),
    secrets,
  );
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

/** Throws, before anything is sent, when `body` breaks `schema` (the API contract). */
export function checkRequestBody(method: string, shown: string, schema: z.ZodType, body: unknown): void {
  const result = schema.safeParse(body);
  if (result.success) return;
  const issues = describeIssues(result.error.issues);
  throw new RunpodApiError({
    code: ERROR_CODES.INVALID_REQUEST,
    message: `${method} ${shown}: the request body was not sent because it breaks the API contract: ${issues.join("; ")}.`,
    errors: issues,
    method,
    url: shown,
    outcome: "not-sent",
  });
}

/**
 * The body of a 2xx answer, validated with `responseSchema` when there is one; `invalid` builds the
 * error of a body that is not what the contract says.
 */
export function parseSuccess<T>(
  responseSchema: z.ZodType<T> | undefined,
  status: number,
  contentType: string,
  text: string,
  invalid: (message: string) => RunpodApiError,
): T {
  if (status === 204 || text.trim() === "") {
    if (responseSchema) {
      const empty = responseSchema.safeParse(undefined);
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
  if (!responseSchema) return parsed as T;
  const result = responseSchema.safeParse(parsed);
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

export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** An answer's RateLimit and RateLimit-Policy headers, as the budget observes them. */
export function rateLimitHeaders(headers: ResponseHeaders): {
  rateLimit: string | undefined;
  policy: string | undefined;
} {
  return { rateLimit: headerValue(headers, "ratelimit"), policy: headerValue(headers, "ratelimit-policy") };
}

/** `Retry-After` in integer seconds (docs/api-model.md, Limits). An HTTP date is honoured too. */
function retryAfter(headers: ResponseHeaders): number | undefined {
  const v = headerValue(headers, "retry-after");
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The code of a network failure (`ECONNREFUSED`, `UND_ERR_SOCKET`), looked for down its causes. */
export function networkErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a network failure's message names it by: its code, else its own message. */
export function networkFailureName(err: unknown): string {
  return networkErrorCode(err) ?? (err instanceof Error ? err.message : "unknown");
}

/**
 * The request's env values, kept out of everything built from the answer: a service may echo the
 * request. Values shorter than 8 characters ("1", "true", "batch") are left alone: they are not
 * what a secret looks like, and removing them would garble the message.
 */
export function envValues(body: unknown): string[] {
  const env = (body as { env?: unknown } | undefined)?.env;
  if (env === null || typeof env !== "object") return [];
  return Object.values(env).filter((v): v is string => typeof v === "string" && v.length >= 8);
}
