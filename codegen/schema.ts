/**
 * The provider plugin's Pulumi package schema, generated from the TypeScript declarations programs
 * already compile against: each resource class's `Output` properties are its outputs, its
 * constructor's arguments type its inputs, their TSDoc the descriptions (`@defaultValue` and
 * `@onChange` included), the checked zod schema says which numbers are integers, and
 * provider/resources/secret-fields.ts which fields are secret. Nothing of the public API is written here
 * a second time: a field added to `PodArgs` reaches every SDK by regenerating (docs/plugin.md).
 *
 *   node dist/codegen/schema.js [out.json]     (default: sdk/schema.json)
 */
import * as path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { SETTINGS } from "../provider/client/config.js";
import { FUNCTIONS, PACKAGE, RESOURCES, token } from "../provider/plugin/tokens.js";
import { ClusterArgsSchema } from "../provider/resources/cluster/schema.js";
import { NetworkVolumeArgsSchema } from "../provider/resources/network-volume/schema.js";
import { PodArgsSchema } from "../provider/resources/pod/schema.js";
import { RegistryArgsSchema } from "../provider/resources/registry/schema.js";
import { SecretArgsSchema } from "../provider/resources/secret/schema.js";
import { SECRET_FIELDS } from "../provider/resources/secret-fields.js";
import { ServerlessEndpointArgsSchema } from "../provider/resources/serverless-endpoint/schema.js";
import { ServerlessJobArgsSchema } from "../provider/resources/serverless-job/schema.js";
import { TemplateArgsSchema } from "../provider/resources/template/schema.js";

type Json = Record<string, unknown>;

const ROOT = path.resolve(__dirname, "..", "..");

/** The zod schema each resource's check validates against: where integers are told from numbers. */
const CHECKED: Partial<Record<(typeof RESOURCES)[number], z.ZodType>> = {
  Cluster: ClusterArgsSchema,
  NetworkVolume: NetworkVolumeArgsSchema,
  Pod: PodArgsSchema,
  Registry: RegistryArgsSchema,
  Secret: SecretArgsSchema,
  ServerlessEndpoint: ServerlessEndpointArgsSchema,
  ServerlessJob: ServerlessJobArgsSchema,
  Template: TemplateArgsSchema,
};

/** The JSON Schema of a checked zod schema at a property path, if it has one there. */
function checkedAt(schema: Json | undefined, trail: readonly string[]): Json | undefined {
  let node: Json | undefined = schema;
  for (const step of trail) {
    if (node === undefined) return undefined;
    const options = [node, ...((node.anyOf as Json[] | undefined) ?? [])];
    node = undefined;
    for (const option of options) {
      const next =
        step === "[]"
          ? (option.items as Json | undefined)
          : step === "{}"
            ? (option.additionalProperties as Json | undefined)
            : (option.properties as Record<string, Json> | undefined)?.[step];
      if (next && typeof next === "object") {
        node = next;
        break;
      }
    }
  }
  return node;
}

function isInteger(schema: Json | undefined): boolean {
  if (!schema) return false;
  if (schema.type === "integer") return true;
  return ((schema.anyOf as Json[] | undefined) ?? []).some((s) => s.type === "integer");
}

