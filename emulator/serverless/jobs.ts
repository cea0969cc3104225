/**
 * Jobs on hosted model endpoints and serverless endpoints under serverless_url (docs/api-model.md, Jobs; RunPod's serverless operations, as the `runpod-sdk`
 * npm package calls them): `POST /v2/{endpoint_id}/run`, `/runsync`, `GET /status/{job_id}`,
 * `/status-sync/{job_id}`, `/stream/{job_id}`, `POST /cancel/{job_id}`, `/retry/{job_id}`,
 * `/purge-queue` and `GET /health`. Serverless endpoints (`/v2/serverless`) of type QUEUE take
 * jobs; LOAD_BALANCER endpoints take none (400): their requests go to the workers' own HTTP paths.
 *
 * A job's whole life is fixed when it is submitted (or retried): when it starts, when it ends,
 * whether it fails, and its status is read off the emulator clock on every read, so a frozen
 * clock holds a job still and `advance` moves it exactly: IN_QUEUE for settings.jobQueueMs,
 * IN_PROGRESS for settings.jobRunMs, then COMPLETED, FAILED, or TIMED_OUT when the run is longer
 * than `policy.executionTimeout` (else the endpoint's `timeout`). `/cancel` ends a queued or running
 * job CANCELLED at once; `/retry` requeues a FAILED or TIMED_OUT job under the same id.
 *
 * Serverless endpoint jobs go round-robin to the endpoint's worker slots (routes.ts). A job
 * stays IN_QUEUE for good when the endpoint allows no workers (`workers.max` 0) or its image
 * cannot start (pods/containers.ts): the service queues jobs no worker takes.
 *
 * Emulator conventions (the service's own behaviour depends on the model):
 * - `input.fail === true` makes the job end FAILED, so tests can script a failure; otherwise a job
 *   fails with probability settings.jobFailureShare, drawn from the seeded random source.
 * - `input.stream`, an array, makes the echo worker a streaming handler: it yields the items one
 *   by one, evenly spaced over its run, which `/stream` hands out as `{output}` chunks. Any other
 *   job yields its output as one chunk when it completes.
 * - Hosted model costs: image $0.0025 per megapixel (`width` x `height`, default 1024 x 1024);
 *   video $0.06 per second of `duration` (default 5); audio $0.05 per 1000 characters of `text`
 *   (or `prompt`). Serverless endpoints run an echo worker: the output is `{ echo: input }`.
 * - Results are kept until the endpoint is deleted (the service expires them after 30 minutes,
 *   1 for /runsync); webhooks are accepted and never called.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { badRequest, notFound, unprocessable } from "../http/errors.js";
import { json, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { RunRequest } from "../schemas/jobs.js";
import { type EndpointRecord, type JobRecord, NEVER } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { findEndpoint } from "./endpoints.js";
import { checkpointEndpoint } from "./usage.js";
import { endpointWorkers, jobEnd, workerIdFor, workersHealthy } from "./workers.js";

type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";

const IMAGE_USD_PER_MEGAPIXEL = 0.0025;
const VIDEO_USD_PER_SECOND = 0.06;
const AUDIO_USD_PER_1000_CHARS = 0.05;
/** Longest `?wait=` a /runsync or /status-sync takes (the service's 5 minutes). */
const MAX_WAIT_MS = 300_000;

/** What a job failed by `input.fail` reports in `error`. */
export const REQUESTED_FAILURE = "Emulated failure: the job input set fail to true.";
/** What a job failed by settings.jobFailureShare reports in `error`. */
export const RANDOM_FAILURE = "Emulated worker failure (settings.jobFailureShare).";

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** What answers jobs at an endpoint id: a serverless endpoint (echo worker) or a seeded hosted model. */
type Target =
  | { kind: "echo"; endpoint: EndpointRecord }
  | { kind: "image" | "video" | "audio" | "echo"; endpoint?: undefined };

/** The account's serverless endpoint, or a hosted model (public: every account may call it). */
function requireTarget(state: Store, endpointId: string, account: string): Target {
  const endpoint = findEndpoint(state, endpointId, account);
  if (endpoint) {
    if (endpoint.type === "LOAD_BALANCER") {
      throw badRequest(
        `Endpoint '${endpointId}' is a LOAD_BALANCER endpoint: it has no job queue; send requests to its workers (requestUrls.base).`,
      );
    }
    return { kind: "echo", endpoint };
  }
  const model = state.seed.hostedModels.find((m) => m.id === endpointId);
  if (!model) throw notFound(`Endpoint '${endpointId}' was not found.`);
  return { kind: model.kind };
}

