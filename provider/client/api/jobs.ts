/**
 * Jobs of a serverless endpoint: `{serverless_url}/v2/{endpoint_id}/...`, and waiting for one to end.
 */
import { ERROR_CODES, isRunpodApiError, RunpodApiError } from "../errors.js";
import type { RunpodClient } from "../request.js";
import { Job, RunJobRequest, TERMINAL_JOB_STATUSES } from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

export interface PollJobOptions {
  /** Give up after this long, in the client's clock (JobWaitTimeoutError). */
  readonly timeoutMs: number;
  /** The first wait between status reads. */
  readonly intervalMs: number;
  /** Each wait is `factor` times the last, up to `maxMs`. @default a fixed interval */
  readonly backoff?: { readonly factor: number; readonly maxMs: number };
  /** Called with every job read from `/status`. */
  readonly onStatus?: (job: Job) => void;
  readonly priority?: "foreground" | "background";
  readonly signal?: AbortSignal | undefined;
  /** The job as already known (the submit's answer): the first read then waits an interval. */
  readonly first?: Job;
}

/** Whether a job status is final (TERMINAL_JOB_STATUSES). */
export function isTerminalJobStatus(status: string): boolean {
  return (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/**
 * `poll` ran out of time before the job ended. A RunpodApiError with code
 * RUNPOD_JOB_WAIT_TIMEOUT and an unknown outcome (the job may still finish), carrying the last job
 * read. Its own code: RUNPOD_TIMEOUT is one request's deadline, which the client retries.
 */
export class JobWaitTimeoutError extends RunpodApiError {
  constructor(
    readonly endpointId: string,
    /** The job as last read: its status is not terminal. */
    readonly job: Job,
    readonly timeoutMs: number,
  ) {
    super({
      code: ERROR_CODES.JOB_WAIT_TIMEOUT,
      message: `Job ${job.id} on endpoint ${endpointId} did not finish in time (last status ${job.status}).`,
      outcome: "unknown",
    });
  }
}

/** Whether an error is a JobWaitTimeoutError, by its code (works across module copies). */
export function isJobWaitTimeout(err: unknown): err is JobWaitTimeoutError {
  return isRunpodApiError(err, ERROR_CODES.JOB_WAIT_TIMEOUT);
}

/** Jobs of a serverless endpoint: `{serverless_url}/v2/{endpoint_id}/...` (`api.jobs`). */
export class JobsApi {
  constructor(private readonly client: RunpodClient) {}

  /** Submits a job and returns at once with its id. Not retried on 5xx: a retry could run it twice. */
  run(endpointId: string, input: Record<string, unknown>, opts: CallOptions = {}) {
    return this.submit(endpointId, "run", input, opts);
  }

  /** Runs a job and waits for it server-side. */
  runSync(endpointId: string, input: Record<string, unknown>, opts: CallOptions = {}) {
    // The service holds the request until the job ends: a longer deadline than other calls.
    return this.submit(endpointId, "runsync", input, { ...opts, deadlineMs: opts.deadlineMs ?? 120_000 });
  }

  private submit(
    endpointId: string,
    route: "run" | "runsync",
    input: Record<string, unknown>,
    opts: CallOptions,
  ) {
    return this.client.request({
      method: "POST",
      base: "serverless",
      path: `/v2/${segment(endpointId)}/${route}`,
      body: { input },
      requestSchema: RunJobRequest,
      responseSchema: Job,
      ...opts,
    });
  }

  /** Cancels a queued or running job; a job that already ended is answered as it is. */
  cancel(endpointId: string, jobId: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "serverless",
      path: `/v2/${segment(endpointId)}/cancel/${segment(jobId)}`,
      responseSchema: Job,
      idempotent: true,
      ...opts,
    });
  }

  status(endpointId: string, jobId: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "serverless",
      path: `/v2/${segment(endpointId)}/status/${segment(jobId)}`,
      responseSchema: Job,
      ...opts,
    });
  }

  /**
   * Reads `/status` until the job is in a terminal state (TERMINAL_JOB_STATUSES) and returns it,
   * whatever that state is: what a job that did not complete means is the caller's to decide.
   * Waits follow the client's clock and the rate-limit budget. When `timeoutMs` passes first, it
   * throws a JobWaitTimeoutError carrying the last job read.
   */
  async poll(endpointId: string, jobId: string, options: PollJobOptions): Promise<Job> {
    const clock = this.client.clock;
    const deadline = clock.now() + options.timeoutMs;
    const backoff = options.backoff ?? { factor: 1, maxMs: options.intervalMs };
    const read = { signal: options.signal, ...(options.priority ? { priority: options.priority } : {}) };
    let interval = options.intervalMs;
    let job = options.first;
    for (;;) {
      if (job === undefined) {
        job = await this.status(endpointId, jobId, read);
        options.onStatus?.(job);
      }
      if (isTerminalJobStatus(job.status)) return job;
      const left = deadline - clock.now();
      if (left <= 0) throw new JobWaitTimeoutError(endpointId, job, options.timeoutMs);
      await clock.sleep(Math.min(interval, left), options.signal);
      interval = Math.min(backoff.maxMs, interval * backoff.factor);
      job = undefined;
    }
  }
}