/** A symbol's TSDoc as the schema's description: summary, then its default and what a change does. */
function describe(symbol: ts.Symbol, checker: ts.TypeChecker): string | undefined {
  const summary = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const tags = symbol.getJsDocTags(checker);
  const tag = (name: string) => {
    const found = tags.find((t) => t.name === name);
    return found ? ts.displayPartsToString(found.text).trim() : undefined;
  };
  const defaultValue = tag("defaultValue") ?? tag("default");
  const onChange = tag("onChange");
  const parts = [
    summary,
    defaultValue !== undefined ? `Default: ${defaultValue}.` : "",
    onChange !== undefined ? `On change: ${onChange}.` : "",
  ].filter((p) => p !== "");
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

/** Whether a change to the input always replaces the object: its `@onChange` is `replace` alone. */
function alwaysReplaces(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  const onChange = symbol.getJsDocTags(checker).find((t) => t.name === "onChange");
  if (!onChange) return false;
  const text = ts.displayPartsToString(onChange.text).trim();
  return /^replace(:|$)/.test(text);
}

/** Types no Pulumi language can pass (a property of such a type is left out of the schema). */
const UNREPRESENTABLE = new Set(["Map", "ReadonlyMap", "Set", "ReadonlySet", "AbortSignal", "Function"]);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

class SchemaWriter {
  readonly types: Record<string, Json> = {};

  constructor(private readonly checker: ts.TypeChecker) {}

  /** `T` out of `pulumi.Input<T>` (`T | Promise<T> | OutputInstance<T>`), `pulumi.Output<T>`, or `T`. */
  private plainMembers(type: ts.Type): ts.Type[] {
    if (type.aliasSymbol?.getName() === "Output" && type.aliasTypeArguments?.[0]) {
      return this.plainMembers(type.aliasTypeArguments[0]);
    }
    const members = type.isUnion() ? type.types : [type];
    return members.flatMap((member) => {
      const name = member.getSymbol()?.getName() ?? member.aliasSymbol?.getName();
      if (name === "Promise" || name === "OutputInstance") return [];
      if (member.isIntersection()) {
        const output = member.types.find((t) => t.getSymbol()?.getName() === "OutputInstance");
        if (output)
          return this.plainMembers(this.checker.getTypeArguments(output as ts.TypeReference)[0] as ts.Type);
      }
      if (member.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return [];
      return [member];
    });
  }

  /** The type spec of a property whose (possibly Input- or Output-wrapped) TypeScript type is `type`. */
  spec(type: ts.Type, where: string, trail: readonly string[], checked: Json | undefined): Json | undefined {
    const members = this.plainMembers(type);
    const flattened = members.flatMap((m) => (m.isUnion() ? this.plainMembers(m) : [m]));
    if (flattened.length === 0) return { $ref: "pulumi.json#/Any" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.StringLike)) return { type: "string" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.NumberLike)) {
      return { type: isInteger(checkedAt(checked, trail)) ? "integer" : "number" };
    }
    if (flattened.length > 1) {
      const options = flattened.map((m) => this.spec(m, where, trail, checked));
      return options.every((o) => o !== undefined) ? { oneOf: options } : undefined;
    }
    const only = flattened[0] as ts.Type;
    if (only.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (UNREPRESENTABLE.has(only.getSymbol()?.getName() ?? "")) return undefined;
    if (this.checker.isArrayType(only) || this.checker.isTupleType(only)) {
      const element = this.checker.getTypeArguments(only as ts.TypeReference)[0] as ts.Type;
      const items = this.spec(element, where, [...trail, "[]"], checked);
      return items && { type: "array", items };
    }
    const properties = this.checker.getPropertiesOfType(only);
    const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
    if (properties.length === 0 && index) {
      const values = this.spec(index.type, where, [...trail, "{}"], checked);
      return values && { type: "object", additionalProperties: values };
    }
    if (properties.length === 0) return { $ref: "pulumi.json#/Any" };
    return { $ref: `#/types/${this.objectType(only, where, trail, checked)}` };
  }

  /** Registers an object type under a token named after its TypeScript name (or where it is used). */
  private objectType(
    type: ts.Type,
    where: string,
    trail: readonly string[],
    checked: Json | undefined,
  ): string {
    const declared = type.aliasSymbol?.getName() ?? type.getSymbol()?.getName();
    const named = declared && !declared.startsWith("__") ? declared.replace(/Args$/, "") : undefined;
    const property = [...trail].reverse().find((s) => s !== "[]" && s !== "{}") ?? "";
    const name = named ?? `${where}${capital(property)}`;
    const tok = token(name);
    if (this.types[tok]) return tok;
    this.types[tok] = {}; // placeholder against recursion
    const { properties, required } = this.properties(
      this.checker.getPropertiesOfType(type),
      name,
      trail,
      checked,
      "input",
    );
    this.types[tok] = { type: "object", properties, ...(required.length ? { required } : {}) };
    return tok;
  }

  /** Property specs and the required names, for the symbols of an object or class. */
  properties(
    symbols: readonly ts.Symbol[],
    where: string,
    trail: readonly string[],
    checked: Json | undefined,
    side: "input" | "output",
    secrets: readonly string[] = [],
  ): { properties: Record<string, Json>; required: string[] } {
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const symbol of symbols) {
      const name = symbol.getName();
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (!declaration) continue;
      const type = this.checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const spec = this.spec(type, where, [...trail, name], checked);
      if (spec === undefined) continue;
      const description = describe(symbol, this.checker);
      properties[name] = {
        ...spec,
        ...(description ? { description } : {}),
        ...(secrets.includes(name) ? { secret: true } : {}),
        ...(side === "input" && alwaysReplaces(symbol, this.checker) ? { replaceOnChanges: true } : {}),
      };
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
      const nullable = (type.isUnion() ? type.types : [type]).some(
        (t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined),
      );
      if (!optional && !(side === "output" && this.outputNullable(type)) && !nullable) required.push(name);
    }
    return { properties, required: required.sort() };
  }

  private outputNullable(type: ts.Type): boolean {
    const aliased = type.aliasSymbol?.getName() === "Output" ? type.aliasTypeArguments?.[0] : undefined;
    if (aliased)
      return (aliased.isUnion() ? aliased.types : [aliased]).some((t) => t.flags & ts.TypeFlags.Null);
    const output = type.isIntersection()
      ? type.types.find((t) => t.getSymbol()?.getName() === "OutputInstance")
      : undefined;
    if (!output) return false;
    const inner = this.checker.getTypeArguments(output as ts.TypeReference)[0] as ts.Type;
    return (inner.isUnion() ? inner.types : [inner]).some((t) => t.flags & ts.TypeFlags.Null);
  }
}

