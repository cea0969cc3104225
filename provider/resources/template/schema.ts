/**
 * The strict schema a Template's `check` validates against: the v2 create body plus the provider's
 * `adoptId`. Kept out of provider/resources/template.ts so the declarations programs compile
 * against never import zod; `TemplateInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreateTemplateRequest } from "../../client/schemas/templates.js";
import type { Same } from "../same-type.js";
import type { TemplateInputs } from "./types.js";

export const TemplateArgsSchema = CreateTemplateRequest.extend({
  adoptId: z.string().min(1).optional(),
});

// Fails the build as soon as `TemplateInputs` and the schema stop describing the same object.
true satisfies Same<TemplateInputs, z.infer<typeof TemplateArgsSchema>>;
