/**
 * Jobs on hosted model endpoints and serverless endpoints (`{serverless_url}/v2/{endpoint_id}/...`).
 * Output URLs (`image_url`, `video_url`, `audio_url`) expire after 7 days: copy what you keep.
 */

import { isTerminalJobStatus } from "../client/api/jobs.js";
import type { RunpodApi } from "../client/api.js";
import { FAILURE_CODES, hasFailureCode } from "../client/errors.js";
import type { Job } from "../client/schemas/jobs.js";
import type { Same } from "../resources/same-type.js";
import { programApi } from "./program.js";

/** Input of image models (docs/api-model.md, Jobs). */
export interface ImageModelInput {
  prompt: string;
  width?: number;
  height?: number;
  num_inference_steps?: number;
  guidance?: number;
  [field: string]: unknown;
}

/** Media outputs. URLs expire after 7 days. */
export interface MediaOutput {
  image_url?: string;
  video_url?: string;
  audio_url?: string;
  /** Cost of the job in USD. */
  cost?: number;
  [field: string]: unknown;
}

export interface JobResult<O = MediaOutput> {
  id: string;
  status: string;
  output?: O;
  error?: unknown;
  delayTime?: number;
  executionTime?: number;
  workerId?: string;
}

/** A job that ended FAILED. `job` is the job object as the service returned it. */
export class JobFailedError extends Error {
  override readonly name = "JobFailedError";
  readonly code = FAILURE_CODES.JOB_FAILED;
  constructor(
    readonly endpointId: string,
    readonly job: JobResult<unknown>,
  ) {
    super(
      `Job ${job.id} on endpoint ${endpointId} FAILED${job.error ? `: ${typeof job.error === "string" ? job.error : JSON.stringify(job.error)}` : ""}.`,
    );
  }
}

/** Whether an error is a JobFailedError, by its code (works across module copies). */
export function isJobFailed(err: unknown): err is JobFailedError {
  return hasFailureCode(err, FAILURE_CODES.JOB_FAILED);
}

/** A job as the service reports it (`/run`, `/runsync`, `/status`); fields the service adds are kept. */
export interface JobState {
  id: string;
  status: string;
  output?: unknown;
  error?: unknown;
  delayTime?: number | undefined;
  executionTime?: number | undefined;
  workerId?: string | undefined;
  [field: string]: unknown;
}

/**
 * The calls the job functions make. The API client's job calls (`api.jobs` of a `RunpodApi` from
 * `runpod-dynamic/client`) are one; they are named here by their shape so a program's
 * declarations need not load the client.
 */
export interface JobApi {
  run(
    endpointId: string,
    input: Record<string, unknown>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<JobState>;
  runSync(
    endpointId: string,
    input: Record<string, unknown>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<JobState>;
  status(
    endpointId: string,
    jobId: string,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<JobState>;
  poll(
    endpointId: string,
    jobId: string,
    options: {
      timeoutMs: number;
      intervalMs: number;
      backoff?: { factor: number; maxMs: number };
      priority?: "foreground" | "background";
      signal?: AbortSignal | undefined;
    },
  ): Promise<JobState>;
}

// Fail the build as soon as `JobState` and the client's schema drift apart, or the client's job
// calls stop being a `JobApi`.
true satisfies Same<JobState, Job>;
true satisfies RunpodApi["jobs"] extends JobApi ? true : false;

export interface JobOptions {
  /** Give up waiting after this long. @default 600000 */
  readonly timeoutMs?: number;
  /** First wait between status reads; grows 1.5x up to 5 s. @default 500 */
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
  /**
   * Where to send it: `api.jobs` of a `RunpodApi`, or anything of that shape.
   * @default the program's settings (stack config, then RUNPOD_* variables)
   */
  readonly api?: JobApi;
}

/** A terminal job as the caller gets it: COMPLETED is returned, any other end is a JobFailedError. */
function settle<O>(endpointId: string, job: JobState): JobResult<O> {
  if (job.status !== "COMPLETED") throw new JobFailedError(endpointId, job as JobResult<unknown>);
  return job as JobResult<O>;
}

/** Submits a job and returns at once with its id and status (`IN_QUEUE`). */
export async function run(
  endpointId: string,
  input: Record<string, unknown>,
  options: JobOptions = {},
): Promise<JobResult<unknown>> {
  const api = options.api ?? programApi().jobs;
  return (await api.run(endpointId, input, { signal: options.signal })) as JobResult<unknown>;
}

/** The job's current state. */
export async function getJobStatus<O = MediaOutput>(
  endpointId: string,
  jobId: string,
  options: JobOptions = {},
): Promise<JobResult<O>> {
  const api = options.api ?? programApi().jobs;
  return (await api.status(endpointId, jobId, { signal: options.signal })) as JobResult<O>;
}

/**
 * Polls until the job is COMPLETED (returned) or ends otherwise (thrown as JobFailedError), with
 * backoff, a deadline (a RunpodApiError with code RUNPOD_JOB_WAIT_TIMEOUT, `JobWaitTimeoutError`) and the
 * shared rate-limit budget.
 */
export async function waitForJob<O = MediaOutput>(
  endpointId: string,
  jobId: string,
  options: JobOptions = {},
): Promise<JobResult<O>> {
  const api = options.api ?? programApi().jobs;
  const job = await api.poll(endpointId, jobId, {
    timeoutMs: options.timeoutMs ?? 600_000,
    intervalMs: options.pollIntervalMs ?? 500,
    backoff: { factor: 1.5, maxMs: 5000 },
    priority: "background",
    signal: options.signal,
  });
  return settle<O>(endpointId, job);
}

/**
 * Runs a job and returns its result. Uses `/runsync`; if the service answers before the job ends,
 * keeps polling `/status` until it does.
 * @example
 * const { output } = await runSync<MediaOutput>("black-forest-labs-flux-1-schnell", { prompt: "a red fox", width: 512, height: 512 });
 * // output.image_url expires after 7 days
 */
export async function runSync<O = MediaOutput>(
  endpointId: string,
  input: Record<string, unknown> | ImageModelInput,
  options: JobOptions = {},
): Promise<JobResult<O>> {
  const api = options.api ?? programApi().jobs;
  const job = await api.runSync(endpointId, input, { signal: options.signal });
  if (isTerminalJobStatus(job.status)) return settle<O>(endpointId, job);
  return waitForJob<O>(endpointId, job.id, { ...options, api });
}