function program(): { checker: ts.TypeChecker; exports: Map<string, ts.Symbol> } {
  const configFile = path.join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  // What programs import (`runpod-dynamic`), and the client entry for the settings' own docs.
  const entries = ["index.ts", "client/index.ts"].map((e) => path.join(ROOT, "provider", e));
  const prog = ts.createProgram({ rootNames: entries, options: { ...parsed.options, noEmit: true } });
  const checker = prog.getTypeChecker();
  const exports = new Map<string, ts.Symbol>();
  for (const entry of entries) {
    const source = prog.getSourceFile(entry);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`cannot read ${entry}`);
    for (const s of checker.getExportsOfModule(moduleSymbol)) {
      exports.set(s.getName(), s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
    }
  }
  return { checker, exports };
}

function exported(exports: Map<string, ts.Symbol>, name: string): ts.Symbol {
  const symbol = exports.get(name);
  if (!symbol) throw new Error(`no entry of provider/ exports ${name}`);
  return symbol;
}

/** The resource's spec: outputs from the class's own `Output` properties, inputs from its constructor. */
function resourceSpec(
  writer: SchemaWriter,
  checker: ts.TypeChecker,
  exports: Map<string, ts.Symbol>,
  kind: (typeof RESOURCES)[number],
): Json {
  const symbol = exported(exports, kind);
  const declaration = symbol.valueDeclaration as ts.ClassDeclaration;
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  const own = checker
    .getPropertiesOfType(instance)
    .filter((p) => p.declarations?.some((d) => d.parent === declaration));
  const constructType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
  const signature = checker.getSignaturesOfType(constructType, ts.SignatureKind.Construct)[0];
  const argsParameter = signature?.getParameters()[1];
  if (!argsParameter) throw new Error(`${kind}'s constructor takes no arguments`);
  const argsType = checker.getTypeOfSymbolAtLocation(argsParameter, declaration);
  const checkedSchema = CHECKED[kind];
  const checked = checkedSchema
    ? (z.toJSONSchema(checkedSchema, { unrepresentable: "any" }) as Json)
    : undefined;
  const secrets = SECRET_FIELDS[kind];
  const outputs = writer.properties(own, kind, [], undefined, "output", secrets.outputs);
  const inputs = writer.properties(
    checker.getPropertiesOfType(argsType),
    kind,
    [],
    checked,
    "input",
    secrets.inputs,
  );
  return {
    description: describe(symbol, checker),
    properties: outputs.properties,
    required: outputs.required,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
  };
}

