/** The ServerlessJob provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { JobWaitTimeoutError } from "../../client/api.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import { api, configureRuntime } from "../../host/context.js";
import { progress } from "../../host/progress.js";
import { JobFailedError, type JobResult, runSync, waitForJob } from "../../program/jobs.js";
import { checkResult, differs, diffResult, named } from "../common.js";
import { checkServerlessJob } from "./check.js";
import type { ServerlessJobInputs, ServerlessJobOutputs } from "./types.js";

function outputs(inputs: ServerlessJobInputs, job: JobResult<unknown>): ServerlessJobOutputs {
  return {
    endpointId: inputs.endpointId,
    input: inputs.input,
    jobId: job.id,
    status: job.status,
    output: JSON.parse(JSON.stringify(job.output ?? null)),
    delayTime: job.delayTime ?? null,
    executionTime: job.executionTime ?? null,
    workerId: job.workerId ?? null,
  };
}

/** @internal The provider host's side of ServerlessJob; programs reach it only through the thin provider. */
export class ServerlessJobProvider
  implements pulumi.dynamic.ResourceProvider<ServerlessJobInputs, ServerlessJobOutputs>
{
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: ServerlessJobInputs, news: ServerlessJobInputs) {
    return checkResult(news, checkServerlessJob(news as unknown as Record<string, unknown>));
  }

  /** A new endpoint or input runs the job again (a replacement); mode and timeout alone do not. */
  async diff(_id: string, olds: ServerlessJobOutputs, news: ServerlessJobInputs) {
    const replaces = (["endpointId", "input"] as const).filter((k) => differs(news[k], olds[k]));
    return diffResult({ replaces, updates: [] }, news);
  }

  async create(inputs: ServerlessJobInputs) {
    const timeoutMs = (inputs.timeout ?? 600) * 1000;
    const label = `ServerlessJob ${inputs.endpointId}`;
    try {
      let job: JobResult<unknown>;
      if ((inputs.mode ?? "sync") === "sync") {
        job = await runSync(inputs.endpointId, inputs.input, { api: api(), timeoutMs });
      } else {
        const submitted = await api().runJob(inputs.endpointId, inputs.input);
        progress(label, `submitted job ${submitted.id}`);
        const waiting = { endpointId: inputs.endpointId, jobId: submitted.id };
        cancelInFlightOnStop();
        inFlight.add(waiting);
        try {
          job = await waitForJob(inputs.endpointId, submitted.id, { api: api(), timeoutMs });
        } finally {
          inFlight.delete(waiting);
        }
      }
      progress(label, `job ${job.id} ${job.status}`);
      return { id: job.id, outs: outputs(inputs, job) };
    } catch (err) {
      if (err instanceof JobFailedError) {
        throw new Error(
          `${label}: the smoke-test job ${err.job.id} FAILED: ${JSON.stringify(err.job.error ?? null)}. Nothing was recorded; fix the endpoint and run again.`,
        );
      }
      if (isRunpodApiError(err, ERROR_CODES.TIMEOUT) && err instanceof JobWaitTimeoutError) {
        // Nobody will read its result: a job left in the queue would still run, and bill.
        const cancelled = await api()
          .cancelJob(inputs.endpointId, err.job.id)
          .then(
            (j) => `it was cancelled (${j.status})`,
            (cancel: unknown) =>
              `cancelling it failed too (${cancel instanceof Error ? cancel.message : String(cancel)})`,
          );
        throw new Error(`${err.message} ${cancelled[0]?.toUpperCase()}${cancelled.slice(1)}.`);
      }
      throw err;
    }
  }

  /** The result is a record of a past run: refresh keeps it as is (the service forgets it after 30 minutes). */
  async read(id: string, props?: ServerlessJobOutputs) {
    return props ? { id, props } : { id };
  }

  /** Nothing to delete: a finished job cannot be removed, and its results expire on their own. */
  async delete(): Promise<void> {}
}

/** Jobs a create is waiting for: cancelled if the provider host is stopped while it waits. */
const inFlight = new Set<{ endpointId: string; jobId: string }>();

/**
 * Stopping the provider host (a CI run cancelled, `pulumi cancel`, a second Ctrl-C) would leave
 * the jobs it waits for in the queue, where they still run and bill: they are cancelled first.
 */
let stopHandled = false;
function cancelInFlightOnStop(): void {
  // Only in the provider host, and only once a job is waited for: never in a program's process.
  if (stopHandled) return;
  stopHandled = true;
  const stop = (signal: NodeJS.Signals) => {
    const pending = [...inFlight].map((j) =>
      api()
        .cancelJob(j.endpointId, j.jobId, { deadlineMs: 5000 })
        .catch(() => undefined),
    );
    void Promise.all(pending).finally(() => process.kill(process.pid, signal));
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => stop(signal));
  }
}

/** @internal */
export const serverlessJobProvider = named(
  new ServerlessJobProvider(),
  (props, id) => `ServerlessJob ${typeof props?.endpointId === "string" ? props.endpointId : (id ?? "?")}`,
);
