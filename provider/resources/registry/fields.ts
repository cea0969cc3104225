/**
 * A Registry's fields, each declared once (docs/decisions.md, "One declaration per field"). The
 * API has no update: every change replaces the credential, and it never answers the username or
 * the password.
 */
import { z } from "zod";
import { declareResource, mirror } from "../../fields/declaration.js";
import { adoptId } from "../common-fields.js";
import { REGISTRY_DESCRIPTION, REGISTRY_EXAMPLES, REGISTRY_GET } from "./docs.js";

const NO_UPDATE = { kinds: ["replace"], detail: "the API has no update" } as const;

/** The fields of the create body. */
export const REGISTRY_BODY = {
  name: z.string().min(1).meta({ description: "The credential's name in the account.", onChange: NO_UPDATE }),
  username: z.string().min(1).meta({
    description: "Registry user: the account for Docker Hub, the GitHub user for GHCR.",
    onChange: NO_UPDATE,
  }),
  password: z.string().min(1).meta({
    description:
      "Password or access token. Always a secret; never an output: a salted digest in state shows a new one.",
    secret: true,
    onChange: NO_UPDATE,
  }),
};

export const RegistryArgsSchema = z.strictObject({
  ...REGISTRY_BODY,
  adoptId: adoptId(
    "a credential",
    "The API cannot tell whether the given username and password are the ones it holds: they are recorded as given.",
  ),
});

export const RegistryStateSchema = z.object({
  registryId: z.string().meta({
    description:
      "The credential's id; also the resource id. Give it to a pod's, template's or endpoint's registry.",
  }),
  name: mirror(RegistryArgsSchema.shape.name, "api"),
  credentialsDigest: z.string().meta({
    description: "Salted scrypt digest of the username and password, so a new password is seen.",
    secret: true,
    internal: true,
  }),
  credentialsSalt: z.string().meta({ description: "The digest's salt.", internal: true }),
});

export const REGISTRY = declareResource({
  kind: "Registry",
  description: REGISTRY_DESCRIPTION,
  get: REGISTRY_GET,
  examples: REGISTRY_EXAMPLES,
  inputs: RegistryArgsSchema,
  outputs: RegistryStateSchema,
});
