/**
 * `env-secrets`: env values whose names look like credentials must be Pulumi secrets in the
 * program. runpod-dynamic's resource classes make every env secret before registering it, so state
 * never holds one in plaintext; a value the program gives as plain text still sits unencrypted in
 * the program or its stack config, and so in version control. The classes list those keys (names
 * only) in the `_plainEnvKeys` input, which is what this policy reads; for a resource registered
 * without that list (an older version of the package), it falls back to the values' secret
 * markers, below.
 *
 * Seeing whether a value is secret takes care (@pulumi/policy 1.21.0 server.js). `Analyze` and
 * `AnalyzeStack` deserialize with `proxySecrets=false`, which drops the secret marker: a
 * validation sees `pulumi.secret("s3cr3t")` and `"s3cr3t"` identically (pulumi/pulumi-policy#241).
 * Two ways out, and the trade-off:
 *
 * 1. The `remediate` level, public API: only `Remediate` deserializes with `proxySecrets=true`, so
 *    values arrive as `Secret`. But a remediation does not report, it rewrites the program's
 *    inputs (here: wraps the value as a secret), and it cannot be advisory or mandatory.
 * 2. {@link keepSecretMarkers}: point `@pulumi/policy`'s internal deserializer at
 *    `proxySecrets=true` for every RPC, so `validateResource` sees `Secret` wrappers too. Works at
 *    every level, but depends on a private module layout of `@pulumi/policy`.
 *
 * The pack does both. Validation (advisory by default) relies on 2, installed by index.ts before
 * the server handles a request; if it could not be installed the policy reports nothing rather
 * than flag every value (a real secret is never reported). Setting the policy to `remediate` uses
 * 1 and turns the values into secrets instead. policy/package.json takes `@pulumi/policy` 1.21.x
 * only, and test/policy/pack.test.ts proves both paths through the real policy server on 1.21.0.
 */
import {
  type PolicyConfigSchema,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  Secret,
} from "@pulumi/policy";
import { PLAIN_ENV_KEYS } from "runpod-dynamic/review";
import {
  CLUSTER_TYPE,
  configOf,
  isUnknown,
  list,
  POD_TYPE,
  plainValue,
  rawProps,
  record,
  SERVERLESS_ENDPOINT_TYPE,
  subject,
  typeOf,
  violation,
} from "./common";

type Deserialize = (struct: unknown, proxySecrets: boolean) => unknown;
const PATCHED = Symbol.for("runpod-policies.keepSecretMarkers");

/**
 * Makes `Analyze` and `AnalyzeStack` keep secret values wrapped in `Secret`, as `Remediate`
 * already does. The server calls `deserialize_1.deserializeProperties(...)` through the module
 * object, so replacing the export is enough. Policies that read `args.props` normally still see
 * plaintext (the secrets-preserving proxy unwraps on read). Idempotent.
 * @returns whether secret markers are now visible to validations.
 */
export function keepSecretMarkers(): boolean {
  let deserialize: { deserializeProperties?: unknown };
  try {
    deserialize = require("@pulumi/policy/deserialize") as typeof deserialize;
  } catch {
    return false;
  }
  const original = deserialize.deserializeProperties;
  if (typeof original !== "function") return false;
  if (PATCHED in original) return true;
  const patched = Object.assign(
    (struct: unknown, _proxySecrets: boolean) => (original as Deserialize)(struct, true),
    { [PATCHED]: true },
  );
  deserialize.deserializeProperties = patched;
  return deserialize.deserializeProperties === patched;
}

/** One env variable and whether its value arrived as a Pulumi secret. */
export interface EnvEntry {
  readonly name: string;
  readonly value: unknown;
  readonly secret: boolean;
}

/**
 * The env entries of a resource's raw properties; none when env is absent, unknown or malformed.
 * An entry is secret unless the program gave it as plain text (`_plainEnvKeys`, when the class
 * recorded it and preview knows it: `listed`), or else unless its value arrived without a secret
 * marker.
 */
function envEntries(props: object): { entries: EnvEntry[]; listed: boolean } {
  const raw = rawProps(props);
  const whole = raw.env instanceof Secret;
  const env = record(whole ? (raw.env as Secret).value : raw.env);
  const plain = list(plainValue(raw[PLAIN_ENV_KEYS]));
  const entries = Object.entries(env ?? {}).map(([name, value]) => ({
    name,
    value: plainValue(value),
    secret: plain ? !plain.includes(name) : whole || value instanceof Secret,
  }));
  return { entries, listed: plain !== undefined };
}

