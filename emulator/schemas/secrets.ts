/**
 * Account secret bodies (RunPod's v2 reference: CreateSecretRequest, UpdateSecretRequest; newer
 * than the description the conformance gate reads). What a schema cannot say (the reserved
 * prefix, limits in UTF-8 bytes, an empty PATCH) is the handler's (account/secrets.ts).
 */
import { z } from "zod";

/** A letter or underscore first, then letters, digits and `_.-/`; 1 to 191 characters. */
export const SECRET_NAME = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;

export const CreateSecretRequest = z.strictObject({
  name: z.string().min(1).max(191).regex(SECRET_NAME),
  value: z.string().min(1).max(16_777_216),
  description: z.string().max(65_535).optional(),
});

/** The name is immutable, so a PATCH naming it is refused like any other unknown property. */
export const UpdateSecretRequest = z.strictObject({
  value: z.string().min(1).max(16_777_216).optional(),
  description: z.string().max(65_535).optional(),
});
