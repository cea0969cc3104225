/**
 * A Secret's fields, each declared once (docs/decisions.md, "One declaration per field"), with the
 * API's rules for a name, a value and a description (docs/api-differences.md, "Routes newer than
 * our copy of the description"). The value is write-only: no answer carries it.
 */
import { z } from "zod";
import { declareResource, mirror } from "../../fields/declaration.js";
import { adoptId } from "../common-fields.js";
import { SECRET_DESCRIPTION, SECRET_EXAMPLES, SECRET_GET } from "./docs.js";

/** A secret's name: a letter or underscore first, then letters, digits and `_.-/`. */
export const SECRET_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/;
export const SECRET_NAME_MAX_LENGTH = 191;
/** Names starting with this prefix, in any case, are the service's own. */
export const RESERVED_SECRET_PREFIX = "RUNPOD";
/** A value must be strictly smaller than 16 MiB of UTF-8. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024 * 1024;
/** A description may be at most 64 KiB - 1 of UTF-8. */
export const SECRET_DESCRIPTION_MAX_BYTES = 65_535;

const utf8Bytes = (s: string) => Buffer.byteLength(s, "utf8");

const SecretDescription = z
  .string()
  .refine(
    (d) => utf8Bytes(d) <= SECRET_DESCRIPTION_MAX_BYTES,
    `must be at most ${SECRET_DESCRIPTION_MAX_BYTES} bytes of UTF-8`,
  );

/** The fields of the create body. */
export const SECRET_CREATE_ONLY = {
  name: z
    .string()
    .min(1)
    .max(SECRET_NAME_MAX_LENGTH)
    .regex(
      SECRET_NAME_PATTERN,
      "must start with a letter or underscore and hold only letters, digits and _.-/",
    )
    .refine(
      (n) => !n.toUpperCase().startsWith(RESERVED_SECRET_PREFIX),
      `must not start with ${RESERVED_SECRET_PREFIX} (in any case): the prefix is reserved`,
    )
    .meta({
      description:
        "The secret's name in the account, what an env value refers to it by: a letter or underscore first, then letters, digits and `_.-/`, at most 191 characters, not starting with RUNPOD. Unique in the account regardless of case.",
      onChange: {
        kinds: ["replace"],
        detail:
          "names are immutable, and references to the old name stop resolving; a change of case only deletes the old secret first",
      },
    }),
};

/** The fields of the update body, also in the create body. */
export const SECRET_UPDATE = {
  value: z
    .string()
    .min(1)
    .refine((v) => utf8Bytes(v) < SECRET_VALUE_MAX_BYTES, "must be smaller than 16 MiB of UTF-8")
    .meta({
      description: "The value, smaller than 16 MiB of UTF-8. Always a secret; never an output.",
      secret: true,
      onChange: {
        kinds: ["update"],
        detail:
          "the secret is rotated: pods and workers that refer to it get the new value at their next boot, running ones keep the value they started with",
      },
    }),
  description: SecretDescription.optional().meta({
    description: "At most 65535 bytes of UTF-8; an empty string clears it.",
    defaultText: "none: the API's is kept",
    onChange: "update",
  }),
};

export const SecretArgsSchema = z.strictObject({
  ...SECRET_CREATE_ONLY,
  ...SECRET_UPDATE,
  adoptId: adoptId(
    "a secret",
    "Its name must be the one given. The API never shows a value, so adopting writes the given value (and description) to it.",
  ),
});

export const SecretStateSchema = z.object({
  secretId: z.string().meta({ description: "The secret's id; also the resource id." }),
  name: mirror(SecretArgsSchema.shape.name, "api"),
  description: z.string().nullable().meta({ description: "The description; null without one." }),
  createdAt: z
    .string()
    .nullable()
    .meta({ description: "When the secret was created (ISO 8601); null when the API does not say." }),
  valueLastUpdatedAt: z.string().nullable().meta({
    description: "When the value was last set (create or rotation); a change made outside Pulumi shows here.",
  }),
  reference: z.string().meta({
    description: "`{{ RUNPOD_SECRET_<name> }}`: the env value that refers to this secret.",
  }),
});

export const SECRET = declareResource({
  kind: "Secret",
  description: SECRET_DESCRIPTION,
  get: SECRET_GET,
  examples: SECRET_EXAMPLES,
  inputs: SecretArgsSchema,
  outputs: SecretStateSchema,
});
