/** The types of `SshKey`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */
import type * as pulumi from "@pulumi/pulumi";

/** How the program describes an SSH public key. */
export interface SshKeyArgs {
  /**
   * An authorized_keys line: `<type> <base64> [comment]`, e.g. the contents of
   * `~/.ssh/id_ed25519.pub`. A private key is refused at check.
   * @onChange replace, update: new key material replaces the key; the same key with another
   * comment is rewritten in place.
   */
  publicKey: pulumi.Input<string>;
}

export interface SshKeyInputs {
  publicKey: string;
  /** @internal This resource as a holder of the key (ssh-key/holders.ts); set by the program. */
  __holder?: string;
}

export interface SshKeyOutputs {
  publicKey: string;
  /** `SHA256:...`, as `ssh-keygen -l` prints it. Also the resource id. */
  fingerprint: string;
  keyType: string;
  comment: string | null;
  /** @internal This resource as a holder of the key; absent for a key created before keys had holders. */
  __holder?: string;
  /** @internal Set by a read that found the key without this resource's mark. */
  __unmarked?: true;
}
