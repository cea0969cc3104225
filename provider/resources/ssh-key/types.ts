/** An SshKey's inputs and outputs as the provider sees them (the declaration's, fields.ts, and its marks). */
import type { z } from "zod";
import type { SshKeyArgsSchema, SshKeyStateSchema } from "./fields.js";

export type SshKeyInputs = z.infer<typeof SshKeyArgsSchema> & {
  /** @internal This resource as a holder of the key (ssh-key/holders.ts); set by the program. */
  __holder?: string;
};

export type SshKeyOutputs = z.infer<typeof SshKeyStateSchema> & {
  /** @internal This resource as a holder of the key; absent for a key created before keys had holders. */
  __holder?: string;
  /** @internal Set by a read that found the key without this resource's mark. */
  __unmarked?: true;
};
