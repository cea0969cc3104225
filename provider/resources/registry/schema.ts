/**
 * The strict schema a Registry's `check` validates against: the v2 create body and the provider's
 * `adoptId`. Kept out of provider/resources/registry.ts so the declarations programs compile
 * against never import zod; `RegistryInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreateRegistryRequest } from "../../client/schemas/registries.js";
import type { Same } from "../same-type.js";
import type { RegistryInputs } from "./types.js";

export const RegistryArgsSchema = CreateRegistryRequest.extend({ adoptId: z.string().min(1).optional() });

// Fails the build as soon as `RegistryInputs` and the schema stop describing the same object.
true satisfies Same<RegistryInputs, z.infer<typeof RegistryArgsSchema>>;
