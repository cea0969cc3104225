/**
 * What a resource's code reads from its declaration instead of restating it: which fields are
 * secret, which outputs exist, the replace/update table, the API body of the fields whose names
 * the API shares, the outputs and refreshed inputs that repeat a field as it is, and scalars
 * turned into the strings the declaration asks for. Each is a pure function of a declaration and
 * values; docs/decisions.md ("One declaration per field") says what stays in a resource's own code.
 */
import type { z } from "zod";
import { differs } from "../validation/compare.js";
import { isUnknown } from "../validation/unknown.js";
import type { ResourceDeclaration } from "./declaration.js";
import { type ChangeKind, changeKinds } from "./meta.js";
import { type Field, fieldOf } from "./nodes.js";

type Values = Readonly<Record<string, unknown>>;

/** The names of the inputs and outputs the declaration marks secret. */
export function secretFields(declaration: ResourceDeclaration): {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
} {
  const secret = (fields: readonly Field[]) => fields.filter((f) => f.meta.secret).map((f) => f.name);
  return { inputs: secret(declaration.fields.inputs), outputs: secret(declaration.fields.outputs) };
}

/** One row of a resource's diff table: an input and the kinds of change its declaration names. */
export interface DiffRow {
  readonly field: string;
  readonly kinds: readonly ChangeKind[];
  /** What decides between the kinds, where there are several. */
  readonly detail: string | undefined;
}

/** The replace/update table, one row per input, from each input's `onChange`. */
export function diffTable(declaration: ResourceDeclaration): readonly DiffRow[] {
  return declaration.fields.inputs.map((f) => {
    const onChange = f.meta.onChange;
    if (onChange === undefined) throw new Error(`${declaration.kind}.${f.name} declares no onChange`);
    return {
      field: f.name,
      kinds: changeKinds(onChange),
      detail: typeof onChange === "string" ? undefined : onChange.detail,
    };
  });
}

/**
 * The changes of the inputs whose declaration decides them alone: each top-level input with one
 * kind of change (`replace` or `update`) that its resource does not compare itself (`own`),
 * compared with the output of the same name. An input left out is its declared `default`; with
 * none, it is no opinion (what the API or a template set stands), unless the output records the
 * input as the program gave it (`mirror(..., "given")`).
 */
export function declaredChanges(
  declaration: ResourceDeclaration,
  olds: Values,
  news: Values,
  own: readonly string[],
): { replaces: string[]; updates: string[] } {
  const replaces: string[] = [];
  const updates: string[] = [];
  const { input, output } = declaration.fields;
  for (const row of diffTable(declaration)) {
    const [kind, ...more] = row.kinds;
    if (own.includes(row.field) || more.length > 0 || kind === "none") continue;
    const fallback = input[row.field]?.meta.default;
    // An output that records the input as given makes leaving the input out a change too.
    const given = output[row.field]?.meta.source === "given";
    const next = news[row.field];
    if (next === undefined && fallback === undefined && !given) continue;
    if (differs(next ?? fallback ?? null, olds[row.field] ?? fallback ?? null)) {
      (kind === "replace" ? replaces : updates).push(row.field);
    }
  }
  return { replaces, updates };
}

/** The declared default of each field of an object type that has one. */
export function declaredDefaults(schema: z.ZodType): Readonly<Record<string, unknown>> {
  const shape = fieldOf("", schema).shape;
  if (shape.kind !== "object") throw new Error("only an object type has fields with defaults");
  return Object.fromEntries(
    shape.fields.filter((f) => f.meta.default !== undefined).map((f) => [f.name, f.meta.default]),
  );
}

/**
 * An API body of the declaration's inputs in `group` (a resource's fields.ts groups its inputs by
 * the bodies they go in), as the program gave them, under their API names: `only` those named,
 * and with `defaults` an input left out as its declared default (an update setting it back).
 */
export function apiBody(
  declaration: ResourceDeclaration,
  group: Readonly<Record<string, z.ZodType>>,
  inputs: Values,
  { only, defaults = false }: { only?: readonly string[]; defaults?: boolean } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(group)) {
    const field = declaration.fields.input[name];
    if (!field) throw new Error(`${declaration.kind} declares no input ${name}`);
    if (only !== undefined && !only.includes(name)) continue;
    const value = inputs[name] ?? (defaults ? field.meta.default : undefined);
    if (value !== undefined) body[field.meta.apiName ?? name] = value;
  }
  return body;
}

/**
 * The outputs that repeat a field as it is (declaration.ts `mirror`): the API's value under the
 * field's API name, or the input as the program gave it (else its default); `null` for none.
 */
export function mirroredOutputs(declaration: ResourceDeclaration, api: Values, inputs: Values): Values {
  const out: Record<string, unknown> = {};
  for (const f of declaration.fields.outputs) {
    if (f.meta.source === "api") out[f.name] = api[f.meta.apiName ?? f.name] ?? null;
    if (f.meta.source === "given") {
      out[f.name] = inputs[f.name] ?? declaration.fields.input[f.name]?.meta.default ?? null;
    }
  }
  return out;
}

/**
 * Whether a value says nothing a left-out input does not: none, an empty string, an empty list or
 * map. (`pulumi import` writes the code of what a read hands back: `args: ""` there is noise.)
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/**
 * The inputs a refresh hands back for the fields the outputs repeat: the output where the program
 * gave the input before, or where it says something (not empty, not the input's default) the
 * program left out (a value set outside the program is then a change the next diff sees).
 */
export function mirroredInputs(declaration: ResourceDeclaration, outputs: Values, prior: Values): Values {
  const inputs: Record<string, unknown> = {};
  for (const f of declaration.fields.outputs) {
    if (f.meta.source !== "api" && f.meta.source !== "given") continue;
    const input = declaration.fields.input[f.name];
    if (!input) continue;
    const value = outputs[f.name];
    const fallback = input.meta.default;
    const says = !isEmptyValue(value) && (fallback === undefined || differs(value, fallback));
    if (prior[f.name] !== undefined || says) inputs[f.name] = value;
  }
  return inputs;
}

/**
 * `value` with every number or boolean where the field declares a string turned into that string
 * (`4` for `"4"`, `true` for `"true"`): what YAML and some SDKs send for a value written without
 * quotes. Anything else is left for check to judge.
 */
export function coerceScalars(fields: readonly Field[], value: Values): Values {
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const f = fields.find((field) => field.name === k);
      return [k, f ? coerced(f, v) : v];
    }),
  );
}

function coerced(field: Field, value: unknown): unknown {
  if (value === null || value === undefined || isUnknown(value)) return value;
  const shape = field.shape;
  switch (shape.kind) {
    case "string":
    case "enum":
      return typeof value === "number" || typeof value === "boolean" ? String(value) : value;
    case "object":
      return isRecord(value) ? coerceScalars(shape.fields, value) : value;
    case "array":
      return Array.isArray(value) ? value.map((v) => coerced(shape.items, v)) : value;
    case "map":
      return isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, coerced(shape.values, v)]))
        : value;
    default:
      return value;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
