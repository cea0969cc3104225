/**
 * `runpod-dynamic jobs run|status`: jobs on serverless endpoints and hosted model endpoints,
 * `{serverless_url}/v2/{endpoint_id}/run|runsync|status/{job_id}` (docs/api-model.md, Jobs).
 *
 * `run` submits and prints the job id; `--sync` uses `/runsync`, which waits server-side (and may
 * still answer with the job in progress); `--wait` polls `/status` until the job is COMPLETED or
 * FAILED (docs/api-model.md, Jobs, polling guidance). A job seen ending in any state but COMPLETED exits 1, so
 * scripts can rely on `jobs run --wait`. Output URLs (`image_url`, `video_url`, `audio_url`) expire
 * after 7 days (docs/api-model.md, Limits), which is said next to any output that carries one.
 *
 * JSON/YAML output: `id`, `endpointId`, `status`, `delayTime`, `executionTime` (ms), `workerId`,
 * `output`, `error` (null until known).
 */
import type { Command } from "commander";
import { isJobWaitTimeout, isTerminalJobStatus } from "../provider/client/api/jobs.js";
import type { RunpodApi, schemas } from "../provider/client/index.js";
import { connect } from "./connect.js";
import { CliError } from "./errors.js";
import { duration, fields, jsonLines, type Terminal } from "./output.js";
import { addOutputOptions, type FormatOptions, intOption, jsonObjectOption, textOption } from "./parse.js";

type Job = schemas.Job;

const OUTPUT_URL_NOTE =
  "Note: output URLs expire 7 days after the job finished; download anything you want to keep.";

function jobView(endpointId: string, job: Job) {
  return {
    id: job.id,
    endpointId,
    status: job.status,
    delayTime: job.delayTime ?? null,
    executionTime: job.executionTime ?? null,
    workerId: job.workerId ?? null,
    output: job.output ?? null,
    error: job.error ?? null,
  };
}

/** Whether a value holds an output URL: a string under a key ending in `_url`, at any depth. */
function hasOutputUrl(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasOutputUrl);
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(
    ([key, v]) => (key.endsWith("_url") && typeof v === "string") || hasOutputUrl(v),
  );
}

function printJob(out: Terminal, endpointId: string, job: Job): void {
  const view = jobView(endpointId, job);
  out.data(view, () => {
    const pairs: [string, string][] = [
      ["Job", view.id],
      ["Endpoint", endpointId],
      ["Status", view.status],
    ];
    if (view.delayTime !== null) pairs.push(["Queued for", duration(view.delayTime)]);
    if (view.executionTime !== null) pairs.push(["Ran for", duration(view.executionTime)]);
    const lines = fields(pairs);
    if (view.output !== null) lines.push("Output:", ...jsonLines(view.output));
    if (view.error !== null) {
      lines.push(
        typeof view.error === "string" ? `Error: ${view.error}` : "Error:",
        ...(typeof view.error === "string" ? [] : jsonLines(view.error)),
      );
    }
    if (!isTerminalJobStatus(view.status)) {
      lines.push(
        "",
        `Check on it with: runpod-dynamic jobs status --endpoint-id ${endpointId} --job-id ${view.id}`,
      );
    }
    return lines;
  });
  if (hasOutputUrl(view.output)) out.note(OUTPUT_URL_NOTE);
}

/** Polls `/status` until the job ends or `timeoutMs` passed, every `pollMs`, behind the spinner. */
async function waitForJob(
  api: RunpodApi,
  out: Terminal,
  endpointId: string,
  first: Job,
  pollMs: number,
  timeoutMs: number,
): Promise<Job> {
  return out.spin(`Job ${first.id}: ${first.status}`, async (update) => {
    try {
      return await api.jobs.poll(endpointId, first.id, {
        first,
        timeoutMs,
        intervalMs: pollMs,
        onStatus: (job) => update(`Job ${job.id}: ${job.status}`),
      });
    } catch (err) {
      if (!isJobWaitTimeout(err)) throw err;
      const { job } = err;
      throw new CliError(
        `job ${job.id} is still ${job.status} after ${Math.round(timeoutMs / 1000)} s; check on it later with \`runpod-dynamic jobs status --endpoint-id ${endpointId} --job-id ${job.id}\`.`,
        "WAIT_TIMEOUT",
      );
    }
  });
}

interface RunOptions extends FormatOptions {
  endpointId: string;
  input: Record<string, unknown>;
  sync?: boolean;
  wait?: boolean;
  pollInterval: number;
  timeout: number;
}

export function registerJobs(program: Command, out: Terminal): void {
  const jobs = program.command("jobs").description("Run jobs on serverless and hosted model endpoints.");

  addOutputOptions(
    jobs
      .command("run")
      .description("Submit a job to an endpoint.")
      .requiredOption(
        "--endpoint-id <id>",
        "serverless endpoint or hosted model id",
        textOption("--endpoint-id"),
      )
      .requiredOption(
        "--input <json|@file>",
        "the job's input object, inline JSON, @file, or @- for standard input",
        jsonObjectOption("--input", out.stdin),
      )
      .option("--sync", "use /runsync: the service waits for the job before answering", false)
      .option("--wait", "poll the job's status until it is COMPLETED or FAILED", false)
      .option(
        "--poll-interval <ms>",
        "time between status reads with --wait",
        intOption("--poll-interval", 50, 60_000),
        1000,
      )
      .option("--timeout <s>", "give up waiting after this long", intOption("--timeout", 1, 86_400), 600),
  )
    .addHelpText(
      "after",
      `\nExit code 1 when a job this command saw end did not complete (FAILED, CANCELLED, TIMED_OUT).\n${OUTPUT_URL_NOTE.replace("Note: o", "O")}\n\nJSON fields: id, endpointId, status, delayTime, executionTime, workerId, output, error.`,
    )
    .action(async (opts: RunOptions) => {
      const { api } = connect(out);
      let job = await out.spin(opts.sync ? "Running the job" : "Submitting the job", () =>
        opts.sync ? api.jobs.runSync(opts.endpointId, opts.input) : api.jobs.run(opts.endpointId, opts.input),
      );
      if (opts.wait)
        job = await waitForJob(api, out, opts.endpointId, job, opts.pollInterval, opts.timeout * 1000);
      printJob(out, opts.endpointId, job);
      if (isTerminalJobStatus(job.status) && job.status !== "COMPLETED") {
        throw new CliError(`job ${job.id} ended ${job.status}.`, "JOB_NOT_COMPLETED");
      }
    });

  addOutputOptions(
    jobs
      .command("status")
      .description("Show a job's status, and its output once it completed.")
      .requiredOption(
        "--endpoint-id <id>",
        "serverless endpoint or hosted model id",
        textOption("--endpoint-id"),
      )
      .requiredOption("--job-id <id>", "job id that `jobs run` printed", textOption("--job-id")),
  )
    .addHelpText(
      "after",
      `\n${OUTPUT_URL_NOTE.replace("Note: o", "O")}\n\nJSON fields: id, endpointId, status, delayTime, executionTime, workerId, output, error.`,
    )
    .action(async (opts: FormatOptions & { endpointId: string; jobId: string }) => {
      const { api } = connect(out);
      const job = await out.spin("Reading the job", () => api.jobs.status(opts.endpointId, opts.jobId));
      printJob(out, opts.endpointId, job);
    });
}
