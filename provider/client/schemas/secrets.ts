/**
 * Account secrets (`{base_url}/v2/account/secrets`): encrypted strings that pods, templates and
 * serverless endpoints reference from env as `{{ RUNPOD_SECRET_<name> }}`, substituted when the
 * pod or worker boots. The value is write-only: an answer carries the secret's metadata, never the
 * value. The rules are those of RunPod's v2 reference (docs/api-differences.md, "Routes newer than
 * our copy of the description").
 */
import { z } from "zod";

/** A secret's name: a letter or underscore first, then letters, digits and `_.-/`. */
export const SECRET_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;
export const SECRET_NAME_MAX_LENGTH = 191;
/** Names starting with this prefix, in any case, are the service's own. */
export const RESERVED_SECRET_PREFIX = "RUNPOD";
/** A value must be strictly smaller than 16 MiB of UTF-8. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024 * 1024;
/** A description may be at most 64 KiB - 1 of UTF-8. */
export const SECRET_DESCRIPTION_MAX_BYTES = 65_535;
/**
 * Largest body a secrets request may need: a value and a description at their limits, each
 * character JSON-escaped at worst as `\u00XX` (6 bytes). The pods' 102400-byte limit is not theirs.
 */
export const SECRET_REQUEST_MAX_BYTES = 6 * (SECRET_VALUE_MAX_BYTES + SECRET_DESCRIPTION_MAX_BYTES) + 1024;

const utf8Bytes = (s: string) => Buffer.byteLength(s, "utf8");

export const SecretName = z
  .string()
  .min(1)
  .max(SECRET_NAME_MAX_LENGTH)
  .regex(SECRET_NAME_PATTERN, "must start with a letter or underscore and hold only letters, digits and _.-/")
  .refine(
    (n) => !n.toUpperCase().startsWith(RESERVED_SECRET_PREFIX),
    `must not start with ${RESERVED_SECRET_PREFIX} (in any case): the prefix is reserved`,
  );

export const SecretValue = z
  .string()
  .min(1)
  .refine((v) => utf8Bytes(v) < SECRET_VALUE_MAX_BYTES, "must be smaller than 16 MiB of UTF-8");

export const SecretDescription = z
  .string()
  .refine(
    (d) => utf8Bytes(d) <= SECRET_DESCRIPTION_MAX_BYTES,
    `must be at most ${SECRET_DESCRIPTION_MAX_BYTES} bytes of UTF-8`,
  );

export const CreateSecretRequest = z.strictObject({
  name: SecretName,
  value: SecretValue,
  description: SecretDescription.optional(),
});
export type CreateSecretRequest = z.infer<typeof CreateSecretRequest>;

/** Only what is sent changes; at least one field. `description: ""` clears it. */
export const UpdateSecretRequest = z
  .strictObject({ value: SecretValue.optional(), description: SecretDescription.optional() })
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
