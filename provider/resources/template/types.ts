/** A Template's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type { TemplateArgsSchema, TemplateStateSchema } from "./fields.js";

/** Checked inputs of a Template, as `check` accepts them and the provider sees them. */
export type TemplateInputs = z.infer<typeof TemplateArgsSchema>;

/** What state keeps of a Template. */
export type TemplateOutputs = z.infer<typeof TemplateStateSchema>;
