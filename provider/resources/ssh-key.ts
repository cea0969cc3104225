import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { optionInputs } from "./common.js";
import type { SshKeyArgs } from "./ssh-key/types.js";

export { SSH_KEY_TYPE } from "../both/type-tokens.js";

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

  constructor(name: string, args: SshKeyArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("SshKey"),
      name,
      { fingerprint: undefined, keyType: undefined, comment: undefined, ...args, ...optionInputs(opts) },
      opts,
      "runpod",
      "SshKey",
    );
  }
}
