/**
 * Jobs on hosted model endpoints and serverless endpoints (`{serverless_url}/v2/{endpoint_id}/...`).
 * Output URLs (`image_url`, `video_url`, `audio_url`) expire after 7 days: copy what you keep.
 */
import type { RunpodApi } from "./client/api.js";
import { ERROR_CODES, RunpodApiError } from "./client/errors.js";
import type { Job } from "./client/schemas/jobs.js";
import { programApi } from "./program.js";

/** Input of image models (contract: Hosted model endpoint and serverless endpoint jobs). */
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
  readonly code = "RUNPOD_JOB_FAILED";
  constructor(
    readonly endpointId: string,
    readonly job: JobResult<unknown>,
  ) {
    super(
      `Job ${job.id} on endpoint ${endpointId} FAILED${job.error ? `: ${typeof job.error === "string" ? job.error : JSON.stringify(job.error)}` : ""}.`,
    );
  }
}

export interface JobOptions {
  /** Give up waiting after this long. @default 600000 */
  readonly timeoutMs?: number;
  /** First wait between status reads; grows 1.5x up to 5 s. @default 500 */
  readonly pollIntervalMs?: number;
  readonly signal?: AbortSignal;
  /** Where to send it. @default the program's settings (stack config, then RUNPOD_* variables) */
  readonly api?: RunpodApi;
}

const TERMINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

function settle<O>(endpointId: string, job: Job): JobResult<O> {
  const result = job as JobResult<O>;
  if (job.status === "FAILED" || job.status === "CANCELLED" || job.status === "TIMED_OUT") {
    throw new JobFailedError(endpointId, job as JobResult<unknown>);
  }
  return result;
}

/** Submits a job and returns at once with its id and status (`IN_QUEUE`). */
export async function run(
  endpointId: string,
  input: Record<string, unknown>,
  options: JobOptions = {},
): Promise<JobResult<unknown>> {
  const api = options.api ?? programApi();
  return (await api.runJob(endpointId, input, { signal: options.signal })) as JobResult<unknown>;
}

/** The job's current state. */
export async function getJobStatus<O = MediaOutput>(
  endpointId: string,
  jobId: string,
  options: JobOptions = {},
): Promise<JobResult<O>> {
  const api = options.api ?? programApi();
  return (await api.getJobStatus(endpointId, jobId, { signal: options.signal })) as JobResult<O>;
}

/**
 * Polls until the job is COMPLETED (returned) or FAILED (thrown as JobFailedError), with backoff,
 * a deadline and the shared rate-limit budget.
 */
export async function waitForJob<O = MediaOutput>(
  endpointId: string,
  jobId: string,
  options: JobOptions = {},
): Promise<JobResult<O>> {
  const api = options.api ?? programApi();
  const clock = api.client.clock;
  const deadline = clock.now() + (options.timeoutMs ?? 600_000);
  let interval = options.pollIntervalMs ?? 500;
  for (;;) {
    const job = await api.getJobStatus(endpointId, jobId, { signal: options.signal, priority: "background" });
    if (TERMINAL.has(job.status)) return settle<O>(endpointId, job);
    const left = deadline - clock.now();
    if (left <= 0) {
      throw new RunpodApiError({
        code: ERROR_CODES.TIMEOUT,
        message: `Job ${jobId} on endpoint ${endpointId} did not finish in time (last status ${job.status}).`,
        outcome: "unknown",
      });
    }
    await clock.sleep(Math.min(interval, left), options.signal);
    interval = Math.min(5000, interval * 1.5);
  }
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
  const api = options.api ?? programApi();
  const job = await api.runJobSync(endpointId, input, { signal: options.signal });
  if (TERMINAL.has(job.status)) return settle<O>(endpointId, job);
  return waitForJob<O>(endpointId, job.id, { ...options, api });
}
