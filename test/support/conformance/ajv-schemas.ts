/**
 * The description's schemas as Ajv is given them, and Ajv's errors as violations: references
 * pointed at Ajv's copy, OpenAPI's discriminators and conditionals rewritten (validator.ts says
 * why), and the echoes of one error in an allOf dropped.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { pointerToken, type Schema } from "./description.js";
import type { Direction, Violation } from "./validator.js";

export const SCHEMAS_ID = "urn:runpod:description:v2";
const LOCAL_SCHEMA_REF = "#/components/schemas/";

/** Numeric formats OpenAPI names; the JSON type already says what they allow. */
export const OPENAPI_NUMBER_FORMATS = ["float", "double", "int32", "int64"];

/** Every `x-*` key of the document, to declare as annotation keywords. */
export function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionKeywords(item, found);
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-")) found.add(k);
      extensionKeywords(v, found);
    }
  }
  return found;
}

/** A copy of a schema with the description's `#/components/schemas/X` references pointed at the Ajv copy. */
export function retarget(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(retarget);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$ref" && typeof v === "string") {
      if (!v.startsWith(LOCAL_SCHEMA_REF)) throw new Error(`unexpected reference ${v} inside a schema`);
      out[k] = `${SCHEMAS_ID}#/$defs/${v.slice(LOCAL_SCHEMA_REF.length)}`;
    } else out[k] = retarget(v);
  }
  return out;
}

/**
 * `oneOf` + `discriminator` rewritten as an if/then chain on the discriminating property, when the
 * mapping covers every variant and each variant pins the property to its mapping value (then
 * exactly one variant can match, as oneOf requires). Otherwise the discriminator stays an annotation.
 */
function discriminated(schemas: Record<string, Schema>, schema: Schema): Schema {
  const oneOf = schema.oneOf as Schema[] | undefined;
  const discriminator = schema.discriminator as
    | { propertyName: string; mapping?: Record<string, string> }
    | undefined;
  if (!oneOf || !discriminator?.mapping) return schema;
  const prop = discriminator.propertyName;
  const mapping = Object.entries(discriminator.mapping);
  const refs = new Set(oneOf.map((s) => s.$ref));
  const pins = mapping.every(([value, ref]) => {
    if (!refs.has(ref)) return false;
    const variant = schemas[ref.slice(LOCAL_SCHEMA_REF.length)];
    const property = (variant?.properties as Record<string, Schema> | undefined)?.[prop];
    const required = (variant?.required as string[] | undefined) ?? [];
    const enumValues = property?.enum as unknown[] | undefined;
    return (
      required.includes(prop) &&
      (property?.const === value || (enumValues?.length === 1 && enumValues[0] === value))
    );
  });
  if (!pins || mapping.length !== oneOf.length) return schema;
  const { oneOf: _oneOf, discriminator: _discriminator, ...rest } = schema;
  let chain: Schema = {
    required: [prop],
    properties: { [prop]: { enum: mapping.map(([value]) => value) } },
  };
  for (const [value, ref] of [...mapping].reverse()) {
    chain = {
      if: { properties: { [prop]: { const: value } }, required: [prop] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword; the object is never awaited.
      then: { $ref: ref },
      else: chain,
    };
  }
  return { ...rest, ...chain };
}

/**
 * `if`/`then`/`else` moved into an allOf member when the same schema object has
 * `unevaluatedProperties`. Equivalent in JSON Schema (a schema object's keywords all apply, and a
 * valid allOf member's annotations count as evaluated just as in-place ones do), and needed because
 * Ajv 8 drops the properties its sibling `allOf` evaluated whenever such an `if` does not match:
 * CreatePodRequest with a `templateId` (its `if` fails) would otherwise have every property
 * reported as unevaluated.
 */
function conditionalIntoAllOf(schema: Schema): Schema {
  if (schema.unevaluatedProperties === undefined || schema.if === undefined) return schema;
  const { if: condition, then: consequence, else: alternative, ...rest } = schema;
  const member = {
    if: condition,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword; the object is never awaited.
    ...(consequence === undefined ? {} : { then: consequence }),
    ...(alternative === undefined ? {} : { else: alternative }),
  };
  return { ...rest, allOf: [...((rest.allOf as unknown[] | undefined) ?? []), member] };
}

/** `node` as Ajv is given it: discriminators and conditionals rewritten, as above. */
export function prepared<T>(node: T, schemas: Record<string, Schema>): T {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = rewrite(v);
    return conditionalIntoAllOf(discriminated(schemas, out));
  };
  return rewrite(node) as T;
}

