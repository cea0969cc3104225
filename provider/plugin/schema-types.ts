/**
 * A declared field as the Pulumi package schema types it: integers `integer`, flags `boolean`,
 * closed sets enum types, objects types of their own named by their declared `id`, and no
 * primitive ever `Any` (provider/fields/nodes.ts reads the declaration). Descriptions say the unit,
 * the default and what a change does, in words every language reads alike.
 */
import type { z } from "zod";
import { changeKinds } from "../fields/meta.js";
import type { Field, Shape } from "../fields/nodes.js";
import { pluginToken } from "../resources/type-tokens.js";
import { tracksPlainKeys } from "./marks.js";

export type Json = Record<string, unknown>;

/** Which side of a resource a type is used on: its inputs, or its outputs. */
export type Side = "input" | "output";

/** `QueueDelay` for `QUEUE_DELAY`, `Availability` for `availability`: an enum value's name in every SDK. */
export function enumValueName(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join("");
}

/** A default as the docs say it, in words every language reads alike. */
export function spokenDefault(value: unknown): string {
  if (typeof value === "string") return `\`${value}\``;
  if (Array.isArray(value) && value.length === 0) return "empty";
  if (value !== null && typeof value === "object" && Object.keys(value).length === 0) return "empty";
  return String(value);
}

const sentence = (s: string) => s.trim().replace(/\.+$/, "");

/**
 * A field's description as the schema carries it: what it is, then its unit and, for an input, its
 * default and what a change does, each a paragraph of its own.
 */
