/**
 * The strict schema a ServerlessJob's `check` validates against. Kept out of
 * provider/resources/serverless-job.ts so the declarations programs compile against never import
 * zod; `ServerlessJobInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import type { Same } from "../same-type.js";
import type { ServerlessJobInputs } from "./types.js";

export const ServerlessJobArgsSchema = z.strictObject({
  endpointId: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  /** `sync` uses /runsync (then /status if it is still running); `async` uses /run and polls /status. */
  mode: z.enum(["sync", "async"]).optional(),
  /** Seconds to wait for the job. @default 600 */
  timeout: z.int().min(1).max(86_400).optional(),
});

// Fails the build as soon as `ServerlessJobInputs` and the schema stop describing the same object.
true satisfies Same<ServerlessJobInputs, z.infer<typeof ServerlessJobArgsSchema>>;