/**
 * The property names a schema declares for the instance it applies to: its own `properties` and
 * those of every in-place applicator (allOf, anyOf, oneOf, if/then/else, dependentSchemas, $ref).
 */
function declaredProperties(
  schema: unknown,
  defs: Record<string, unknown>,
  seen = new Set<unknown>(),
): Set<string> {
  const names = new Set<string>();
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return names;
  seen.add(schema);
  const s = schema as Record<string, unknown>;
  for (const name of Object.keys((s.properties as object | undefined) ?? {})) names.add(name);
  const parts: unknown[] = [
    ...((s.allOf as unknown[] | undefined) ?? []),
    ...((s.anyOf as unknown[] | undefined) ?? []),
    ...((s.oneOf as unknown[] | undefined) ?? []),
    s.if,
    s.then,
    s.else,
    ...Object.values((s.dependentSchemas as object | undefined) ?? {}),
  ];
  if (typeof s.$ref === "string" && s.$ref.startsWith(`${SCHEMAS_ID}#/$defs/`)) {
    parts.push(defs[s.$ref.slice(`${SCHEMAS_ID}#/$defs/`.length)]);
  }
  for (const part of parts) for (const name of declaredProperties(part, defs, seen)) names.add(name);
  return names;
}

/**
 * A subschema that fails contributes no evaluated properties (JSON Schema 2020-12), so one error
 * inside an allOf member makes every property that member declares "unevaluated" as well. When a
 * validation has other errors, those echoes (unevaluated properties the schema does declare) are
 * dropped; a property no subschema declares is always reported.
 */
function withoutUnevaluatedEchoes(
  errors: readonly ErrorObject[],
  defs: Record<string, unknown>,
): ErrorObject[] {
  const others = errors.some((e) => e.keyword !== "unevaluatedProperties" && e.keyword !== "if");
  if (!others) return [...errors];
  return errors.filter(
    (e) =>
      e.keyword !== "unevaluatedProperties" ||
      !declaredProperties(e.parentSchema, defs).has(String(e.params.unevaluatedProperty)),
  );
}

/** The violations Ajv found, as pointers into the exchange; `if` failures are dropped (their branch reports). */
export function violationsOf(
  errors: readonly ErrorObject[] | null | undefined,
  base: string,
  operation: string,
  direction: Direction,
  defs: Record<string, unknown>,
): Violation[] {
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const e of withoutUnevaluatedEchoes(errors ?? [], defs)) {
    if (e.keyword === "if") continue;
    let pointer = `${base}${e.instancePath}`;
    let message = `${e.message ?? "is invalid"} (${e.keyword})`;
    if (e.keyword === "required") {
      pointer += `/${pointerToken(String(e.params.missingProperty))}`;
      message = "required property is missing";
    } else if (e.keyword === "additionalProperties") {
      pointer += `/${pointerToken(String(e.params.additionalProperty))}`;
      message = "property is not allowed (additionalProperties: false)";
    } else if (e.keyword === "unevaluatedProperties") {
      pointer += `/${pointerToken(String(e.params.unevaluatedProperty))}`;
      message = "property is not allowed (unevaluatedProperties: false)";
    } else if (e.keyword === "enum") {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    }
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ operation, direction, pointer, message });
  }
  return out;
}