function requireJob(state: Store, ctx: RouteContext): { job: JobRecord; target: Target } {
  const endpointId = ctx.params.endpointId ?? "";
  const jobId = ctx.params.jobId ?? "";
  const target = requireTarget(state, endpointId, ctx.account);
  const job = state.jobs.get(jobId);
  if (!job || job.endpointId !== endpointId)
    throw notFound(`Job '${jobId}' was not found on endpoint '${endpointId}'.`);
  return { job, target };
}

/** Job ids look like the service's: a UUID with a `-u1` suffix. */
function newJobId(state: Store): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(state.random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}-u1`;
}

const timedOut = (job: JobRecord) => job.timeoutMs !== undefined && job.endsAt - job.startsAt > job.timeoutMs;

function jobStatus(state: Store, job: JobRecord, now = state.now()): JobStatus {
  if (job.cancelledAt !== undefined) return "CANCELLED";
  if (now < job.startsAt) return "IN_QUEUE";
  if (now < jobEnd(job)) return "IN_PROGRESS";
  return timedOut(job) ? "TIMED_OUT" : job.fails ? "FAILED" : "COMPLETED";
}

const isTerminal = (status: JobStatus) => status !== "IN_QUEUE" && status !== "IN_PROGRESS";

function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The model-specific output (docs/api-model.md, Jobs; Limits). */
function outputOf(job: JobRecord): Record<string, unknown> {
  const input = job.input;
  const asset = `${job.endpointId}/${job.id}`;
  switch (job.kind) {
    case "image": {
      const megapixels = (positiveNumber(input.width, 1024) * positiveNumber(input.height, 1024)) / 1_000_000;
      return {
        image_url: `https://image.runpod.ai/${asset}.png`,
        cost: round4(megapixels * IMAGE_USD_PER_MEGAPIXEL),
      };
    }
    case "video":
      return {
        video_url: `https://video.runpod.ai/${asset}.mp4`,
        cost: round4(positiveNumber(input.duration, 5) * VIDEO_USD_PER_SECOND),
      };
    case "audio": {
      const text =
        typeof input.text === "string" ? input.text : typeof input.prompt === "string" ? input.prompt : "";
      return {
        audio_url: `https://audio.runpod.ai/${asset}.mp3`,
        cost: round4((text.length / 1000) * AUDIO_USD_PER_1000_CHARS),
      };
    }
    case "echo":
      return { echo: input };
  }
}

function errorOf(job: JobRecord): string {
  if (timedOut(job)) return `Job timed out after ${job.timeoutMs} ms (its execution timeout).`;
  return job.input.fail === true ? REQUESTED_FAILURE : RANDOM_FAILURE;
}

/**
 * The Job object as the service shows it at each stage: only `id` and `status` while queued (or
 * cancelled before it started); `delayTime` and `workerId` once a worker took it; `executionTime`
 * and `output` (or `error`) once it ended. Times are milliseconds.
 */
export function jobView(state: Store, job: JobRecord): Record<string, unknown> {
  const status = jobStatus(state, job);
  const started = job.startsAt <= Math.min(state.now(), job.cancelledAt ?? NEVER);
  if (!started) return { id: job.id, status };
  const base = { id: job.id, status, delayTime: job.startsAt - job.submittedAt, workerId: job.workerId };
  if (status === "IN_PROGRESS") return base;
  const executionTime = jobEnd(job) - job.startsAt;
  if (status === "COMPLETED") return { ...base, executionTime, output: outputOf(job) };
  if (status === "CANCELLED") return { ...base, executionTime };
  return { ...base, executionTime, error: errorOf(job) };
}

// ---------------------------------------------------------------- submit

/** When a job submitted (or retried) at `at` starts and ends, and on which worker. */
function plan(state: Store, target: Target, job: Pick<JobRecord, "input">, at: number) {
  const { jobQueueMs, jobRunMs, jobFailureShare } = state.settings;
  const fails = job.input.fail === true || (jobFailureShare > 0 && state.random() < jobFailureShare);
  const e = target.endpoint;
  if (!e) return { startsAt: at + jobQueueMs, endsAt: at + jobQueueMs + jobRunMs, fails };
  const takable = e.workers.max > 0 && workersHealthy(state, e);
  return takable
    ? { startsAt: at + jobQueueMs, endsAt: at + jobQueueMs + jobRunMs, fails }
    : { startsAt: NEVER, endsAt: NEVER, fails };
}

