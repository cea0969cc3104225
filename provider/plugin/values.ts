/**
 * Property values between the engine's wire form (a protobuf Struct) and the plain values the
 * resources' providers take, for the provider plugin.
 *
 * The plugin tells the engine it accepts secrets, so a secret input arrives wrapped
 * (`{<sig>: <secret sig>, value}`); the providers take plain values, as the dynamic-provider host
 * hands them. What was secret is remembered per top-level property and marked again in every
 * answer: the engine does not mark a provider's outputs secret for it. An unknown value (preview)
 * stays the sentinel string the providers already read as unknown (provider/validation/unknown.ts);
 * resources and outputs are never sent as such (the plugin accepts neither).
 */
import * as pulumi from "@pulumi/pulumi";
import { pulumiRequire } from "../host/pulumi-require.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb") as Any;
const SIG = pulumi.runtime.specialSigKey;

export interface Properties {
  /** The values, secrets unwrapped. */
  readonly values: Record<string, unknown>;
  /** The top-level properties that held a secret anywhere. */
  readonly secret: ReadonlySet<string>;
}

function isSecretValue(value: unknown): value is { value: unknown } {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)[SIG] === pulumi.runtime.specialSecretSig
  );
}

function holdsSecret(value: unknown): boolean {
  if (isSecretValue(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsSecret);
  return false;
}

function unwrap(value: unknown): unknown {
  if (isSecretValue(value)) return unwrap(value.value);
  if (Array.isArray(value)) return value.map(unwrap);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record[SIG] === pulumi.runtime.specialOutputValueSig) {
      return "value" in record ? unwrap(record.value) : pulumi.runtime.unknownValue;
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, unwrap(v)]));
  }
  return value;
}

/** The plain values of a request's Struct, and which of its properties were secret. */
export function fromStruct(struct: Any | undefined): Properties {
  const raw = (struct?.toJavaScript() ?? {}) as Record<string, unknown>;
  const secret = new Set(
    Object.entries(raw)
      .filter(([, v]) => holdsSecret(v))
      .map(([k]) => k),
  );
  return { values: unwrap(raw) as Record<string, unknown>, secret };
}

/** Which env keys held a plain (not secret) value: the env-secrets policy reads them. */
export function plainKeysOf(struct: Any | undefined, property: string): string[] {
  const raw = (struct?.toJavaScript() ?? {}) as Record<string, unknown>;
  const map = raw[property];
  if (map === undefined || map === null || isSecretValue(map) || typeof map !== "object") return [];
  return Object.entries(map as Record<string, unknown>)
    .filter(([, v]) => !holdsSecret(v))
    .map(([k]) => k);
}

/** A Struct of `values` (JSON-clean, undefined dropped) with each property in `secret` marked secret. */
export function toStruct(values: object | undefined, secret: Iterable<string> = []): Any {
  const clean = JSON.parse(JSON.stringify(values ?? {})) as Record<string, unknown>;
  for (const key of secret) {
    if (key in clean && clean[key] !== null) {
      clean[key] = { [SIG]: pulumi.runtime.specialSecretSig, value: clean[key] };
    }
  }
  return Struct.fromJavaScript(clean);
}
