/**
 * The provider plugin's package schema, sdk/schema.json: the resources and their types from their
 * declarations (provider/plugin/schema.ts), and the functions (invokes) from the TypeScript
 * signatures of the program functions they are (provider/index.ts): their options and results are
 * the catalog's and the jobs' types, which the client proves equal to its response schemas.
 *
 *   node dist/codegen/schema.js [out.json]     (default: sdk/schema.json)
 */
import * as path from "node:path";
import ts from "typescript";
import { configSpec, resourcesSchema } from "../provider/plugin/schema.js";
import { FUNCTIONS, PACKAGE, PLUGIN_DOWNLOAD_URL, token } from "../provider/plugin/tokens.js";

type Json = Record<string, unknown>;

const ROOT = path.resolve(__dirname, "..", "..");

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

/** Types no Pulumi language can pass (a property of such a type is left out of the schema). */
const UNREPRESENTABLE = new Set(["Map", "ReadonlyMap", "Set", "ReadonlySet", "AbortSignal", "Function"]);

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

class SchemaWriter {
  readonly types: Record<string, Json> = {};

  constructor(private readonly checker: ts.TypeChecker) {}

  /** `T` out of `T | undefined | null`, or `T`. */
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
  spec(type: ts.Type, where: string, trail: readonly string[]): Json | undefined {
    const members = this.plainMembers(type);
    const flattened = members.flatMap((m) => (m.isUnion() ? this.plainMembers(m) : [m]));
    if (flattened.length === 0) return { $ref: "pulumi.json#/Any" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.BooleanLike)) return { type: "boolean" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.StringLike)) return { type: "string" };
    if (flattened.every((m) => m.flags & ts.TypeFlags.NumberLike)) {
      return { type: "number" };
    }
    if (flattened.length > 1) {
      const options = flattened.map((m) => this.spec(m, where, trail));
      return options.every((o) => o !== undefined) ? { oneOf: options } : undefined;
    }
    const only = flattened[0] as ts.Type;
    if (only.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { $ref: "pulumi.json#/Any" };
    if (UNREPRESENTABLE.has(only.getSymbol()?.getName() ?? "")) return undefined;
    if (this.checker.isArrayType(only) || this.checker.isTupleType(only)) {
      const element = this.checker.getTypeArguments(only as ts.TypeReference)[0] as ts.Type;
      const items = this.spec(element, where, [...trail, "[]"]);
      return items && { type: "array", items };
    }
    const properties = this.checker.getPropertiesOfType(only);
    const index = this.checker.getIndexInfoOfType(only, ts.IndexKind.String);
    if (properties.length === 0 && index) {
      const values = this.spec(index.type, where, [...trail, "{}"]);
      return values && { type: "object", additionalProperties: values };
    }
    if (properties.length === 0) return { $ref: "pulumi.json#/Any" };
    return { $ref: `#/types/${this.objectType(only, where, trail)}` };
  }

  /** Registers an object type under a token named after its TypeScript name (or where it is used). */
  private objectType(type: ts.Type, where: string, trail: readonly string[]): string {
    const declared = type.aliasSymbol?.getName() ?? type.getSymbol()?.getName();
    const named = declared && !declared.startsWith("__") ? declared.replace(/Args$/, "") : undefined;
    const property = [...trail].reverse().find((s) => s !== "[]" && s !== "{}") ?? "";
    const name = named ?? `${where}${capital(property)}`;
    const tok = token(name);
    if (this.types[tok]) return tok;
    this.types[tok] = {}; // placeholder against recursion
    const { properties, required } = this.properties(this.checker.getPropertiesOfType(type), name, trail);
    this.types[tok] = { type: "object", properties, ...(required.length ? { required } : {}) };
    return tok;
  }

  /** Property specs and the required names, for the symbols of an object or class. */
  properties(
    symbols: readonly ts.Symbol[],
    where: string,
    trail: readonly string[],
  ): { properties: Record<string, Json>; required: string[] } {
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const symbol of symbols) {
      const name = symbol.getName();
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (!declaration) continue;
      const type = this.checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const spec = this.spec(type, where, [...trail, name]);
      if (spec === undefined) continue;
      const description = describe(symbol, this.checker);
      properties[name] = {
        ...spec,
        ...(description ? { description } : {}),
      };
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
      const nullable = (type.isUnion() ? type.types : [type]).some(
        (t) => t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined),
      );
      if (!optional && !nullable) required.push(name);
    }
    return { properties, required: required.sort() };
  }
}

function program(): { checker: ts.TypeChecker; exports: Map<string, ts.Symbol> } {
  const configFile = path.join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  // What programs import (`runpod-dynamic`): the functions are its exports.
  const entries = [path.join(ROOT, "provider", "index.ts")];
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
        )
      : writer.properties(
          parameters.filter((p) => (fn.arguments as readonly string[]).includes(p.getName())),
          `${where}Args`,
          [],
        );
  const returned = checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType();
  const result = writer.spec(returned, `${where}Result`, []);
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

export function packageSchema(version: string): Json {
  const { checker, exports } = program();
  const writer = new SchemaWriter(checker);
  const functions = Object.fromEntries(
    FUNCTIONS.map((fn) => [token(fn.name), functionSpec(writer, checker, exports, fn)]),
  );
  const declared = resourcesSchema();
  for (const name of Object.keys(writer.types)) {
    if (name in declared.types) throw new Error(`a function's type and a resource's are both named ${name}`);
  }
  const types = { ...declared.types, ...writer.types };
  const variables = configSpec();
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
    // Where the engine fetches the plugin for its platform: the repository's GitHub releases, whose
    // assets are named as Pulumi's plugin acquisition asks (docs/releases.md, "What a release holds").
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // Versions in each SDK's package file, and a go.mod for the Go SDK.
    meta: { moduleFormat: "(.*)", supportPack: true },
    config: { variables },
    provider: {
      description: "The runpod-dynamic provider: where the API is and the key it is called with.",
      inputProperties: variables,
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources: declared.resources,
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
        // The SDK asks the engine for its own version of the plugin, which the engine can fetch;
        // without it the engine asks for the latest, which a release's download location cannot say.
        respectSchemaVersion: true,
      },
      nodejs: { packageName: "@runpod-dynamic/pulumi", dependencies: { "@pulumi/pulumi": "^3.0.0" } },
      python: {
        packageName: "pulumi_runpod_dynamic",
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        // A pyproject.toml, which builds a wheel and an sdist, where setup.py builds neither.
        pyproject: { enabled: true },
      },
    },
  };
}