export function describeField(meta: z.GlobalMeta, side: Side, required: boolean): string | undefined {
  const parts: string[] = [];
  if (meta.description) parts.push(`${sentence(meta.description)}.`);
  if (meta.unit) parts.push(`Unit: ${meta.unit}.`);
  if (side === "input" && !required) {
    const text = meta.defaultText ?? (meta.default !== undefined ? spokenDefault(meta.default) : undefined);
    if (text !== undefined) parts.push(`Default: ${sentence(text)}.`);
  }
  if (side === "input" && meta.onChange !== undefined) {
    const kinds = changeKinds(meta.onChange).join(", ");
    const detail = typeof meta.onChange === "string" ? "" : `: ${sentence(meta.onChange.detail)}`;
    parts.push(`On change: ${kinds}${detail}.`);
  }
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

/** Whether a field is required on a side: an input unless optional, an output unless it may be null. */
export const isRequired = (f: Field, side: Side) => !f.optional && !(side === "output" && f.nullable);

/** The object and enum types of a schema, registered by name as the fields that use them are typed. */
export class SchemaTypes {
  readonly types: Record<string, Json> = {};

  /** The type spec of a value of `field` on `side` (`where` names it in errors). */
  spec(field: Field, side: Side, where: string): Json {
    const shape = field.shape;
    switch (shape.kind) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: shape.kind };
      case "any":
        return { $ref: "pulumi.json#/Any" };
      case "literal":
        return { type: "string", const: shape.value };
      case "enum":
        return { $ref: this.register(shape.id, field.type, where, () => this.enumSpec(shape, field.type)) };
      case "array":
        return { type: "array", items: this.spec(shape.items, side, `${where}[]`) };
      case "map":
        return { type: "object", additionalProperties: this.spec(shape.values, side, `${where}{}`) };
      case "union": {
        const merged = this.mergedUnion(shape, side, where);
        if (merged) return { $ref: this.register(shape.id, field.type, where, () => merged) };
        return {
          oneOf: shape.options.map((o) => this.spec(o, side, where)),
          ...(shape.discriminator ? { discriminator: { propertyName: shape.discriminator } } : {}),
        };
      }
      case "object": {
        const { properties, required } = this.properties(shape.fields, side, where);
        return {
          $ref: this.register(shape.id, field.type, where, () => ({
            type: "object",
            properties,
            ...(required.length > 0 ? { required } : {}),
          })),
        };
      }
    }
  }

  /** Property specs and the required names, for fields on `side`. */
  properties(
    fields: readonly Field[],
    side: Side,
    where: string,
  ): { properties: Record<string, Json>; required: string[] } {
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const f of fields) {
      const needed = isRequired(f, side);
      const description = describeField(f.meta, side, needed);
      const kinds = side === "input" && f.meta.onChange !== undefined ? changeKinds(f.meta.onChange) : [];
      properties[f.name] = {
        ...this.spec(f, side, `${where}.${f.name}`),
        ...(description ? { description } : {}),
        // An env map the plugin marks secret itself is left unmarked as an input (marks.ts).
        ...(f.meta.secret && !(side === "input" && tracksPlainKeys(f)) ? { secret: true } : {}),
        ...(kinds.length === 1 && kinds[0] === "replace" ? { replaceOnChanges: true } : {}),
      };
      if (needed) required.push(f.name);
    }
    return { properties, required: required.sort() };
  }

  /**
   * A union of objects told apart by a literal field, as one object type: that field required, a
   * string naming the option, and every option's other fields optional, each saying which option it
   * belongs to. Python's and Go's SDKs carry a property's name across (`queue_delay` to
   * `queueDelay`) only for a declared object type, never through a `oneOf`: a Python dict given
   * for one reaches the provider with its Python names. The check still takes one option whole.
   * Undefined for any other union.
   */
  private mergedUnion(shape: Extract<Shape, { kind: "union" }>, side: Side, where: string): Json | undefined {
    const by = shape.discriminator;
    if (by === undefined) return undefined;
    const options = shape.options.flatMap((o) => {
      if (o.shape.kind !== "object") return [];
      const tag = o.shape.fields.find((f) => f.name === by)?.shape;
      return tag?.kind === "literal"
        ? [{ value: tag.value, fields: o.shape.fields.filter((f) => f.name !== by) }]
        : [];
    });
    if (options.length !== shape.options.length) return undefined;
    const properties: Record<string, Json> = {
      [by]: {
        type: "string",
        description: `Which kind: ${options.map((o) => `\`${o.value}\``).join(" or ")}. The other fields say which kind each belongs to.`,
      },
    };
    for (const option of options) {
      const own = this.properties(option.fields, side, `${where}|${option.value}`).properties;
      for (const [name, spec] of Object.entries(own)) {
        const description = [spec.description, `With \`${by}: ${option.value}\` only.`]
          .filter(Boolean)
          .join("\n\n");
        properties[name] ??= { ...spec, description };
      }
    }
    return { type: "object", properties, required: [by] };
  }

  private enumSpec(shape: Extract<Shape, { kind: "enum" }>, type: z.GlobalMeta): Json {
    return {
      type: "string",
      ...(type.description ? { description: `${sentence(type.description)}.` } : {}),
      enum: shape.values.map((value) => {
        const meaning = type.values?.[value];
        return {
          name: enumValueName(value),
          value,
          ...(meaning ? { description: `${sentence(meaning)}.` } : {}),
        };
      }),
    };
  }

  /**
   * Registers the type `id` (made by `make` the first time) and answers its reference. Every object
   * and enum of a declaration is named: an unnamed one, or two different types under one name, is
   * an error here rather than a type an SDK guesses a name for.
   */
  private register(id: string | undefined, type: z.GlobalMeta, where: string, make: () => Json): string {
    if (id === undefined) throw new Error(`${where}: an object or enum type of a declaration needs an id`);
    const token = pluginToken(id);
    const made = {
      ...make(),
      ...(type.description ? { description: `${sentence(type.description)}.` } : {}),
    };
    const known = this.types[token];
    if (known !== undefined && JSON.stringify(withoutDocs(known)) !== JSON.stringify(withoutDocs(made))) {
      throw new Error(`${where}: two different types are named ${id}`);
    }
    this.types[token] = known ?? made;
    return `#/types/${token}`;
  }
}

/** A type spec without its descriptions: two uses of one type describe their fields alike. */
function withoutDocs(spec: unknown): unknown {
  if (Array.isArray(spec)) return spec.map(withoutDocs);
  if (spec === null || typeof spec !== "object") return spec;
  return Object.fromEntries(
    Object.entries(spec as Json)
      .filter(([k]) => k !== "description")
      .map(([k, v]) => [k, withoutDocs(v)]),
  );
}
