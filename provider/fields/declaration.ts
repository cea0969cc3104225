/**
 * A resource's declaration: its inputs (what `check` validates, strict) and its outputs (what state
 * keeps), each field once with its metadata (meta.ts). An output that repeats an input is made
 * from it (`mirror`), so its type and description are the input's.
 */
import { z } from "zod";
import type { OutputSource } from "./meta.js";
import { type Field, fieldOf, fieldsOf } from "./nodes.js";

export interface ResourceDeclaration<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
  K extends string = string,
> {
  /** The resource's type name (`Pod`), in every token and SDK. */
  readonly kind: K;
  /** What the resource is, for the class, the schema and every SDK. */
  readonly description: string;
  /** How a program reads an existing object by its id (`Pod.get`), or why it cannot. */
  readonly get: ReadById | { readonly refused: string };
  /** Examples, each in the languages Pulumi's docs show. */
  readonly examples: readonly Example[];
  readonly inputs: I;
  readonly outputs: O;
  /** The two schemas read as fields (nodes.ts) once, when the declaration is made: what every reader asks. */
  readonly fields: DeclaredFields;
}

/** A declaration's inputs and outputs as fields, in order and by name. */
export interface DeclaredFields {
  readonly inputs: readonly Field[];
  readonly outputs: readonly Field[];
  readonly input: Readonly<Record<string, Field>>;
  readonly output: Readonly<Record<string, Field>>;
}

/** A resource's declaration, its schemas read as fields once here rather than at each diff or body. */
export function declareResource<const K extends string, I extends z.ZodObject, O extends z.ZodObject>(
  declaration: Omit<ResourceDeclaration<I, O, K>, "fields">,
): ResourceDeclaration<I, O, K> {
  const inputs = fieldsOf(declaration.inputs);
  const outputs = fieldsOf(declaration.outputs);
  const byName = (fields: readonly Field[]) => Object.fromEntries(fields.map((f) => [f.name, f]));
  return { ...declaration, fields: { inputs, outputs, input: byName(inputs), output: byName(outputs) } };
}

/** What a resource's `get` does, what its id is, and an example in TypeScript. */
export interface ReadById {
  readonly description: string;
  readonly id: string;
  readonly example: string;
}

/** One example program, the same in every language. */
export interface Example {
  readonly title: string;
  readonly typescript: string;
  readonly python: string;
  readonly go: string;
  readonly yaml: string;
}

/**
 * The output that repeats the input `field`: its type without the optional, its description,
 * unit, secrecy and API name, where its value comes from (`source`, see `mirroredOutputs`), and `also` (for example
 * `internal`). Nullable when the input is, or when `.nullable()` is added to the result.
 */
export function mirror<T extends z.ZodType>(
  field: z.ZodOptional<T> | T,
  source: OutputSource,
  also: z.GlobalMeta = {},
): T {
  const declared = fieldOf("", field);
  const inner = (field instanceof z.ZodOptional ? field.unwrap() : field) as T;
  const { description, unit, secret, apiName } = declared.meta;
  return inner.meta({
    ...(description !== undefined ? { description } : {}),
    ...(unit !== undefined ? { unit } : {}),
    ...(secret ? { secret } : {}),
    ...(apiName !== undefined ? { apiName } : {}),
    source,
    ...also,
  });
}
