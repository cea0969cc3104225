/**
 * `ServerlessJob` (type `pulumi-nodejs:dynamic/runpod:ServerlessJob`): runs one job on an endpoint
 * when created, and again when its input changes, and exposes the result. A deploy-time smoke
 * test: a `pulumi up` fails when the endpoint cannot answer, and the output is in the stack.
 *
 * A job cannot be deleted, so delete forgets it. Results of `/run` are kept by the service for
 * 30 minutes; output URLs expire after 7 days.
 */
import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { optionInputs } from "./common.js";
import type { ServerlessJobArgs } from "./serverless-job/types.js";

export { SERVERLESS_JOB_TYPE } from "./type-tokens.js";

/** One thin provider for every ServerlessJob: Pulumi serializes it once per program. */
const SERVERLESS_JOB_PROVIDER = thinProvider("ServerlessJob");

/**
 * Runs a job at deploy time and keeps its result.
 * @example
 * const smoke = new ServerlessJob("smoke", { endpointId: endpoint.id, input: { prompt: "ping" } });
 * export const smokeOutput = smoke.output;
 */
export class ServerlessJob extends pulumi.dynamic.Resource {
  /** The job's id. */
  declare readonly jobId: pulumi.Output<string>;
  /** The job's final status, e.g. `COMPLETED` (a `FAILED` job fails the deployment instead). */
  declare readonly status: pulumi.Output<string>;
  /** The job's output. Media URLs in it expire after 7 days. */
  declare readonly output: pulumi.Output<unknown>;
  /** Milliseconds the job waited in the queue; `null` when the API does not say. */
  declare readonly delayTime: pulumi.Output<number | null>;
  /** Milliseconds the job ran; `null` when the API does not say. */
  declare readonly executionTime: pulumi.Output<number | null>;
  /** The worker that ran the job; `null` when the API does not say. */
  declare readonly workerId: pulumi.Output<string | null>;

  /**
   * A job cannot be read by id, so there is no `ServerlessJob.get` and the `id` option is refused:
   * a job is addressed by its endpoint and job id together, and the service forgets its result 30
   * minutes after it finishes (1 for /runsync), so a read would fail on every later `up`.
   * `getJobStatus(endpointId, jobId)` reads a job's status and output while the service has it.
   */
  constructor(name: string, args: ServerlessJobArgs, opts: pulumi.CustomResourceOptions = {}) {
    if (opts.id !== undefined) {
      throw new Error(
        `ServerlessJob ${name}: a job cannot be read by id (the id resource option): the service keeps a job's result for 30 minutes at most (1 for /runsync). Call getJobStatus(endpointId, jobId) to read one while it is kept.`,
      );
    }
    super(
      SERVERLESS_JOB_PROVIDER,
      name,
      {
        jobId: undefined,
        status: undefined,
        output: undefined,
        delayTime: undefined,
        executionTime: undefined,
        workerId: undefined,
        ...args,
        ...optionInputs(opts),
      },
      opts,
      "runpod",
      "ServerlessJob",
    );
  }
}
