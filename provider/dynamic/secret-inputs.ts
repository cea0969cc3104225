/**
 * Program side: inputs that can carry a credential are Pulumi secrets before they are registered,
 * so no copy of them in state is plaintext. The engine stores a resource's inputs as the program
 * registered them; marking only the outputs secret (additionalSecretOutputs) left a plain env
 * value in the state's inputs.
 *
 * Which env values the program itself gave as plain text is kept beside them, names only
 * (`_plainEnvKeys`): the policy pack's env-secrets reports a credential-looking one, because its
 * value sits unencrypted in the program or its stack config even though state holds it encrypted.
 */
import * as pulumi from "@pulumi/pulumi";
import { PLAIN_ENV_KEYS } from "../resources/common.js";

type Env = pulumi.Input<Record<string, pulumi.Input<string>>>;

/** The keys of `env` whose values the program did not make secret. */
function plainKeys(env: Env): pulumi.Output<string[]> {
  if (pulumi.Output.isInstance(env)) {
    // One output for the whole map: a secret anywhere in it made the whole map secret.
    const whole = pulumi.output(env);
    return pulumi
      .all([pulumi.output(pulumi.isSecret(whole)), whole])
      .apply(([secret, values]) => (secret ? [] : Object.keys(values ?? {})));
  }
  return pulumi
    .all(
      Object.entries(env).map(([key, value]) =>
        pulumi.output(pulumi.isSecret(pulumi.output(value))).apply((secret) => (secret ? [] : [key])),
      ),
    )
    .apply((keys) => keys.flat());
}

/** `env` as a secret, and the names of the values the program gave as plain text; nothing when absent. */
export function secretEnv(env: Env | undefined): Record<string, unknown> {
  if (env === undefined) return {};
  return { env: pulumi.secret(env), [PLAIN_ENV_KEYS]: plainKeys(env) };
}
