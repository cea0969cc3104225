/**
 * The strict schema a Secret's `check` validates against: the v2 create body and the provider's
 * `adoptId`. Kept out of provider/resources/secret.ts so the declarations programs compile against
 * never import zod; `SecretInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreateSecretRequest } from "../../client/schemas/secrets.js";
import type { Same } from "../same-type.js";
import type { SecretInputs } from "./types.js";

export const SecretArgsSchema = CreateSecretRequest.extend({ adoptId: z.string().min(1).optional() });

// Fails the build as soon as `SecretInputs` and the schema stop describing the same object.
true satisfies Same<SecretInputs, z.infer<typeof SecretArgsSchema>>;
