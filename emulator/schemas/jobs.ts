/**
 * The job request body of `/run` and `/runsync` (docs/api-model.md, Jobs;
 * RunPod's serverless docs for the optional top-level fields: webhook, policy, s3Config).
 */
import { z } from "zod";

export const RunRequest = z.strictObject({
  input: z.record(z.string(), z.unknown()),
  webhook: z.url().optional(),
  webhookV2: z.url().optional(),
  policy: z
    .strictObject({
      /** Longest the job may run, in ms; overrides the endpoint's timeout for this job. */
      executionTimeout: z.int().min(5000).optional(),
      lowPriority: z.boolean().optional(),
      /** Longest the job may live, in ms (10 s to 7 days). */
      ttl: z.int().min(10_000).max(604_800_000).optional(),
    })
    .optional(),
  s3Config: z
    .strictObject({
      accessId: z.string(),
      accessSecret: z.string(),
      bucketName: z.string(),
      endpointUrl: z.string(),
    })
    .optional(),
});
export type RunRequest = z.infer<typeof RunRequest>;
