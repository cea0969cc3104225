/**
 * Jobs on hosted model endpoints and serverless endpoints under serverless_url (contract: "Hosted
 * model endpoint and serverless endpoint jobs"): `POST /v2/{endpoint_id}/run`, `/runsync` and
 * `GET /v2/{endpoint_id}/status/{job_id}`.
 *
 * A job's whole life is fixed when it is submitted (when it starts, when it ends, whether it fails)
 * and its status is read off the emulator clock on every read, so a frozen clock holds a job still
 * and `advance` moves it exactly: IN_QUEUE for settings.jobQueueMs, IN_PROGRESS for
 * settings.jobRunMs, then COMPLETED or FAILED.
 *
 * Emulator conventions (the service's own behaviour depends on the model):
 * - `input.fail === true` makes the job end FAILED, so tests can script a failure; otherwise a job
 *   fails with probability settings.jobFailureShare, drawn from the seeded random source.
 * - Hosted model costs: image $0.0025 per megapixel (`width` x `height`, default 1024 x 1024);
 *   video $0.06 per second of `duration` (default 5); audio $0.05 per 1000 characters of `text`
 *   (or `prompt`). Serverless endpoints run an echo worker: the output is `{ echo: input }`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { RunJobRequest } from "../provider/client/schemas/jobs.js";
import { findEndpoint } from "./endpoints.js";
import { notFound } from "./errors.js";
import { json, type RouteContext, type RouteTable } from "./routing.js";
import type { EmulatorState, JobRecord } from "./state.js";
import { validateBody } from "./validation.js";

type JobStatus = "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "FAILED";

const IMAGE_USD_PER_MEGAPIXEL = 0.0025;
const VIDEO_USD_PER_SECOND = 0.06;
const AUDIO_USD_PER_1000_CHARS = 0.05;

/** What a job failed by `input.fail` reports in `error`. */
export const REQUESTED_FAILURE = "Emulated failure: the job input set fail to true.";
/** What a job failed by settings.jobFailureShare reports in `error`. */
export const RANDOM_FAILURE = "Emulated worker failure (settings.jobFailureShare).";

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The kind of worker behind an endpoint id: an endpoint created through `/v1/endpoints` runs the
 * echo worker; a seeded hosted model runs its own kind. Undefined when there is no such endpoint.
 */
function endpointKind(state: EmulatorState, endpointId: string): JobRecord["kind"] | undefined {
  if (findEndpoint(state, endpointId)) return "echo";
  return state.seed.hostedModels.find((m) => m.id === endpointId)?.kind;
}

function requireEndpointKind(state: EmulatorState, endpointId: string): JobRecord["kind"] {
  const kind = endpointKind(state, endpointId);
  if (!kind) throw notFound(`Endpoint '${endpointId}' was not found.`);
  return kind;
}

/** Job ids look like the service's: a UUID with a `-u1` suffix. */
function newJobId(state: EmulatorState): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(state.random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}-u1`;
}

function jobStatus(state: EmulatorState, job: JobRecord): JobStatus {
  const now = state.now();
  if (now < job.startsAt) return "IN_QUEUE";
  if (now < job.endsAt) return "IN_PROGRESS";
  return job.fails ? "FAILED" : "COMPLETED";
}

const isTerminal = (status: JobStatus) => status === "COMPLETED" || status === "FAILED";

function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The model-specific output (contract: Job object `output`; Limits: output URLs). */
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

/**
 * The Job object as the service shows it at each stage: only `id` and `status` while queued;
 * `delayTime` and `workerId` once a worker took it; `executionTime` and `output` (or `error`)
 * once it ended. Times are milliseconds.
 */
export function jobView(state: EmulatorState, job: JobRecord): Record<string, unknown> {
  const status = jobStatus(state, job);
  if (status === "IN_QUEUE") return { id: job.id, status };
  const started = { id: job.id, status, delayTime: job.startsAt - job.submittedAt, workerId: job.workerId };
  if (status === "IN_PROGRESS") return started;
  const executionTime = job.endsAt - job.startsAt;
  return status === "COMPLETED"
    ? { ...started, executionTime, output: outputOf(job) }
    : { ...started, executionTime, error: job.input.fail === true ? REQUESTED_FAILURE : RANDOM_FAILURE };
}

function submit(ctx: RouteContext): JobRecord {
  const { state } = ctx;
  const endpointId = ctx.params.endpointId ?? "";
  const kind = requireEndpointKind(state, endpointId);
  const { input } = validateBody(RunJobRequest, ctx.body);
  const { jobQueueMs, jobRunMs, jobFailureShare } = state.settings;
  const fails = input.fail === true || (jobFailureShare > 0 && state.random() < jobFailureShare);
  const job: JobRecord = {
    id: newJobId(state),
    endpointId,
    input,
    submittedAt: ctx.now,
    startsAt: ctx.now + jobQueueMs,
    endsAt: ctx.now + jobQueueMs + jobRunMs,
    fails,
    workerId: state.newId(),
    kind,
  };
  state.jobs.set(job.id, job);
  return job;
}

/** `/run` answers at once; the caller polls `/status` (contract: polling guidance). */
function runJob(ctx: RouteContext) {
  const job = submit(ctx);
  return json(200, { id: job.id, status: "IN_QUEUE" });
}

/**
 * `/runsync` waits, in real time, for the job to end while the emulator clock runs. It answers
 * with the job still IN_QUEUE or IN_PROGRESS, and the client then polls `/status`, when the clock
 * is frozen (nothing would ever happen) or when the job would end later than settings.runsyncWaitMs
 * of emulator time after it was submitted (the service's own runsync wait is bounded too).
 */
async function runJobSync(ctx: RouteContext) {
  const { state } = ctx;
  const job = submit(ctx);
  const waitUntil = job.submittedAt + state.settings.runsyncWaitMs;
  while (!isTerminal(jobStatus(state, job)) && job.endsAt <= waitUntil) {
    const realMs = state.clock.realMsUntil(job.endsAt);
    if (!Number.isFinite(realMs)) break;
    // One extra millisecond absorbs timer rounding; the loop re-reads the clock, so a clock
    // scale changed meanwhile is honoured. The timer does not keep a closing process alive.
    await sleep(Math.ceil(realMs) + 1, undefined, { ref: false });
  }
  return json(200, jobView(state, job));
}

function jobStatusRoute(ctx: RouteContext) {
  const { state } = ctx;
  const endpointId = ctx.params.endpointId ?? "";
  const jobId = ctx.params.jobId ?? "";
  requireEndpointKind(state, endpointId);
  const job = state.jobs.get(jobId);
  if (!job || job.endpointId !== endpointId)
    throw notFound(`Job '${jobId}' was not found on endpoint '${endpointId}'.`);
  return json(200, jobView(state, job));
}

export const jobRoutes: RouteTable = {
  serverless: [
    { method: "POST", pattern: "/v2/:endpointId/run", handler: runJob },
    { method: "POST", pattern: "/v2/:endpointId/runsync", handler: runJobSync },
    { method: "GET", pattern: "/v2/:endpointId/status/:jobId", handler: jobStatusRoute },
  ],
};
