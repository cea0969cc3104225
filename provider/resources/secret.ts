import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { optionInputs } from "./common.js";
import type { SecretArgs } from "./secret/types.js";

export { SECRET_TYPE } from "../both/type-tokens.js";

/**
 * A RunPod account secret (`{base_url}/v2/account/secrets`): an encrypted string that pods,
 * templates and serverless endpoints reference from env as `{{ RUNPOD_SECRET_<name> }}`; RunPod
 * substitutes the value when the pod or worker boots, so the env in state, previews and the API's
 * answers holds the reference, never the value. Give `secret.reference` (an Output) as the env
 * value: the pod then depends on the secret, and destroy deletes the pod first.
 *
 * A new `value` rotates the secret in place; pods and workers get it at their next boot. A new
 * `name` replaces it (names are immutable), and references to the old name stop resolving.
 * @example
 * const hf = new Secret("hf-token", { name: "hf-token", value: config.requireSecret("hfToken") });
 * new Pod("vllm", { name: "vllm", image: "vllm/vllm-openai:v0.6.3", gpu: { id: "NVIDIA A40" }, env: { HF_TOKEN: hf.reference } });
 */
export class Secret extends pulumi.dynamic.Resource {
  /** The secret's id; also the resource id. */
  declare readonly secretId: pulumi.Output<string>;
  /** The secret's name in the account. */
  declare readonly name: pulumi.Output<string>;
  /** The description; `null` without one. */
  declare readonly description: pulumi.Output<string | null>;
  /** When the secret was created (ISO 8601); `null` when the API does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** When the value was last set (create or rotation); a change made outside Pulumi shows here. */
  declare readonly valueLastUpdatedAt: pulumi.Output<string | null>;
  /** `{{ RUNPOD_SECRET_<name> }}`: the env value that refers to this secret. */
  declare readonly reference: pulumi.Output<string>;

  constructor(name: string, args: SecretArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("Secret"),
      name,
      {
        secretId: undefined,
        description: undefined,
        createdAt: undefined,
        valueLastUpdatedAt: undefined,
        reference: undefined,
        ...args,
        // Secret in state whatever the program passed; never an output (the API never answers it).
        value: pulumi.secret(args.value),
        ...optionInputs(opts),
      },
      opts,
      "runpod",
      "Secret",
    );
  }
}