/** `*_KEY`, `*_TOKEN`, `*PASSWORD*`, `*SECRET*`, in any case. */
const SECRET_NAME = /(_KEY|_TOKEN)$|PASSWORD|SECRET/i;

const TYPES: readonly string[] = [POD_TYPE, SERVERLESS_ENDPOINT_TYPE, CLUSTER_TYPE];

const configSchema: PolicyConfigSchema = {
  properties: {
    ignoreNames: {
      type: "array",
      items: { type: "string" },
      default: ["PUBLIC_KEY"],
      description:
        "Variable names never reported. PUBLIC_KEY carries SSH public keys (what startSsh injects), which are not secret.",
    },
  },
};

interface EnvSecretsConfig {
  readonly ignoreNames: readonly string[];
}

/**
 * A value that is exactly a reference to a RunPod account secret, `{{ RUNPOD_SECRET_<name> }}`:
 * the service substitutes the secret's value when the pod or worker boots, so the env holds a name,
 * not a credential.
 */
const SECRET_REFERENCE = /^\{\{\s*RUNPOD_SECRET_[a-zA-Z_][a-zA-Z0-9_.\-/]*\s*\}\}$/;

/** A plaintext value under a credential-like name; unknown values (preview) and secret references are left alone. */
function exposed(entry: EnvEntry, config: EnvSecretsConfig): boolean {
  return (
    !entry.secret &&
    typeof entry.value === "string" &&
    !isUnknown(entry.value) &&
    !SECRET_REFERENCE.test(entry.value) &&
    SECRET_NAME.test(entry.name) &&
    !config.ignoreNames.includes(entry.name)
  );
}

function remediate(args: ResourceValidationArgs): Record<string, unknown> | undefined {
  if (!TYPES.includes(typeOf(args.type))) return undefined;
  const config = configOf<EnvSecretsConfig>(args, configSchema);
  const fixes = envEntries(args.props).entries.filter((entry) => exposed(entry, config));
  if (fixes.length === 0) return undefined;
  // Raw values keep every other secret wrapped; a whole-secret env (what the classes register)
  // is unwrapped into per-key values, the fixed ones secret.
  const raw = rawProps(args.props);
  const env: Record<string, unknown> = {
    ...record(raw.env instanceof Secret ? raw.env.value : raw.env),
  };
  for (const entry of fixes) env[entry.name] = new Secret(entry.value);
  const fixed = new Set(fixes.map((f) => f.name));
  const plain = list(plainValue(raw[PLAIN_ENV_KEYS]));
  return {
    ...raw,
    env,
    ...(plain ? { [PLAIN_ENV_KEYS]: plain.filter((k) => !fixed.has(String(k))) } : {}),
  };
}

/**
 * The `env-secrets` policy for Pods, ServerlessEndpoints and Clusters.
 * @param options.secretsVisible whether {@link keepSecretMarkers} succeeded; without it, a resource
 *   registered without `_plainEnvKeys` cannot be told apart and is not reported.
 */
export function envSecretsPolicy(options: { readonly secretsVisible: boolean }): ResourceValidationPolicy {
  return {
    name: "env-secrets",
    description:
      "Env values with credential-like names (*_KEY, *_TOKEN, *PASSWORD*, *SECRET*) should be Pulumi secrets.",
    enforcementLevel: "advisory",
    configSchema,
    validateResource: (args, reportViolation) => {
      if (!TYPES.includes(typeOf(args.type))) return;
      const { entries, listed } = envEntries(args.props);
      // Without the class's list, only secret markers tell; without them, nothing is reported.
      if (!listed && !options.secretsVisible) return;
      const config = configOf<EnvSecretsConfig>(args, configSchema);
      for (const entry of entries) {
        if (!exposed(entry, config)) continue;
        reportViolation(
          violation(
            subject(typeOf(args.type), args.name),
            `env.${entry.name}`,
            "the name looks like a credential but the program gives the value as plain text, so it sits unencrypted in the program or its stack config, and in version control (runpod-dynamic keeps it encrypted in state)",
            `pass it as a secret (pulumi config set --secret <key>, then config.requireSecret("<key>")) or wrap it with pulumi.secret(...); if it is not a credential, add "${entry.name}" to this policy's ignoreNames`,
          ),
        );
      }
    },
    remediateResource: remediate,
  };
}
