/**
 * One error hierarchy for every call to the RunPod API.
 *
 * Callers check `err.code`, never `instanceof`: two copies of this module can be loaded in one
 * process (the program's and the provider host's). Messages say what happened and what to do, and
 * never contain the bearer token or a request body (env values are secrets).
 */

export const ERROR_CODES = {
  BAD_REQUEST: "RUNPOD_BAD_REQUEST",
  UNAUTHORIZED: "RUNPOD_UNAUTHORIZED",
  PAYMENT_REQUIRED: "RUNPOD_PAYMENT_REQUIRED",
  FORBIDDEN: "RUNPOD_FORBIDDEN",
  NOT_FOUND: "RUNPOD_NOT_FOUND",
  CONFLICT: "RUNPOD_CONFLICT",
  PAYLOAD_TOO_LARGE: "RUNPOD_PAYLOAD_TOO_LARGE",
  UNPROCESSABLE: "RUNPOD_UNPROCESSABLE",
  RATE_LIMITED: "RUNPOD_RATE_LIMITED",
  SERVER_ERROR: "RUNPOD_SERVER_ERROR",
  HTTP_ERROR: "RUNPOD_HTTP_ERROR",
  NETWORK: "RUNPOD_NETWORK",
  TIMEOUT: "RUNPOD_TIMEOUT",
  ABORTED: "RUNPOD_ABORTED",
  INVALID_RESPONSE: "RUNPOD_INVALID_RESPONSE",
  INVALID_REQUEST: "RUNPOD_INVALID_REQUEST",
  INVALID_CONFIG: "RUNPOD_INVALID_CONFIG",
  /** No placement candidate took the pod: `PlacementError`, its `answerCode` the decisive answer's. */
  PLACEMENT_FAILED: "RUNPOD_PLACEMENT_FAILED",
  /** A job wait reached its deadline before the job ended: `JobWaitTimeoutError`. */
  JOB_WAIT_TIMEOUT: "RUNPOD_JOB_WAIT_TIMEOUT",
} as const;

/**
 * Failures that are not an answer of the API, each with a code of its own: a pod that never reached
 * what was waited for, a container its log says will never start, a job that ended FAILED.
 */
export const FAILURE_CODES = {
  WAIT_FAILED: "RUNPOD_WAIT_FAILED",
  CONTAINER_FAILED: "RUNPOD_CONTAINER_FAILED",
  JOB_FAILED: "RUNPOD_JOB_FAILED",
} as const;

export type FailureCode = (typeof FAILURE_CODES)[keyof typeof FAILURE_CODES];

export type RunpodErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * Whether the request may have taken effect. `not-sent`: it never left this process. `rejected`:
 * the service answered with an error, so nothing was applied. `unknown`: the connection broke or
 * the deadline passed after the request was sent; a create may have happened.
 */
export type RequestOutcome = "not-sent" | "rejected" | "unknown";

export interface RunpodErrorInit {
  code: RunpodErrorCode;
  message: string;
  status?: number | undefined;
  title?: string | undefined;
  detail?: string | undefined;
  errors?: readonly string[] | undefined;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  method?: string | undefined;
  url?: string | undefined;
  outcome?: RequestOutcome | undefined;
  attempts?: number | undefined;
  cause?: unknown;
}

export class RunpodApiError extends Error {
  override readonly name = "RunpodApiError";
  readonly code: RunpodErrorCode;
  readonly status: number | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly errors: readonly string[];
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The request as it may be shown: method and URL, never headers or body. */
  readonly request: { readonly method: string; readonly url: string } | undefined;
  readonly outcome: RequestOutcome;
  attempts: number;

  constructor(init: RunpodErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.request = init.method && init.url ? { method: init.method, url: init.url } : undefined;
    this.outcome = init.outcome ?? "rejected";
    this.attempts = init.attempts ?? 1;
  }
}

/** `code`-based type guard; works across module copies. */
export function isRunpodApiError(err: unknown, ...codes: RunpodErrorCode[]): err is RunpodApiError {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { name?: unknown; code?: unknown };
  if (e.name !== "RunpodApiError" || typeof e.code !== "string") return false;
  return codes.length === 0 || codes.includes(e.code as RunpodErrorCode);
}

/**
 * `code`-based check for the failures of FAILURE_CODES. Like `isRunpodApiError`, it works across
 * module copies; each class's module narrows it to the class (`isWaitFailure`, `isContainerFailure`,
 * `isJobFailed`).
 */
export function hasFailureCode(err: unknown, code: FailureCode): err is Error & { code: FailureCode } {
  return err instanceof Error && (err as { code?: unknown }).code === code;
}

/** An error's message, or what was thrown as text when it is not an Error. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Failures after which a write may still have taken effect: the service may have done it. */
const UNANSWERED_CODES: readonly RunpodErrorCode[] = [
  ERROR_CODES.SERVER_ERROR,
  ERROR_CODES.NETWORK,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.INVALID_RESPONSE,
];

