/**
 * A declaration read as a tree of fields: each resource's zod schemas (fields.ts) normalised to what
 * every reader of a declaration asks of them (what type, named or not, optional or nullable, with
 * which metadata). Check validates with the zod schemas themselves; the schema generator, the
 * TypeScript generator, the diff table, the secret marks and the scalar coercion read this.
 *
 * Metadata is read in two parts. A schema that carries an `id` (an object or enum type of its
 * own: `PodGpu`, `Cloud`) holds the type's: its name and description. Everything attached around it
 * (`.optional()`, `.nullable()`, `.meta()` at the place it is used) is the field's.
 */
import { z } from "zod";
import { metaOf } from "./meta.js";

export type Scalar = "string" | "integer" | "number" | "boolean";

/** What a value of a field is. */
export type Shape =
  | { readonly kind: Scalar }
  /** Any JSON value. */
  | { readonly kind: "any" }
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "enum"; readonly id: string | undefined; readonly values: readonly string[] }
  | {
      readonly kind: "object";
      readonly id: string | undefined;
      readonly fields: readonly Field[];
    }
  | { readonly kind: "array"; readonly items: Field }
  | { readonly kind: "map"; readonly values: Field }
  | {
      readonly kind: "union";
      readonly id: string | undefined;
      readonly options: readonly Field[];
      readonly discriminator: string | undefined;
    };

/** One field, or an element of a list or map: its shape and what its declaration says of it. */
export interface Field {
  readonly name: string;
  readonly shape: Shape;
  /** The declared name and meaning of the field's type, when it is a type of its own. */
  readonly type: z.GlobalMeta;
  /** What the field's declaration says (description, default, onChange, ...). */
  readonly meta: z.GlobalMeta;
  readonly optional: boolean;
  readonly nullable: boolean;
}

type Core = z.core.$ZodType;

const own = (s: Core) => z.globalRegistry.get(s as z.ZodType) ?? {};

/** The schemas a schema was made from, itself first (`.meta()` and `.describe()` make a copy). */
function lineage(s: Core): Core[] {
  const out: Core[] = [];
  for (let at: Core | undefined = s; at; at = at._zod.parent) out.push(at);
  return out;
}

/** A field's metadata and its type's, from the lineage of one schema. */
function splitMeta(s: Core): { field: z.GlobalMeta; type: z.GlobalMeta } {
  const chain = lineage(s);
  const typed = chain.findIndex((c) => own(c).id !== undefined);
  const fieldPart = typed < 0 ? chain : chain.slice(0, typed);
  return {
    field: Object.assign({}, ...fieldPart.reverse().map(own)),
    type: typed < 0 ? {} : metaOf(chain[typed] as z.ZodType),
  };
}

/** The field `name` declared by `schema`. */
export function fieldOf(name: string, schema: z.ZodType | Core): Field {
  let s: Core = schema;
  let optional = false;
  let nullable = false;
  const metas: z.GlobalMeta[] = [];
  for (;;) {
    const def = s._zod.def as { type: string; innerType?: Core };
    if ((def.type === "optional" || def.type === "nullable") && def.innerType) {
      metas.push(splitMeta(s).field);
      if (def.type === "optional") optional = true;
      else nullable = true;
      s = def.innerType;
      continue;
    }
    break;
  }
  const { field, type } = splitMeta(s);
  metas.push(field);
  return {
    name,
    shape: shapeOf(s),
    type,
    meta: Object.assign({}, ...metas.reverse()),
    optional,
    nullable,
  };
}

function shapeOf(s: Core): Shape {
  const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
  const id = splitMeta(s).type.id;
  switch (def.type) {
    case "string":
      return { kind: "string" };
    case "number":
      return { kind: (s as z.ZodNumber).isInt ? "integer" : "number" };
    case "boolean":
      return { kind: "boolean" };
    case "unknown":
    case "any":
    // `z.json()`, any JSON value: the one lazy (recursive) schema a declaration uses.
    case "lazy":
      return { kind: "any" };
    case "literal":
      return { kind: "literal", value: String((def.values as unknown[])[0]) };
    case "enum":
      return { kind: "enum", id, values: Object.values(def.entries as Record<string, string>) };
    case "object":
      return {
        kind: "object",
        id,
        fields: Object.entries(def.shape as Record<string, Core>).map(([k, v]) => fieldOf(k, v)),
      };
    case "array":
      return { kind: "array", items: fieldOf("[]", def.element as Core) };
    case "record":
      return { kind: "map", values: fieldOf("{}", def.valueType as Core) };
    case "union":
      return {
        kind: "union",
        id,
        options: (def.options as Core[]).map((o, i) => fieldOf(`|${i}`, o)),
        discriminator: def.discriminator as string | undefined,
      };
    case "pipe":
      return shapeOf(def.in as Core);
    default:
      throw new Error(`a declaration cannot use a zod ${def.type} (no Pulumi type says it)`);
  }
}

/** The top-level fields of an object schema (a resource's inputs or outputs). */
export function fieldsOf(schema: z.ZodObject): readonly Field[] {
  const shape = fieldOf("", schema).shape;
  if (shape.kind !== "object") throw new Error("a resource's fields are an object");
  return shape.fields;
}
