/** The types of `Registry`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { Resolved } from "../same-type.js";

/** Checked inputs of a Registry, as `check` accepts them and the provider sees them. */
export type RegistryInputs = Resolved<RegistryArgs>;

/** How the program describes registry credentials. Every field may be a Pulumi Input. */
export interface RegistryArgs {
  /**
   * The credential's name in the account.
   * @onChange replace: the API has no update.
   */
  name: pulumi.Input<string>;
  /**
   * Registry user (for Docker Hub, the account; for GHCR, the GitHub user).
   * @onChange replace: the API has no update.
   */
  username: pulumi.Input<string>;
  /**
   * Password or access token. Always stored as a secret; never an output (a salted digest shows a
   * new one).
   * @onChange replace: the API has no update.
   */
  password: pulumi.Input<string>;
  /**
   * Adopt this existing credential instead of creating one. The API cannot tell whether the given
   * username and password are the ones it holds: they are recorded as given.
   * @defaultValue none: create a credential
   * @onChange none
   */
  adoptId?: pulumi.Input<string>;
}

export interface RegistryOutputs {
  /** The credential's id; also the resource id. Give it to a pod's, template's or endpoint's `registry`. */
  registryId: string;
  name: string;
  /** Salted scrypt digest of the username and password, so a new password is seen. A secret. */
  credentialsDigest: string;
  credentialsSalt: string;
}
