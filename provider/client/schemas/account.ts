/** Account SSH keys (`GET`/`PUT {base_url}/v2/account/ssh-keys`). PUT replaces the whole set. */
import { z } from "zod";

/** An authorized_keys line, as the v2 description's UpdateSshKeysRequest pattern requires. */
export const SSH_PUBLIC_KEY_PATTERN = /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/;

export const SshKeys = z.looseObject({ keys: z.array(z.string()) });
export type SshKeys = z.infer<typeof SshKeys>;

export const UpdateSshKeysRequest = z.strictObject({
  keys: z.array(
    z.string().regex(SSH_PUBLIC_KEY_PATTERN, "must be an authorized_keys line: <type> <base64> [comment]"),
  ),
});