/** A function's spec: its options object (or its positional parameters) in, `{ <result>: T }` out. */
function functionSpec(
  writer: SchemaWriter,
  checker: ts.TypeChecker,
  exports: Map<string, ts.Symbol>,
  fn: (typeof FUNCTIONS)[number],
): Json {
  const symbol = exported(exports, fn.name);
  const declaration = symbol.valueDeclaration as ts.FunctionDeclaration;
  const signature = checker.getSignatureFromDeclaration(declaration);
  if (!signature) throw new Error(`${fn.name} has no signature`);
  const parameters = signature.getParameters();
  const where = capital(fn.name);
  const inputs =
    fn.arguments === "options"
      ? writer.properties(
          parameters[0]
            ? checker.getPropertiesOfType(checker.getTypeOfSymbolAtLocation(parameters[0], declaration))
            : [],
          `${where}Args`,
          [],
          undefined,
          "input",
        )
      : writer.properties(
          parameters.filter((p) => (fn.arguments as readonly string[]).includes(p.getName())),
          `${where}Args`,
          [],
          undefined,
          "input",
        );
  const returned = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
  const result = writer.spec(returned, `${where}Result`, [], undefined);
  if (result === undefined) throw new Error(`${fn.name}'s result has no schema type`);
  return {
    description: describe(symbol, checker),
    inputs: {
      properties: inputs.properties,
      ...(inputs.required.length ? { required: inputs.required } : {}),
    },
    outputs: { properties: { [fn.result]: result }, required: [fn.result] },
  };
}

/** The provider's configuration: the same settings as the dynamic provider's `runpod:*` keys. */
function configSpec(checker: ts.TypeChecker, exports: Map<string, ts.Symbol>): Record<string, Json> {
  const settings = checker.getDeclaredTypeOfSymbol(exported(exports, "RunpodSettings"));
  const variables: Record<string, Json> = {};
  for (const setting of SETTINGS) {
    const symbol = settings.getProperty(setting.field);
    const summary = symbol ? describe(symbol, checker) : undefined;
    const type = setting.field === "allowInsecureHttp" ? "boolean" : "string";
    variables[setting.field] = {
      type,
      description: [summary, `Falls back to the ${setting.env} environment variable.`]
        .filter(Boolean)
        .join(" "),
      ...(setting.secret ? { secret: true } : {}),
    };
  }
  return variables;
}

export function packageSchema(version: string): Json {
  const { checker, exports } = program();
  const writer = new SchemaWriter(checker);
  const resources = Object.fromEntries(
    RESOURCES.map((kind) => [token(kind), resourceSpec(writer, checker, exports, kind)]),
  );
  const functions = Object.fromEntries(
    FUNCTIONS.map((fn) => [token(fn.name), functionSpec(writer, checker, exports, fn)]),
  );
  const variables = configSpec(checker, exports);
  return {
    name: PACKAGE,
    displayName: "RunPod (runpod-dynamic)",
    version,
    description:
      "RunPod GPU pods, serverless endpoints, volumes, templates and more: placement across data centers, readiness, fail-fast and create keys that never leak a billed pod.",
    keywords: ["pulumi", "runpod", "gpu", "category/cloud", "kind/native"],
    homepage: "https://github.com/runpod-dynamic/runpod-dynamic#readme",
    repository: "https://github.com/runpod-dynamic/runpod-dynamic",
    license: "Apache-2.0",
    publisher: "runpod-dynamic",
    // Versions in each SDK's package file, and a go.mod for the Go SDK.
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables },
    provider: {
      description: "The runpod-dynamic provider: where the API is and the key it is called with.",
      inputProperties: variables,
    },
    types: Object.fromEntries(Object.entries(writer.types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
    language: {
      csharp: {
        rootNamespace: "Pulumi",
        namespaces: { "runpod-dynamic": "RunpodDynamic" },
        packageReferences: { Pulumi: "3.*" },
      },
      go: {
        importBasePath: "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic",
        generateResourceContainerTypes: false,
      },
      nodejs: { packageName: "@runpod-dynamic/pulumi", dependencies: { "@pulumi/pulumi": "^3.0.0" } },
      python: { packageName: "pulumi_runpod_dynamic", requires: { pulumi: ">=3.0.0,<4.0.0" } },
    },
  };
}
