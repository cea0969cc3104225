/**
 * The committed schema (sdk/schema.json, what every SDK is generated from) says of each resource
 * what its `check` does: every input and output it names is a field of the zod schema the
 * declaration validates with, with the same name, integer where check refuses a fraction, an enum
 * where check takes exactly those values, and required where check refuses it missing (a
 * discriminated union is one object type, its options' fields optional but the discriminator). The zod
 * schemas are asked by parsing, not read, so a fault of the generator's reading of them shows here.
 * No primitive is typed `Any`, no two types share a name, and no description carries a doubled full
 * stop or a TypeScript object literal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadDist, REPO_ROOT } from "../support/dist.js";

const { DECLARATIONS } = loadDist<typeof import("../../provider/resources/declarations.js")>(
  "provider/resources/declarations.js",
);
const { SchemaTypes } = loadDist<typeof import("../../provider/plugin/schema-types.js")>(
  "provider/plugin/schema-types.js",
);
const { fieldOf } = loadDist<typeof import("../../provider/fields/nodes.js")>("provider/fields/nodes.js");

type Json = Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "sdk", "schema.json"), "utf8")) as {
  resources: Record<string, Json>;
  types: Record<string, Json>;
};

const resolve = (spec: Json): Json => {
  const ref = spec.$ref;
  if (typeof ref === "string" && ref.startsWith("#/types/")) {
    const found = schema.types[ref.slice("#/types/".length)];
    if (!found) throw new Error(`${ref} names no type`);
    return found;
  }
  return spec;
};

/** Integers tried on a numeric field, between them inside every range a declaration allows. */
const INTEGERS = [0, 1, 2, 10, 1000, 100_000, 300_000];

/** The zod schema under wrappers: what a value of the field (present, not null) is checked with. */
function unwrapped(s: z.ZodType): z.ZodType {
  let at = s;
  while (at instanceof z.ZodOptional || at instanceof z.ZodNullable) at = at.unwrap() as z.ZodType;
  return at;
}

/**
 * Every disagreement between a schema spec and the zod schema of the same value, found by parsing:
 * `where` names the place. `required` is the schema's own list for an object's properties.
 */
function disagreements(spec: Json, zod: z.ZodType, where: string, side: "input" | "output"): string[] {
  const found: string[] = [];
  const target = resolve(spec);
  const inner = unwrapped(zod);
  if (target.$ref === "pulumi.json#/Any") {
    // Any is for any JSON value: check must take an object, a list and a primitive alike.
    const takes = [{ an: "object" }, ["a", "list"], "text", 1.5, true].map((v) => inner.safeParse(v).success);
    return takes.every(Boolean) ? [] : [`${where}: typed Any, but check takes only some JSON values`];
  }
  if (Array.isArray(target.oneOf)) {
    return (target.oneOf as Json[]).flatMap((o, i) => {
      const options = (inner as unknown as { options: z.ZodType[] }).options;
      const option = options[i];
      return option ? disagreements(o, option, `${where}|${i}`, side) : [`${where}: no option ${i}`];
    });
  }
  switch (target.type) {
    case "integer":
      if (!INTEGERS.some((n) => inner.safeParse(n).success))
        found.push(`${where}: integer in the schema, but check takes no integer tried`);
      if (INTEGERS.some((n) => inner.safeParse(n + 0.5).success))
        found.push(`${where}: integer in the schema, but check takes a fraction`);
      break;
    case "number":
      if (!INTEGERS.some((n) => inner.safeParse(n + 0.5).success))
        found.push(`${where}: number in the schema, but check refuses every fraction tried`);
      break;
    case "boolean":
      if (!inner.safeParse(true).success || inner.safeParse("true").success)
        found.push(`${where}: boolean in the schema, but check does not take exactly booleans`);
      break;
    case "string": {
      const values = (target.enum as { value: string }[] | undefined)?.map((e) => e.value);
      if (values) {
        for (const v of values) if (!inner.safeParse(v).success) found.push(`${where}: check refuses ${v}`);
        if (inner.safeParse("NOT_ONE_OF_THEM").success)
          found.push(`${where}: an enum, but check takes any string`);
      } else if (inner.safeParse(42).success)
        found.push(`${where}: string in the schema, but check takes a number`);
      break;
    }
    case "array":
      found.push(
        ...disagreements(
          target.items as Json,
          (inner as z.ZodArray).element as z.ZodType,
          `${where}[]`,
          side,
        ),
      );
      break;
    case "object": {
      if (target.additionalProperties) {
        found.push(
          ...disagreements(
            target.additionalProperties as Json,
            (inner as unknown as z.ZodRecord)._zod.def.valueType as z.ZodType,
            `${where}{}`,
            side,
          ),
        );
        break;
      }
      const props = (target.properties ?? {}) as Record<string, Json>;
      const by = (inner as unknown as { _zod: { def: { discriminator?: string } } })._zod.def.discriminator;
      if (by !== undefined) {
        found.push(...mergedUnionDisagreements(target, inner, by, where, side));
        break;
      }
      const shape = (inner as z.ZodObject).shape as Record<string, z.ZodType>;
      found.push(...objectDisagreements(props, (target.required ?? []) as string[], shape, where, side));
      break;
    }
    default:
      found.push(`${where}: no schema type`);
  }
  return found;
}