/** Failures worth asking a read again for, once the client's own retries are spent. */
const TRANSIENT_CODES: readonly RunpodErrorCode[] = [
  ERROR_CODES.SERVER_ERROR,
  ERROR_CODES.NETWORK,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.RATE_LIMITED,
];

/** Whether a write failed without an answer that says what happened (it may have taken effect). */
export function isUnanswered(err: unknown): err is RunpodApiError {
  return isRunpodApiError(err, ...UNANSWERED_CODES);
}

/**
 * Whether a failed write may have taken effect anyway. A request that never left this process
 * (`not-sent`) did not, and the client already retried it.
 */
export function mayHaveLanded(err: unknown): err is RunpodApiError {
  return isUnanswered(err) && err.outcome !== "not-sent";
}

/** Whether a failed read is worth asking again for later (the service or the network may recover). */
export function isTransient(err: unknown): err is RunpodApiError {
  return isRunpodApiError(err, ...TRANSIENT_CODES);
}

/**
 * How the service says a data center has no machine for the request. Capacity has no code of its
 * own, only a 400's human-readable detail (docs/api-model.md, Errors), so the wording is matched: the
 * service's two phrasings seen in the field, and the emulator's, which uses the first.
 */
const CAPACITY_WORDING = [
  /no longer any instances available/i,
  /no instances available with the request(ed)? specifications/i,
];

/** Whether an error is a 400 whose detail says "out of capacity" rather than "bad request". */
export function isCapacityError(err: unknown): boolean {
  return (
    isRunpodApiError(err, ERROR_CODES.BAD_REQUEST) &&
    CAPACITY_WORDING.some((w) => w.test(err.detail ?? err.message))
  );
}

/** The stable code for an HTTP status. */
export function codeForStatus(status: number): RunpodErrorCode {
  switch (status) {
    case 400:
      return ERROR_CODES.BAD_REQUEST;
    case 401:
      return ERROR_CODES.UNAUTHORIZED;
    case 402:
      return ERROR_CODES.PAYMENT_REQUIRED;
    case 403:
      return ERROR_CODES.FORBIDDEN;
    case 404:
      return ERROR_CODES.NOT_FOUND;
    case 409:
      return ERROR_CODES.CONFLICT;
    case 413:
      return ERROR_CODES.PAYLOAD_TOO_LARGE;
    case 422:
      return ERROR_CODES.UNPROCESSABLE;
    case 429:
      return ERROR_CODES.RATE_LIMITED;
    default:
      return status >= 500 ? ERROR_CODES.SERVER_ERROR : ERROR_CODES.HTTP_ERROR;
  }
}

/**
 * What to do about each failure, following the contract's Errors table; a setting is named in the
 * config namespace of the door the user is on (`runpod` or `runpod-dynamic`).
 */
export function adviceFor(code: RunpodErrorCode, namespace = "runpod"): string {
  switch (code) {
    case ERROR_CODES.BAD_REQUEST:
      return "The service rejected the request; fix the fields named in the detail (for a pod create this can also mean no capacity for that GPU in that data center).";
    case ERROR_CODES.UNAUTHORIZED:
      return `Check the API key (\`pulumi config set --secret ${namespace}:apiKey ...\` or RUNPOD_API_KEY): it is missing, malformed, expired or invalid.`;
    case ERROR_CODES.PAYMENT_REQUIRED:
      return "The account balance is exhausted; add funds in the RunPod console. Nothing was retried.";
    case ERROR_CODES.FORBIDDEN:
      return `The API key is valid but has no access to this resource or action; use a key with that permission, or set ${namespace}:teamId (or RUNPOD_TEAM_ID) for a team resource.`;
    case ERROR_CODES.NOT_FOUND:
      return "It does not exist or this API key cannot see it.";
    case ERROR_CODES.CONFLICT:
      return "The resource is in a state that does not allow this (for example a cluster member pod, or an action not valid for the pod's status).";
    case ERROR_CODES.PAYLOAD_TOO_LARGE:
      return "A pod create's body, and the request it expands to with its template, may each be 102400 bytes at most; reduce the JSON body, environment variables or command values in the request or the template.";
    case ERROR_CODES.UNPROCESSABLE:
      return "The request does not match the API contract; fix the listed fields. It is never retried.";
    case ERROR_CODES.RATE_LIMITED:
      return "The API rate limit was exceeded; wait for the window to reset or lower the number of concurrent operations.";
    case ERROR_CODES.SERVER_ERROR:
      return "RunPod had a transient failure; try again shortly.";
    case ERROR_CODES.NETWORK:
      return "Check network access to the RunPod API and the configured base URLs.";
    case ERROR_CODES.TIMEOUT:
      return "The service did not answer in time; try again, or raise the request deadline.";
    case ERROR_CODES.INVALID_RESPONSE:
      return "The service answered with a body this version does not understand; upgrade runpod-dynamic or report the response.";
    case ERROR_CODES.INVALID_CONFIG:
      return `Fix the provider configuration (${namespace}:* config keys or RUNPOD_* environment variables).`;
    default:
      return "";
  }
}

/** Removes every occurrence of each secret from a text. Applied to anything built from a response. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}
