/**
 * A ServerlessJob's fields, each declared once (docs/decisions.md, "One declaration per field"):
 * a job run at deploy time and its result.
 */
import { z } from "zod";
import { declareResource, mirror } from "../../fields/declaration.js";
import { choice } from "../../fields/meta.js";
import { SERVERLESS_JOB_DESCRIPTION, SERVERLESS_JOB_EXAMPLES, SERVERLESS_JOB_NO_GET } from "./docs.js";

const RUNS_AGAIN = { kinds: ["replace"], detail: "the job runs again" } as const;

export const JobMode = choice("JobMode", "How a deploy-time job is run.", {
  sync: "The synchronous route, then the status route while it still runs.",
  async: "The asynchronous route, then the status route until it ends.",
});

export const ServerlessJobArgsSchema = z.strictObject({
  endpointId: z.string().min(1).meta({
    description:
      "A serverless endpoint's id, or a hosted model endpoint such as `black-forest-labs-flux-1-schnell`.",
    onChange: RUNS_AGAIN,
  }),
  input: z.record(z.string(), z.unknown()).meta({
    description: "The job's input object, as the endpoint's handler takes it.",
    onChange: RUNS_AGAIN,
  }),
  mode: JobMode.optional().meta({ description: "How the job is run.", default: "sync", onChange: "none" }),
  timeout: z.int().min(1).max(86_400).optional().meta({
    description: "How long to wait for the job, 1 to 86400.",
    unit: "seconds",
    default: 600,
    onChange: "none",
  }),
});

const input = ServerlessJobArgsSchema.shape;

export const ServerlessJobStateSchema = z.object({
  endpointId: mirror(input.endpointId, "given", { internal: true }),
  input: mirror(input.input, "given", { internal: true }),
  jobId: z.string().meta({ description: "The job's id." }),
  status: z.string().meta({
    description:
      "The job's final status, for example `COMPLETED` (a `FAILED` job fails the deployment instead).",
  }),
  output: z.json().nullable().meta({
    description:
      "The job's output, any JSON value its handler returned (an image model's has its URL and cost); null without one. Media URLs in it expire after 7 days.",
  }),
  delayTime: z.int().nullable().meta({
    description: "How long the job waited in the queue; null when the API does not say.",
    unit: "milliseconds",
  }),
  executionTime: z.int().nullable().meta({
    description: "How long the job ran; null when the API does not say.",
    unit: "milliseconds",
  }),
  workerId: z
    .string()
    .nullable()
    .meta({ description: "The worker that ran the job; null when the API does not say." }),
});

export const SERVERLESS_JOB = declareResource({
  kind: "ServerlessJob",
  description: SERVERLESS_JOB_DESCRIPTION,
  get: { refused: SERVERLESS_JOB_NO_GET },
  examples: SERVERLESS_JOB_EXAMPLES,
  inputs: ServerlessJobArgsSchema,
  outputs: ServerlessJobStateSchema,
});
