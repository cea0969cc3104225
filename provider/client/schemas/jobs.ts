/** Jobs on hosted model and serverless endpoints (`{serverless_url}/v2/{endpoint_id}/run|runsync|status`). */
import { z } from "zod";

/** Statuses a client reads. `COMPLETED` and `FAILED` are terminal (docs/api-model.md, States and transitions). */
export const TERMINAL_JOB_STATUSES = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"] as const;

export const Job = z.looseObject({
  id: z.string().min(1),
  status: z.string().min(1),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  delayTime: z.number().optional(),
  executionTime: z.number().optional(),
  workerId: z.string().optional(),
});
export type Job = z.infer<typeof Job>;

export const RunJobRequest = z.strictObject({
  input: z.record(z.string(), z.unknown()),
  webhook: z.string().url().optional(),
  policy: z.looseObject({}).optional(),
});