/**
 * A discriminated union the schema types as one object: the discriminator its only required
 * property, a string naming every option's value; every option's other fields, and nothing else,
 * its optional properties, each typed as that option's field is.
 */
function mergedUnionDisagreements(
  target: Json,
  union: z.ZodType,
  by: string,
  where: string,
  side: "input" | "output",
): string[] {
  const found: string[] = [];
  const props = (target.properties ?? {}) as Record<string, Json>;
  const options = (union as unknown as { options: z.ZodObject[] }).options.map(
    (o) => o.shape as Record<string, z.ZodType>,
  );
  const names = [...new Set(options.flatMap((o) => Object.keys(o)))].sort();
  if (JSON.stringify(Object.keys(props).sort()) !== JSON.stringify(names))
    found.push(`${where}: properties ${Object.keys(props).sort()} against the options' ${names}`);
  if (JSON.stringify(target.required) !== JSON.stringify([by]))
    found.push(`${where}: required ${String(target.required)}, not the discriminator ${by} alone`);
  for (const option of options) {
    const tag = (option[by] as unknown as { value?: unknown }).value;
    if (!String(props[by]?.description ?? "").includes(`\`${String(tag)}\``))
      found.push(`${where}.${by}: the description does not name ${String(tag)}`);
    for (const [name, zod] of Object.entries(option)) {
      const spec = props[name];
      if (name !== by && spec) found.push(...disagreements(spec, zod, `${where}.${name}`, side));
    }
  }
  return found;
}

/** Names, required and every property's type of an object against its zod shape. */
function objectDisagreements(
  props: Record<string, Json>,
  required: readonly string[],
  shape: Record<string, z.ZodType>,
  where: string,
  side: "input" | "output",
  internal: readonly string[] = [],
): string[] {
  const found: string[] = [];
  const names = Object.keys(shape).filter((k) => !internal.includes(k));
  if (JSON.stringify(Object.keys(props).sort()) !== JSON.stringify([...names].sort()))
    found.push(`${where}: properties ${Object.keys(props).sort()} against check's ${[...names].sort()}`);
  for (const name of names) {
    const zod = shape[name];
    const spec = props[name];
    if (!zod || !spec) continue;
    const missingRefused = !zod.safeParse(undefined).success;
    const nullRefused = !zod.safeParse(null).success;
    const isRequired = side === "input" ? missingRefused : missingRefused && nullRefused;
    if (required.includes(name) !== isRequired)
      found.push(
        `${where}.${name}: required ${required.includes(name)} in the schema, ${isRequired} in check`,
      );
    found.push(...disagreements(spec, zod, `${where}.${name}`, side));
  }
  return found;
}