function submit(ctx: RouteContext, sync: boolean): JobRecord {
  const { state } = ctx;
  const endpointId = ctx.params.endpointId ?? "";
  const target = requireTarget(state, endpointId, ctx.account);
  const body = validateBody(RunRequest, ctx.body);
  const e = target.endpoint;
  let worker: { workerId: string; workerIndex?: number };
  if (e) {
    const slots = e.workers.max;
    const index = slots > 0 ? e.jobCount % slots : undefined;
    e.jobCount += 1;
    worker =
      index === undefined ? { workerId: "" } : { workerId: workerIdFor(e.id, index), workerIndex: index };
  } else {
    worker = { workerId: state.newId() };
  }
  const timeoutMs = body.policy?.executionTimeout ?? e?.timeout;
  const job: JobRecord = {
    id: newJobId(state),
    endpointId,
    input: body.input,
    submittedAt: ctx.now,
    ...plan(state, target, body, ctx.now),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...worker,
    kind: target.kind,
    sync,
    retries: 0,
    streamed: 0,
  };
  state.jobs.set(job.id, job);
  return job;
}

/** `?wait=` in milliseconds, 0 to MAX_WAIT_MS (422 otherwise); the settings' wait when absent. */
function waitParam(ctx: RouteContext): number {
  const raw = ctx.query.get("wait");
  if (raw === null) return ctx.state.settings.runsyncWaitMs;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > MAX_WAIT_MS) {
    throw unprocessable(
      [`query.wait: expected an integer from 0 to ${MAX_WAIT_MS} (milliseconds)`],
      "Query parameters do not match the contract.",
    );
  }
  return n;
}

/**
 * Waits, in real time, while the emulator clock runs, for the job to end, unless it would end
 * after `until` (emulator time) or the clock is frozen (nothing would ever happen).
 */
async function waitForEnd(state: Store, job: JobRecord, until: number): Promise<void> {
  while (!isTerminal(jobStatus(state, job)) && jobEnd(job) <= until) {
    const realMs = state.clock.realMsUntil(jobEnd(job));
    if (!Number.isFinite(realMs)) break;
    // One extra millisecond absorbs timer rounding; the loop re-reads the clock, so a clock
    // scale changed meanwhile is honoured. The timer does not keep a closing process alive.
    await sleep(Math.ceil(realMs) + 1, undefined, { ref: false });
  }
}

/** `/run` answers at once; the caller polls `/status` (docs/api-model.md, Jobs, polling guidance). */
function runJob(ctx: RouteContext) {
  const job = submit(ctx, false);
  return json(200, { id: job.id, status: "IN_QUEUE" });
}

/**
 * `/runsync` waits for the job to end and answers with it; when the job would end later than
 * `?wait=` (default settings.runsyncWaitMs) of emulator time after it was submitted, or the clock
 * is frozen, it answers with the job still IN_QUEUE or IN_PROGRESS and the client polls `/status`.
 */
async function runJobSync(ctx: RouteContext) {
  const wait = waitParam(ctx);
  const job = submit(ctx, true);
  await waitForEnd(ctx.state, job, job.submittedAt + wait);
  return json(200, jobView(ctx.state, job));
}

function jobStatusRoute(ctx: RouteContext) {
  const { job } = requireJob(ctx.state, ctx);
  return json(200, jobView(ctx.state, job));
}

/** `/status-sync/{job_id}?wait=`: `/status`, after waiting as `/runsync` does (runpod-sdk's runSync polls it). */
async function jobStatusSync(ctx: RouteContext) {
  const wait = waitParam(ctx);
  const { job } = requireJob(ctx.state, ctx);
  await waitForEnd(ctx.state, job, ctx.now + wait);
  return json(200, jobView(ctx.state, job));
}

// ---------------------------------------------------------------- stream, cancel, retry, purge

/** The chunks a job yields, each with the time it is yielded. */
function chunks(job: JobRecord): { at: number; output: unknown }[] {
  const end = jobEnd(job);
  const items = job.input.stream;
  if (job.kind === "echo" && Array.isArray(items) && items.length > 0) {
    const run = job.endsAt - job.startsAt;
    return items
      .map((output, i) => ({
        at: Math.min(job.startsAt + Math.ceil(((i + 1) * run) / items.length), job.endsAt),
        output,
      }))
      .filter((c) => c.at <= end);
  }
  return job.fails || timedOut(job) || job.cancelledAt !== undefined
    ? []
    : [{ at: job.endsAt, output: outputOf(job) }];
}

/**
 * `/stream/{job_id}`: `{id, status, stream: [{output}]}` with the chunks yielded since the last
 * `/stream` read (each is handed out once), `error` once it failed. runpod-sdk reads it until the
 * status is terminal.
 */
function streamJob(ctx: RouteContext) {
  const { state } = ctx;
  const { job } = requireJob(state, ctx);
  // One instant for both: a status read a moment after the chunks could say COMPLETED while the
  // last chunk, yielded in between, is not handed out, and the client stops reading.
  const status = jobStatus(state, job, ctx.now);
  const ready = chunks(job).filter((c) => c.at <= ctx.now);
  const fresh = ready.slice(job.streamed);
  job.streamed = ready.length;
  const failed = status === "FAILED" || status === "TIMED_OUT";
  return json(200, {
    id: job.id,
    status,
    stream: fresh.map((c) => ({ output: c.output })),
    ...(failed ? { error: errorOf(job) } : {}),
  });
}

