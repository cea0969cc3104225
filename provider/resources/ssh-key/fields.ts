/**
 * An SshKey's fields, each declared once (docs/decisions.md, "One declaration per field"). Check
 * parses the key line itself (check.ts): one public key, never a private one.
 */
import { z } from "zod";
import { declareResource, mirror } from "../../fields/declaration.js";
import { SSH_KEY_DESCRIPTION, SSH_KEY_EXAMPLES, SSH_KEY_GET } from "./docs.js";

export const SshKeyArgsSchema = z.strictObject({
  publicKey: z.string().meta({
    description:
      "An authorized_keys line, `<type> <base64> [comment]`: the contents of `~/.ssh/id_ed25519.pub`, for example. A private key is refused at check.",
    onChange: {
      kinds: ["replace", "update"],
      detail: "new key material replaces the key; the same key with another comment is rewritten in place",
    },
  }),
});

export const SshKeyStateSchema = z.object({
  publicKey: mirror(SshKeyArgsSchema.shape.publicKey, "built").meta({
    description: "The registered authorized_keys line, trimmed.",
  }),
  fingerprint: z
    .string()
    .meta({ description: "`SHA256:...`, as `ssh-keygen -l` prints it. Also the resource id." }),
  keyType: z.string().meta({ description: "The key's type, for example `ssh-ed25519`." }),
  comment: z.string().nullable().meta({ description: "The key line's comment; null without one." }),
});

export const SSH_KEY = declareResource({
  kind: "SshKey",
  description: SSH_KEY_DESCRIPTION,
  get: SSH_KEY_GET,
  examples: SSH_KEY_EXAMPLES,
  inputs: SshKeyArgsSchema,
  outputs: SshKeyStateSchema,
});