describe("the committed schema says what check does", () => {
  it.each(DECLARATIONS.map((d) => [d.kind, d] as const))("%s: inputs and outputs", (kind, declaration) => {
    const resource = schema.resources[`runpod-dynamic:index:${kind}`];
    if (!resource) throw new Error(`no ${kind} in the schema`);
    const internal = Object.entries(declaration.outputs.shape as Record<string, z.ZodType>)
      .filter(([k, v]) => fieldOf(k, v).meta.internal)
      .map(([k]) => k);
    expect([
      ...objectDisagreements(
        resource.inputProperties as Record<string, Json>,
        resource.requiredInputs as string[],
        declaration.inputs.shape as Record<string, z.ZodType>,
        `${kind} input`,
        "input",
      ),
      ...objectDisagreements(
        resource.properties as Record<string, Json>,
        resource.required as string[],
        declaration.outputs.shape as Record<string, z.ZodType>,
        `${kind} output`,
        "output",
        internal,
      ),
    ]).toEqual([]);
  });

  it("replaces on a change exactly the inputs whose every change replaces", () => {
    const marked = Object.entries(schema.resources).flatMap(([token, r]) =>
      Object.entries(r.inputProperties as Record<string, Json>)
        .filter(([, p]) => p.replaceOnChanges === true)
        .map(([name]) => `${token.split(":").pop()}.${name}`),
    );
    expect(marked.sort()).toEqual(
      [
        "Cluster.compute",
        "Cluster.args",
        "Cluster.dataCenterIds",
        "Cluster.disk",
        "Cluster.env",
        "Cluster.image",
        "Cluster.mounts",
        "Cluster.ports",
        "Cluster.startJupyter",
        "Cluster.startSsh",
        "Cluster.templateId",
        "Cluster.type",
        "NetworkVolume.dataCenterId",
        "NetworkVolume.type",
        "Pod.cloud",
        "Pod.cpu",
        "Pod.gpu",
        "Pod.startJupyter",
        "Pod.startSsh",
        "Pod.templateId",
        "Registry.name",
        "Registry.password",
        "Registry.username",
        "Secret.name",
        "ServerlessEndpoint.type",
        "ServerlessJob.endpointId",
        "ServerlessJob.input",
        "Template.serverless",
      ].sort(),
    );
  });
});

describe("what the schema may not say", () => {
  /** Every description in the schema, with where it is. */
  function descriptions(node: unknown, where: string): [string, string][] {
    if (Array.isArray(node)) return node.flatMap((n, i) => descriptions(n, `${where}[${i}]`));
    if (node === null || typeof node !== "object") return [];
    return Object.entries(node as Json).flatMap(([k, v]) =>
      k === "description" && typeof v === "string"
        ? [[where, v] as [string, string]]
        : descriptions(v, `${where}.${k}`),
    );
  }
  const all = descriptions(schema, "schema");

  it("no description has a doubled full stop", () => {
    expect(all.filter(([, d]) => /(^|[^.])\.\.($|[^.])/.test(d)).map(([w]) => w)).toEqual([]);
  });

  it("no description carries a TypeScript object literal or an arrow function", () => {
    expect(all.filter(([, d]) => /`\{\s*\w+:|=>/.test(d)).map(([w]) => w)).toEqual([]);
  });

  it("every enum value has a name every SDK can use", () => {
    const names = Object.entries(schema.types).flatMap(([token, t]) =>
      ((t.enum ?? []) as { name?: string; value: string }[])
        .filter((e) => e.name === undefined || !/^[A-Z][A-Za-z0-9]*$/.test(e.name))
        .map((e) => `${token}.${e.value}`),
    );
    expect(names).toEqual([]);
  });

  it("two different types under one name are refused where the schema is made", () => {
    const types = new SchemaTypes();
    const a = z.strictObject({ x: z.string() }).meta({ id: "Same" });
    const b = z.strictObject({ y: z.int() }).meta({ id: "Same" });
    const fields = [fieldOf("a", a), fieldOf("b", b)];
    expect(() => types.properties(fields, "input", "Test")).toThrow(
      "Test.b: two different types are named Same",
    );
  });

  it("an object or enum without a name is refused where the schema is made", () => {
    const types = new SchemaTypes();
    expect(() =>
      types.properties([fieldOf("a", z.strictObject({ x: z.string() }))], "input", "Test"),
    ).toThrow("Test.a: an object or enum type of a declaration needs an id");
  });
});