/** `/cancel/{job_id}`: a queued or running job ends CANCELLED now; an ended one is left as it is. */
function cancelJob(ctx: RouteContext) {
  const { state } = ctx;
  const { job } = requireJob(state, ctx);
  if (!isTerminal(jobStatus(state, job))) job.cancelledAt = ctx.now;
  return json(200, { id: job.id, status: jobStatus(state, job) });
}

/** `/retry/{job_id}`: FAILED and TIMED_OUT jobs only (400 otherwise); same id, output removed. */
function retryJob(ctx: RouteContext) {
  const { state } = ctx;
  const { job, target } = requireJob(state, ctx);
  const status = jobStatus(state, job);
  if (status !== "FAILED" && status !== "TIMED_OUT") {
    throw badRequest(`Job '${job.id}' is ${status}; only FAILED or TIMED_OUT jobs can be retried.`);
  }
  // The retry replaces the job's times, and with them its worker's: what it used so far is billed first.
  if (target.endpoint) checkpointEndpoint(state, target.endpoint, ctx.now);
  Object.assign(job, { submittedAt: ctx.now, ...plan(state, target, job, ctx.now), streamed: 0 });
  job.retries += 1;
  return json(200, { id: job.id, status: jobStatus(state, job) });
}

/** `/purge-queue`: removes every job still waiting; running jobs go on. */
function purgeQueue(ctx: RouteContext) {
  const { state } = ctx;
  const endpointId = ctx.params.endpointId ?? "";
  const target = requireTarget(state, endpointId, ctx.account);
  // Purged jobs take their workers' time with them: what they used so far is billed first.
  if (target.endpoint) checkpointEndpoint(state, target.endpoint, ctx.now);
  let removed = 0;
  for (const [id, job] of state.jobs) {
    if (job.endpointId === endpointId && jobStatus(state, job) === "IN_QUEUE") {
      state.jobs.delete(id);
      removed += 1;
    }
  }
  return json(200, { removed, status: "completed" });
}

/**
 * `/health`: job counts by status (`failed` counts FAILED and TIMED_OUT; cancelled jobs are in no
 * count) and worker counts. `ready` counts the workers done initializing (idle or running).
 * A hosted model has no workers of its own: its running jobs count as running workers.
 */
function health(ctx: RouteContext) {
  const { state } = ctx;
  const endpointId = ctx.params.endpointId ?? "";
  const target = requireTarget(state, endpointId, ctx.account);
  const jobs = { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 };
  for (const job of state.jobs.values()) {
    if (job.endpointId !== endpointId) continue;
    jobs.retried += job.retries;
    const status = jobStatus(state, job);
    if (status === "COMPLETED") jobs.completed += 1;
    else if (status === "FAILED" || status === "TIMED_OUT") jobs.failed += 1;
    else if (status === "IN_PROGRESS") jobs.inProgress += 1;
    else if (status === "IN_QUEUE") jobs.inQueue += 1;
  }
  const workers = target.endpoint ? endpointWorkers(state, target.endpoint, ctx.now) : [];
  const count = (s: string) => workers.filter((w) => w.status === s).length;
  const running = target.endpoint ? count("RUNNING") : jobs.inProgress;
  return json(200, {
    jobs,
    workers: {
      idle: count("IDLE"),
      initializing: count("INITIALIZING"),
      ready: count("IDLE") + running,
      running,
      throttled: count("THROTTLED"),
      unhealthy: count("UNHEALTHY"),
    },
  });
}

export const jobRoutes: RouteTable = {
  serverless: [
    { method: "POST", pattern: "/v2/:endpointId/run", handler: runJob },
    { method: "POST", pattern: "/v2/:endpointId/runsync", handler: runJobSync },
    { method: "GET", pattern: "/v2/:endpointId/status/:jobId", handler: jobStatusRoute },
    { method: "GET", pattern: "/v2/:endpointId/status-sync/:jobId", handler: jobStatusSync },
    { method: "GET", pattern: "/v2/:endpointId/stream/:jobId", handler: streamJob },
    { method: "POST", pattern: "/v2/:endpointId/cancel/:jobId", handler: cancelJob },
    { method: "POST", pattern: "/v2/:endpointId/retry/:jobId", handler: retryJob },
    { method: "POST", pattern: "/v2/:endpointId/purge-queue", handler: purgeQueue },
    { method: "GET", pattern: "/v2/:endpointId/health", handler: health },
  ],
};
