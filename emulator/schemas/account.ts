/** The account's SSH keys body (v2 description: UpdateSshKeysRequest). */
import { z } from "zod";

/** One authorized_keys line, `<type> <base64-key> [comment]`: the description's pattern. */
const AuthorizedKey = z
  .string()
  .regex(
    /^(ssh|ecdsa|sk)-[^\s]+ [^\s]+([ \t][^\n\r]*)?$/,
    "must be an authorized_keys line: <type> <base64> [comment]",
  );

/** The whole set: a PUT replaces every key, `[]` removes them all. */
export const UpdateSshKeysRequest = z.strictObject({ keys: z.array(AuthorizedKey) });
