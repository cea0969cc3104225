/** A Secret's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type { SecretArgsSchema, SecretStateSchema } from "./fields.js";

/** Checked inputs of a Secret, as `check` accepts them and the provider sees them. */
export type SecretInputs = z.infer<typeof SecretArgsSchema>;

/** What state keeps of a Secret. */
export type SecretOutputs = z.infer<typeof SecretStateSchema>;
