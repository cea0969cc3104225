/** The types of `Secret`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { Resolved } from "../same-type.js";

/** Checked inputs of a Secret, as `check` accepts them and the provider sees them. */
export type SecretInputs = Resolved<SecretArgs>;

/** How the program describes an account secret. Every field may be a Pulumi Input. */
export interface SecretArgs {
  /**
   * The secret's name in the account, the `<name>` of `{{ RUNPOD_SECRET_<name> }}`: a letter or
   * underscore first, then letters, digits and `_.-/`, at most 191 characters, not starting with
   * RUNPOD. Unique in the account regardless of case.
   * @onChange replace: names are immutable, and references to the old name stop resolving. A change
   * of case only deletes the old secret first.
   */
  name: pulumi.Input<string>;
  /**
   * The value, smaller than 16 MiB of UTF-8. Always stored as a secret in state; never an output.
   * @onChange update: the secret is rotated; pods and workers that reference it get the new value
   * at their next boot, running ones keep the value they started with.
   */
  value: pulumi.Input<string>;
  /**
   * At most 65535 bytes; `""` clears it.
   * @defaultValue none: the API's is kept
   * @onChange update
   */
  description?: pulumi.Input<string>;
  /**
   * Adopt this existing secret instead of creating one. Its name must be the one given. The API
   * never shows a value, so adopting writes the given `value` (and `description`) to it.
   * @defaultValue none: create a secret
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

export interface SecretOutputs {
  /** The secret's id; also the resource id. */
  secretId: string;
  name: string;
  description: string | null;
  createdAt: string | null;
  /** When the value was last set (create or rotation); a change made outside Pulumi shows here. */
  valueLastUpdatedAt: string | null;
  /** `{{ RUNPOD_SECRET_<name> }}`: the env value that refers to it. */
  reference: string;
}
