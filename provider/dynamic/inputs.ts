/**
 * What a resource class registers in the program, the same for every resource: the outputs its
 * declaration lists (each unset, so a resource read by id has them all), the program's arguments
 * with the secret ones made Pulumi secrets, the resource options the provider must see, and the
 * marks that tie the objects it creates to this stack. The generated classes
 * (provider/dynamic/resources/) call it with what their declaration says.
 */
import * as pulumi from "@pulumi/pulumi";
import { READ_BY_ID, REPLACE_ON_CHANGES } from "../resources/common.js";
import { createKeyOf } from "../resources/pod/translate.js";
import { holderOf } from "../resources/ssh-key/holders.js";
import { secretEnv } from "./secret-inputs.js";
import { markOf } from "./stack-identity.js";

/** What a generated class knows of its declaration (codegen/typescript.ts writes it). */
export interface DeclaredResource {
  readonly kind: string;
  /** Every output, the internal ones too. */
  readonly outputs: readonly string[];
  /** The secret inputs: a map whose plain values the policy pack is told of, or a single value. */
  readonly secretInputs: Readonly<Record<string, "map" | "value">>;
  readonly secretOutputs: readonly string[];
}

/**
 * The marks a stack puts on what it creates, by kind: a pod's create key, an SSH key's holder
 * (docs/decisions.md, "What identifies a stack's objects"). The provider plugin adds the same in
 * check (provider/plugin/marks.ts).
 */
const MARKS: Readonly<Record<string, { readonly input: string; readonly of: typeof createKeyOf }>> = {
  Pod: { input: "__createKey", of: createKeyOf },
  SshKey: { input: "__holder", of: holderOf },
};

/**
 * The inputs of a secret field: the engine stores a resource's inputs as the program registered
 * them, so a credential must be a Pulumi secret before it is registered (marking only the output
 * left a plain copy in state). A resource read by id registers none: the read never writes them.
 */
function secretInputs(
  declared: DeclaredResource,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Record<string, unknown> {
  const given = args as Record<string, pulumi.Input<unknown> | undefined>;
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(declared.secretInputs)) {
    const value = given[field];
    if (kind === "map") Object.assign(out, secretEnv(value as Parameters<typeof secretEnv>[0]));
    else out[field] = opts.id === undefined && value !== undefined ? pulumi.secret(value) : undefined;
  }
  return out;
}

/**
 * The inputs that carry resource options the provider must see. The engine applies
 * `replaceOnChanges` to the properties a provider reports as changed, and the dynamic-provider host
 * reports none (its Diff answer has no changed keys), so the option would do nothing; the provider
 * applies it instead (resources/common.ts `diffResult`). An `id` makes the resource a read one:
 * `read` then sees `READ_BY_ID` among what it is given, which a refresh never passes.
 */
export function optionInputs(opts: { replaceOnChanges?: string[]; id?: unknown }): Record<string, unknown> {
  return {
    ...(opts.replaceOnChanges?.length ? { [REPLACE_ON_CHANGES]: [...opts.replaceOnChanges] } : {}),
    ...(opts.id !== undefined ? { [READ_BY_ID]: true } : {}),
  };
}

/** Everything a resource class registers as its inputs. */
export function programInputs(
  declared: DeclaredResource,
  name: string,
  args: object,
  opts: pulumi.CustomResourceOptions,
): Record<string, unknown> {
  const mark = MARKS[declared.kind];
  const value = mark ? markOf(name, opts, mark.of) : undefined;
  return {
    ...Object.fromEntries(declared.outputs.map((k) => [k, undefined])),
    ...args,
    ...secretInputs(declared, args, opts),
    ...optionInputs(opts),
    ...(mark && value ? { [mark.input]: value } : {}),
  };
}

/**
 * The resource options with the declaration's secret outputs added to `additionalSecretOutputs`:
 * they stay secret in state even when the program passed them in plain.
 */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions,
  declared: DeclaredResource,
): pulumi.CustomResourceOptions {
  if (declared.secretOutputs.length === 0) return opts;
  return {
    ...opts,
    additionalSecretOutputs: [
      ...new Set([...(opts.additionalSecretOutputs ?? []), ...declared.secretOutputs]),
    ],
  };
}

/**
 * What every resource's static `get` does: the resource of class `Resource` named `name`, read by
 * `id`. The `id` option makes it a read resource: the engine calls the provider's `read` (in
 * preview too) instead of `check` and `create`, records the answer, and never updates or deletes
 * the object; `pulumi destroy` only forgets it. It has no inputs: the arguments type what a create
 * needs, and a read needs nothing but the id. Its outputs are there all the same, each registered
 * unset by `programInputs`.
 */
export function readById<R, A>(
  Resource: new (name: string, args: A, opts?: pulumi.CustomResourceOptions) => R,
  name: string,
  id: pulumi.Input<pulumi.ID>,
  opts: pulumi.CustomResourceOptions = {},
): R {
  return new Resource(name, {} as A, { ...opts, id });
}
