import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs } from "./common.js";
import { holderOf } from "./ssh-key/holders.js";
import type { SshKeyArgs } from "./ssh-key/types.js";
import { markOf } from "./stack-identity.js";

export { SSH_KEY_TYPE } from "./type-tokens.js";

/** One thin provider for every SshKey: Pulumi serializes it once per program. */
const SSH_KEY_PROVIDER = thinProvider("SshKey");

/**
 * An SSH public key registered with the account.
 * @example
 * const key = new SshKey("laptop", { publicKey: fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519.pub`, "utf8") });
 * new Pod("dev", { ..., startSsh: true, ports: ["22/tcp"] }, { dependsOn: [key] });
 */
export class SshKey extends pulumi.dynamic.Resource {
  /** The registered authorized_keys line, trimmed. */
  declare readonly publicKey: pulumi.Output<string>;
  /** `SHA256:...`, as `ssh-keygen -l` prints it. Also the resource id. */
  declare readonly fingerprint: pulumi.Output<string>;
  /** The key's type, e.g. `ssh-ed25519`. */
  declare readonly keyType: pulumi.Output<string>;
  /** The key line's comment; `null` without one. */
  declare readonly comment: pulumi.Output<string | null>;

  /**
   * A key the account already has, read by its fingerprint and never changed by this program:
   * `pulumi up` reads it (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy`
   * forgets it without removing it from the account. To take a key over and manage it, declare it
   * with its `publicKey` instead: a key the account has is not added twice.
   *
   * @param name The resource's name in the stack.
   * @param id The key's SHA-256 fingerprint as `ssh-keygen -lf` prints it (`SHA256:…`); an SshKey's id.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const laptop = SshKey.get("laptop", "SHA256:2nEG8eBCXPWZ5Tjc1EahMkFnqBpAvUODKyo3Ybo6eys");
   * export const laptopKey = laptop.publicKey;
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): SshKey {
    return readById(SshKey, name, id, opts);
  }

  constructor(name: string, args: SshKeyArgs, opts: pulumi.CustomResourceOptions = {}) {
    const holder = markOf(name, opts, holderOf);
    super(
      SSH_KEY_PROVIDER,
      name,
      {
        ...unsetOutputs(SSH_KEY_OUTPUTS),
        ...args,
        ...optionInputs(opts),
        ...(holder ? { __holder: holder } : {}),
      },
      opts,
      "runpod",
      "SshKey",
    );
  }
}

/** Every output of an SshKey (common.ts `OutputNames`). */
const SSH_KEY_OUTPUTS: OutputNames<SshKey> = {
  publicKey: true,
  fingerprint: true,
  keyType: true,
  comment: true,
};
