/**
 * The provider plugin's package schema, made from the resources' declarations (each resource's
 * fields.ts, docs/decisions.md "One declaration per field"): every resource's inputs and outputs
 * with their exact types, enums and named object types, descriptions, secrets and
 * `replaceOnChanges`, and the provider's configuration. The functions (invokes) are added by the
 * generator that writes sdk/schema.json (codegen/schema.ts), from their TypeScript signatures.
 */
import { SETTINGS } from "../client/config.js";
import type { Example, ResourceDeclaration } from "../fields/declaration.js";
import { DECLARATIONS } from "../resources/declarations.js";
import { pluginToken } from "../resources/type-tokens.js";
import { type Json, SchemaTypes } from "./schema-types.js";

/** The languages Pulumi's docs show an example in, and the fence each SDK keeps of it. */
const FENCES = [
  ["typescript", "typescript"],
  ["python", "python"],
  ["go", "go"],
  ["yaml", "yaml"],
] as const satisfies readonly (readonly [keyof Example, string])[];

/** The examples as Pulumi's docs write them: each SDK keeps the code of its own language. */
export function examplesSection(examples: readonly Example[]): string {
  if (examples.length === 0) return "";
  const blocks = examples.map((e) =>
    [
      "{{% example %}}",
      `### ${e.title}`,
      "",
      ...FENCES.map(([lang, fence]) => `\`\`\`${fence}\n${e[lang].trim()}\n\`\`\``),
      "{{% /example %}}",
    ].join("\n"),
  );
  return ["{{% examples %}}", "## Example Usage", "", ...blocks, "{{% /examples %}}"].join("\n");
}

function resourceSpec(types: SchemaTypes, declaration: ResourceDeclaration): Json {
  const outputs = declaration.fields.outputs.filter((f) => !f.meta.internal);
  const out = types.properties(outputs, "output", declaration.kind);
  const inputs = types.properties(declaration.fields.inputs, "input", declaration.kind);
  const examples = examplesSection(declaration.examples);
  return {
    description: [declaration.description, examples].filter((p) => p !== "").join("\n\n"),
    properties: out.properties,
    required: out.required,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
  };
}

/** The provider's configuration: the settings the dynamic provider reads as `runpod:*`. */
export function configSpec(): Record<string, Json> {
  return Object.fromEntries(
    SETTINGS.map((s) => [
      s.field,
      {
        type: s.type,
        description: `${s.description} Falls back to the ${s.env} environment variable.`,
        ...(s.secret ? { secret: true } : {}),
      },
    ]),
  );
}

/** Every resource's spec and the types they name, by token. */
export function resourcesSchema(): { resources: Record<string, Json>; types: Record<string, Json> } {
  const types = new SchemaTypes();
  const resources = Object.fromEntries(
    DECLARATIONS.map((d) => [pluginToken(d.kind), resourceSpec(types, d)]),
  );
  return { resources, types: types.types };
}
