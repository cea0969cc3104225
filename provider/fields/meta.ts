/**
 * What a field's declaration says besides its type (docs/decisions.md, "One declaration per
 * field"). Each resource's fields are zod schemas (provider/resources/<name>/fields.ts); the type
 * and its limits are the schema, everything else is this metadata, attached with zod's `.meta()`.
 * Check, the diff table, which values are secret, the API bodies, the plugin's schema, the
 * TypeScript declarations and the reference docs are all read from the two.
 */
import { z } from "zod";

/** What a change of an input does to the object: a new one replaces it, it changes in place, or nothing. */
export type ChangeKind = "replace" | "update" | "none";

/** One kind, or several with what decides between them. */
export type OnChange = ChangeKind | { readonly kinds: readonly ChangeKind[]; readonly detail: string };

/**
 * Where an output that repeats an input comes from: the API's answer, the input as the program
 * gave it (both built the same way for every field), or the resource's own code.
 */
export type OutputSource = "api" | "given" | "built";

declare module "zod" {
  interface GlobalMeta {
    /** An input: what a change does. Required on every top-level input. */
    onChange?: OnChange;
    /**
     * An input: the value the provider and the API assume when the program leaves it out, which
     * is what a diff compares an omitted input as. An input without one is "no opinion" when left
     * out (the API's or a template's value stands).
     */
    default?: unknown;
    /** What happens when the input is left out, in words, where no value says it. */
    defaultText?: string;
    /** The unit of a number (`GB`, `seconds`, `milliseconds`, `USD per hour`). */
    unit?: string;
    /** A credential: secret in state and in every answer of either door. */
    secret?: boolean;
    /** An output kept in state for the provider's own diffs, in no SDK and no docs. */
    internal?: boolean;
    /** The field's name in the API's bodies and answers, where it differs. */
    apiName?: string;
    /** An output that repeats an input: where its value comes from (derive.ts `mirroredOutputs`). */
    source?: OutputSource;
    /** An enum: what each value means. */
    values?: Readonly<Record<string, string>>;
  }
}

/** The kinds an `onChange` names. */
export function changeKinds(onChange: OnChange): readonly ChangeKind[] {
  return typeof onChange === "string" ? [onChange] : onChange.kinds;
}

/**
 * A closed set of values, named (its type in every SDK) and each value described.
 * @example choice("Cloud", "Where a pod runs.", { SECURE: "RunPod's data centers.", COMMUNITY: "Community hosts." })
 */
export function choice<const V extends string>(
  id: string,
  description: string,
  values: Readonly<Record<V, string>> | readonly V[],
) {
  const described = Array.isArray(values) ? undefined : (values as Readonly<Record<V, string>>);
  const names = (described ? Object.keys(described) : values) as [V, ...V[]];
  return z.enum(names).meta({ id, description, ...(described ? { values: described } : {}) });
}

/**
 * The metadata of a schema: its own, over what the schemas it was made from carry (`.optional()`,
 * `.meta()` and `.nullable()` each make a new schema; zod records the one it came from).
 */
export function metaOf(schema: z.ZodType): z.GlobalMeta {
  const chain: z.core.$ZodType[] = [];
  for (let s: z.core.$ZodType | undefined = schema; s; s = s._zod.parent) chain.unshift(s);
  return Object.assign({}, ...chain.map((s) => z.globalRegistry.get(s as z.ZodType) ?? {}));
}
