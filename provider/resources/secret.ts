import * as pulumi from "@pulumi/pulumi";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs } from "./common.js";
import type { SecretArgs } from "./secret/types.js";

/** One thin provider for every Secret: Pulumi serializes it once per program. */
const SECRET_PROVIDER = thinProvider("Secret");

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

  /**
   * An existing account secret, read by its id and never changed by this program: `pulumi up`
   * reads it (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it
   * without deleting it. It has no value: the API never answers one, so a read secret gives its
   * name, description, dates and `reference` (what env uses), and state holds no value of it. To
   * take a secret over and set its value from the program, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The secret's id, as `GET /v2/account/secrets` lists it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const hf = Secret.get("hf-token", "l609r5w0qkkd");
   * new Pod("vllm", { name: "vllm", image: "vllm/vllm-openai:v0.6.3", gpu: { id: "NVIDIA A40" }, env: { HF_TOKEN: hf.reference } });
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Secret {
    return readById(Secret, name, id, opts);
  }

  constructor(name: string, args: SecretArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      SECRET_PROVIDER,
      name,
      {
        ...unsetOutputs(SECRET_OUTPUTS),
        ...args,
        // Secret in state whatever the program passed; never an output (the API never answers it).
        // A secret read by id holds none, even given one: the read never writes it.
        value: opts.id === undefined ? pulumi.secret(args.value) : undefined,
        ...optionInputs(opts),
      },
      opts,
      "runpod",
      "Secret",
    );
  }
}

/** Every output of a Secret (common.ts `OutputNames`). */
const SECRET_OUTPUTS: OutputNames<Secret> = {
  secretId: true,
  name: true,
  description: true,
  createdAt: true,
  valueLastUpdatedAt: true,
  reference: true,
};

/**
 * The env value that refers to the secret `name`: `{{ RUNPOD_SECRET_<name> }}`, replaced by the
 * secret's value when the pod or worker boots. The env keeps the reference as written, so state,
 * previews and the API's answers hold the name, never the value. (Beside the class, not with the
 * request bodies: the root entry exports it, and its declarations never reach zod.)
 * @example
 * new Pod("app", { ..., env: { HF_TOKEN: secretReference("hf-token") } }); // "{{ RUNPOD_SECRET_hf-token }}"
 */
export function secretReference(name: string): string {
  return `{{ RUNPOD_SECRET_${name} }}`;
}
