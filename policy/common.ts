/**
 * What every policy of the pack shares: the type tokens it matches, how it reads a resource's
 * properties without tripping over preview's unknown values, how it words a violation, and one
 * way of declaring a resource policy.
 *
 * Imports are extensionless on purpose: `run-policy-pack` compiles this directory with ts-node 7,
 * which registers `.ts` but does not map a `./x.js` specifier back to `./x.ts`.
 */
import {
  type EnforcementLevel,
  type PolicyConfigSchema,
  type ResourceValidationPolicy,
  Secret,
} from "@pulumi/policy";
import {
  CLUSTER_TYPE,
  isUnknown,
  NETWORK_VOLUME_TYPE,
  POD_TYPE,
  placementSource,
  runpodTypeName,
  SERVERLESS_ENDPOINT_TYPE,
  SSH_KEY_TYPE,
  UNKNOWN,
} from "runpod-dynamic/review";

export {
  CLUSTER_TYPE,
  isUnknown,
  NETWORK_VOLUME_TYPE,
  POD_TYPE,
  placementSource,
  SERVERLESS_ENDPOINT_TYPE,
  SSH_KEY_TYPE,
  UNKNOWN,
};

/** The dynamic provider's tokens of the resources the pack reviews. */
const REVIEWED_TYPES = [CLUSTER_TYPE, NETWORK_VOLUME_TYPE, POD_TYPE, SERVERLESS_ENDPOINT_TYPE, SSH_KEY_TYPE];

/**
 * The token a policy compares a resource's type with, for a resource of either flavour: a Pod of
 * the provider plugin (`runpod-dynamic:index:Pod`) is the dynamic provider's Pod
 * (`pulumi-nodejs:dynamic/runpod:Pod`) to every rule. Another provider's token is kept.
 */
export function typeOf(token: string): string {
  const kind = runpodTypeName(token);
  return REVIEWED_TYPES.find((t) => runpodTypeName(t) === kind) ?? token;
}

/** Plain property values: secrets unwrapped, every kind of unknown turned into {@link UNKNOWN}. */
export type Props = Record<string, unknown>;

/** One resource as the policies read it. `name` is the Pulumi resource name (`new Pod("trainer", ...)`). */
export interface ResourceView {
  readonly type: string;
  readonly name: string;
  readonly urn: string;
  readonly props: Props;
}

// The engine marshals an unknown as one sentinel string per element type (@pulumi/policy proxy.js).
// A dynamic resource's inputs only ever carry the string one, which is the provider's UNKNOWN; the
// others are mapped to it so that `isUnknown` and the provider's unknown-aware `checkPod` see them.
const UNKNOWN_SENTINELS: ReadonlySet<unknown> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A deep plain copy: `Secret` wrappers removed, unknown sentinels replaced by {@link UNKNOWN}. */
export function plainValue(value: unknown): unknown {
  if (value instanceof Secret) return plainValue(value.value);
  if (UNKNOWN_SENTINELS.has(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map(plainValue);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  }
  return value;
}

/**
 * The values under the framework's proxies, exactly as deserialized (secrets still wrapped when the
 * server keeps them, see secret-policies.ts).
 *
 * `args.props` is an unknown-checking Proxy whose `get` throws during preview when a value is
 * unknown; `Object.keys` and `Object.getOwnPropertyDescriptor` have no trap and reach the raw
 * object without throwing (@pulumi/policy 1.21.0 proxy.js). Reading only through them means no
 * policy ever throws `UnknownValueError`, so the framework's catch-all "can't run during preview"
 * advisory never replaces a policy's own answer.
 */
export function rawProps(props: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) out[key] = Object.getOwnPropertyDescriptor(props, key)?.value;
  return out;
}

/** `args.props` as plain values; see {@link rawProps} and {@link plainValue}. */
export function plainProps(props: object): Props {
  return plainValue(rawProps(props)) as Props;
}

/** The object at `value`, or undefined when absent, unknown or not an object. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** The array at `value`, or undefined when absent, unknown or not an array. */
export function list(value: unknown): readonly unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** `Pod "trainer"`: how a message names the resource. */
export function subject(type: string, name: string): string {
  return `${runpodTypeName(type) ?? type} "${name}"`;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * One violation line: the resource, the field, what is wrong and the fix.
 * @example violation('Pod "trainer"', "disk", "must be at least 1", "set disk to 1 GB or more")
 * // 'Pod "trainer", disk: must be at least 1. Fix: set disk to 1 GB or more.'
 */
export function violation(who: string, field: string, problem: string, fix: string): string {
  return `${who}, ${field || "(resource)"}: ${sentence(problem)} Fix: ${sentence(fix)}`;
}

/** The defaults a config schema declares, as the engine applies them before `Configure`. */
function schemaDefaults(schema: PolicyConfigSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (property !== null && typeof property === "object" && "default" in property)
      out[key] = property.default;
  }
  return out;
}

/**
 * A policy's configuration: what the engine sent in `Configure` over the schema's defaults. The
 * engine already merges the defaults in; doing it here as well keeps a policy correct when it runs
 * without `Configure` (direct calls, an engine that sends no config for it).
 */
export function configOf<C extends object>(
  args: { getConfig<T extends object>(): T },
  schema: PolicyConfigSchema | undefined,
): C {
  return { ...schemaDefaults(schema), ...args.getConfig<Record<string, unknown>>() } as C;
}

/** A resource policy declared by what it checks; see {@link resourcePolicy}. */
export interface ResourceRule<C extends object = Record<string, never>> {
  readonly name: string;
  readonly description: string;
  readonly enforcementLevel: EnforcementLevel;
  /** Type tokens the rule applies to; other resources pass untouched. */
  readonly types: readonly string[];
  readonly configSchema?: PolicyConfigSchema;
  /** Reports each violation as one line made with {@link violation}. */
  readonly validate: (resource: ResourceView, config: C, report: (message: string) => void) => void;
}

/**
 * Turns a {@link ResourceRule} into a `ResourceValidationPolicy`. Matching is by type token: the
 * framework's `validateResourceOfType` needs a static `__pulumiType`, which a dynamic resource
 * class does not have (@pulumi/policy policy.js `getPulumiType`).
 */
export function resourcePolicy<C extends object>(rule: ResourceRule<C>): ResourceValidationPolicy {
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    ...(rule.configSchema ? { configSchema: rule.configSchema } : {}),
    validateResource: (args, reportViolation) => {
      const type = typeOf(args.type);
      if (!rule.types.includes(type)) return;
      const resource = { type, name: args.name, urn: args.urn, props: plainProps(args.props) };
      rule.validate(resource, configOf<C>(args, rule.configSchema), (message) => reportViolation(message));
    },
  };
}
