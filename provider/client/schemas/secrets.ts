/**
 * Account secrets (`{base_url}/v2/account/secrets`): encrypted strings that pods, templates and
 * serverless endpoints reference from env as `{{ RUNPOD_SECRET_<name> }}`, substituted when the
 * pod or worker boots. The value is write-only: an answer carries the secret's metadata, never the
 * value. The rules are those of RunPod's v2 reference (docs/api-differences.md, "Routes newer than
 * our copy of the description").
 */
import { z } from "zod";
import {
  SECRET_CREATE_ONLY,
  SECRET_DESCRIPTION_MAX_BYTES,
  SECRET_UPDATE,
  SECRET_VALUE_MAX_BYTES,
} from "../../resources/secret/fields.js";

/**
 * Largest body a secrets request may need: a value and a description at their limits, each
 * character JSON-escaped at worst as `\u00XX` (6 bytes). The pods' 102400-byte limit is not theirs.
 */
export const SECRET_REQUEST_MAX_BYTES = 6 * (SECRET_VALUE_MAX_BYTES + SECRET_DESCRIPTION_MAX_BYTES) + 1024;

/** The create body: a Secret's declared fields (provider/resources/secret/fields.ts). */
export const CreateSecretRequest = z.strictObject({ ...SECRET_CREATE_ONLY, ...SECRET_UPDATE });
export type CreateSecretRequest = z.infer<typeof CreateSecretRequest>;

/** Only what is sent changes; at least one field. `description: ""` clears it. */
export const UpdateSecretRequest = z
  .strictObject(SECRET_UPDATE)
  .partial()
  .refine((b) => b.value !== undefined || b.description !== undefined, "needs value or description");
export type UpdateSecretRequest = z.infer<typeof UpdateSecretRequest>;

export const Secret = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  /** When the value was last set: at create, and at each rotation. */
  valueLastUpdatedAt: z.string().nullable().optional(),
});
export type Secret = z.infer<typeof Secret>;
export const ListSecretsResponse = z.looseObject({ secrets: z.array(Secret) });
