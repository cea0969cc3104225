/** A Registry's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type { RegistryArgsSchema, RegistryStateSchema } from "./fields.js";

/** Checked inputs of a Registry, as `check` accepts them and the provider sees them. */
export type RegistryInputs = z.infer<typeof RegistryArgsSchema>;

/** What state keeps of a Registry. */
export type RegistryOutputs = z.infer<typeof RegistryStateSchema>;
