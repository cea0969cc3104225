/** The ServerlessJob provider: check, diff, create, read, update and delete, as the provider host runs them. */
import { isJobWaitTimeout } from "../../client/api/jobs.js";
import { messageOf } from "../../client/errors.js";
import { declaredChanges, declaredDefaults } from "../../fields/derive.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { isJobFailed, type JobResult, runSync, waitForJob } from "../../program/jobs.js";
import { checkResult, diffResult } from "../common.js";
import { checkServerlessJob } from "./check.js";
import { SERVERLESS_JOB, ServerlessJobArgsSchema } from "./fields.js";
import type { ServerlessJobInputs, ServerlessJobOutputs } from "./types.js";

const JOB_DEFAULTS = declaredDefaults(ServerlessJobArgsSchema) as { timeout: number; mode: "sync" | "async" };

function outputs(inputs: ServerlessJobInputs, job: JobResult<unknown>): ServerlessJobOutputs {
  return {
    endpointId: inputs.endpointId,
    input: inputs.input,
    jobId: job.id,
    status: job.status,
    output: JSON.parse(JSON.stringify(job.output ?? null)) as ServerlessJobOutputs["output"],
    delayTime: job.delayTime ?? null,
    executionTime: job.executionTime ?? null,
    workerId: job.workerId ?? null,
  };
}

/** @internal The provider host's side of ServerlessJob; programs reach it only through the thin provider. */
export class ServerlessJobProvider {
  async check(_olds: ServerlessJobInputs, news: ServerlessJobInputs) {
    return checkResult(news, checkServerlessJob(news as unknown as Record<string, unknown>));
  }

  /** A new endpoint or input runs the job again (a replacement); mode and timeout alone do not (fields.ts). */
  async diff(_id: string, olds: ServerlessJobOutputs, news: ServerlessJobInputs) {
    return diffResult(declaredChanges(SERVERLESS_JOB, olds, news, []), news);
  }

  async create(ctx: HostContext, inputs: ServerlessJobInputs) {
    const timeoutMs = (inputs.timeout ?? JOB_DEFAULTS.timeout) * 1000;
    const label = `ServerlessJob ${inputs.endpointId}`;
    try {
      let job: JobResult<unknown>;
      if ((inputs.mode ?? JOB_DEFAULTS.mode) === "sync") {
        job = await runSync(inputs.endpointId, inputs.input, { api: ctx.api.jobs, timeoutMs });
      } else {
        const submitted = await ctx.api.jobs.run(inputs.endpointId, inputs.input);
        ctx.progress(label, `submitted job ${submitted.id}`);
        job = await ctx.jobs.during({ endpointId: inputs.endpointId, jobId: submitted.id }, () =>
          waitForJob(inputs.endpointId, submitted.id, { api: ctx.api.jobs, timeoutMs }),
        );
      }
      ctx.progress(label, `job ${job.id} ${job.status}`);
      return { id: job.id, outs: outputs(inputs, job) };
    } catch (err) {
      if (isJobFailed(err)) {
        throw new Error(
          `${label}: the smoke-test job ${err.job.id} FAILED: ${JSON.stringify(err.job.error ?? null)}. Nothing was recorded; fix the endpoint and run again.`,
        );
      }
      if (isJobWaitTimeout(err)) {
        // Nobody will read its result: a job left in the queue would still run, and bill.
        const cancelled = await ctx.api.jobs.cancel(inputs.endpointId, err.job.id).then(
          (j) => `it was cancelled (${j.status})`,
          (cancel: unknown) => `cancelling it failed too (${messageOf(cancel)})`,
        );
        throw new Error(`${err.message} ${cancelled[0]?.toUpperCase()}${cancelled.slice(1)}.`);
      }
      throw err;
    }
  }

  /** The result is a record of a past run: refresh keeps it as is (the service forgets it after 30 minutes). */
  async read(_ctx: HostContext, id: string, props?: ServerlessJobOutputs) {
    return props ? { id, props } : { id };
  }

  /** Nothing to delete: a finished job cannot be removed, and its results expire on their own. */
  async delete(): Promise<void> {}
}

/** @internal */
export const serverlessJobProvider = bindToHost(
  SERVERLESS_JOB,
  new ServerlessJobProvider(),
  (props, id) => `ServerlessJob ${typeof props?.endpointId === "string" ? props.endpointId : (id ?? "?")}`,
);
