import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { optionInputs, withSecretOutputs } from "./common.js";
import type { RegistryArgs } from "./registry/types.js";

export { REGISTRY_TYPE } from "../both/type-tokens.js";

/**
 * Private registry credentials for pulling images.
 * @example
 * const ghcr = new Registry("ghcr", {
 *   name: "ghcr",
 *   username: "my-org-bot",
 *   password: config.requireSecret("ghcrToken"),
 * });
 * new Pod("app", { name: "app", image: "ghcr.io/my-org/app:1.4", registry: ghcr.id, gpu: { id: "NVIDIA A40" } });
 */
export class Registry extends pulumi.dynamic.Resource {
  /** The credential's id; also the resource id. Give it to a Pod's, Template's or ServerlessEndpoint's `registry`. */
  declare readonly registryId: pulumi.Output<string>;
  /** The credential's name in the account. */
  declare readonly name: pulumi.Output<string>;

  constructor(name: string, args: RegistryArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("Registry"),
      name,
      {
        registryId: undefined,
        credentialsDigest: undefined,
        credentialsSalt: undefined,
        ...args,
        // Secret in state whatever the program passed.
        password: pulumi.secret(args.password),
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, "credentialsDigest"),
      "runpod",
      "Registry",
    );
  }
}
