import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs, withSecretOutputs } from "./common.js";
import type { RegistryArgs } from "./registry/types.js";
import { SECRET_FIELDS } from "./secret-fields.js";

/** One thin provider for every Registry: Pulumi serializes it once per program. */
const REGISTRY_PROVIDER = thinProvider("Registry");

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

  /**
   * An existing registry credential, read by its id and never changed by this program: `pulumi
   * up` reads it (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it
   * without deleting it. The API shows only its id and name, never the username or password, and
   * a pod pulls with it by `registry: ghcr.id` as with a managed one. To take a credential over
   * and manage it, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The credential's id, as `runpod-dynamic registries list` shows it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const ghcr = Registry.get("ghcr", "xdph7swyaa");
   * new Pod("app", { name: "app", image: "ghcr.io/my-org/app:1.4", registry: ghcr.id, gpu: { id: "NVIDIA A40" } });
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Registry {
    return readById(Registry, name, id, opts);
  }

  constructor(name: string, args: RegistryArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      REGISTRY_PROVIDER,
      name,
      {
        ...unsetOutputs(REGISTRY_OUTPUTS),
        credentialsDigest: undefined,
        credentialsSalt: undefined,
        ...args,
        // Secret in state whatever the program passed; a credential read by id holds none.
        password: opts.id === undefined ? pulumi.secret(args.password) : undefined,
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, ...SECRET_FIELDS.Registry.outputs),
      "runpod",
      "Registry",
    );
  }
}

/** Every output of a Registry (common.ts `OutputNames`). */
const REGISTRY_OUTPUTS: OutputNames<Registry> = { registryId: true, name: true };
