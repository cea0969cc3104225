/** A ServerlessJob's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type { ServerlessJobArgsSchema, ServerlessJobStateSchema } from "./fields.js";

/** Checked inputs of a ServerlessJob, as `check` accepts them and the provider sees them. */
export type ServerlessJobInputs = z.infer<typeof ServerlessJobArgsSchema>;

/** What state keeps of a ServerlessJob. */
export type ServerlessJobOutputs = z.infer<typeof ServerlessJobStateSchema>;
