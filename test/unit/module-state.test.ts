/**
 * No run state at module level in provider/: what a provider host shares lives in its context
 * (provider/host/context.ts), handed to what needs it; nothing is found through a module or a
 * global. Read with the TypeScript compiler over every source file of provider/:
 * - a top-level `let` or `var` is state;
 * - a top-level `const` holding a Set, Map, array or object literal is state when anything in
 *   provider/ changes it (adds, sets, deletes, pushes, assigns a property), through any import;
 * - a top-level `const` holding an instance of any other class is state (an instance keeps
 *   fields);
 * - `globalThis` is a service locator.
 * The few exceptions are listed below, each with its reason.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type * as TS from "typescript";
import { describe, expect, it } from "vitest";
import { nodeRequire, REPO_ROOT } from "../support/dist.js";

const ts = nodeRequire("typescript") as typeof TS;

const SOURCE_ROOT = join(REPO_ROOT, "provider");

/** `file: name`, with why it may hold what it holds. */
const ALLOWED: Readonly<Record<string, string>> = {
  "provider/dynamic/runtime.ts: host":
    "the engine's serialized providers reach the host only as require('runpod-dynamic/runtime').providers[type] " +
    "with the engine's arguments, so what configure made is found again through this one holder " +
    "(provider/host/provider-host.ts)",
  "provider/client/pools.ts: globalThis":
    "the HTTP pool and default rate-limit budgets of clients made outside a provider host (programs, the CLI), " +
    "shared by every copy of the client module a process loads; a provider host's context brings its own budgets",
};

const COLLECTIONS = new Set(["Set", "Map", "WeakMap", "WeakSet"]);
const MUTATING_METHODS = new Set([
  "add",
  "set",
  "delete",
  "clear",
  "push",
  "pop",
  "shift",
  "unshift",
  "splice",
  "sort",
  "reverse",
  "fill",
  "copyWithin",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The expression under parentheses, `as`, `satisfies` and `!`. */
function unwrap(e: TS.Expression): TS.Expression {
  let x = e;
  while (
    ts.isParenthesizedExpression(x) ||
    ts.isAsExpression(x) ||
    ts.isSatisfiesExpression(x) ||
    ts.isNonNullExpression(x)
  ) {
    x = x.expression;
  }
  return x;
}

/** The identifier a property or element access chain starts from: `a` in `a.b[c].d`. */
function rootOf(e: TS.Expression): TS.Identifier | undefined {
  const x = unwrap(e);
  if (ts.isIdentifier(x)) return x;
  if (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) return rootOf(x.expression);
  return undefined;
}

const isAccess = (e: TS.Expression) =>
  ts.isPropertyAccessExpression(unwrap(e)) || ts.isElementAccessExpression(unwrap(e));

/** The identifiers whose value a node changes: `x.a = 1`, `x[k] ??= v`, `x.add(v)`, `delete x.a`, ... */
function mutatedRoots(node: TS.Node): TS.Identifier[] {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    const assigns = op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment;
    const root = assigns && isAccess(node.left) ? rootOf(node.left) : undefined;
    return root ? [root] : [];
  }
  if (
    (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
    (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) &&
    isAccess(node.operand)
  ) {
    const root = rootOf(node.operand);
    return root ? [root] : [];
  }
  if (ts.isDeleteExpression(node)) {
    const root = rootOf(node.expression);
    return root ? [root] : [];
  }
  if (ts.isCallExpression(node)) {
    const callee = unwrap(node.expression);
    if (ts.isPropertyAccessExpression(callee) && MUTATING_METHODS.has(callee.name.text)) {
      const root = rootOf(callee.expression);
      if (root) return [root];
    }
    const first = node.arguments[0];
    if (ts.isPropertyAccessExpression(callee) && callee.getText() === "Object.assign" && first) {
      const root = rootOf(first);
      if (root) return [root];
    }
  }
  return [];
}

type TopLevelKind = "collection" | "instance";

/** What `initializer` makes, when it is something that can hold state. */
function kindOf(initializer: TS.Expression | undefined): TopLevelKind | undefined {
  if (!initializer) return undefined;
  const x = unwrap(initializer);
  if (ts.isArrayLiteralExpression(x) || ts.isObjectLiteralExpression(x)) return "collection";
  if (ts.isNewExpression(x)) {
    return ts.isIdentifier(x.expression) && COLLECTIONS.has(x.expression.text) ? "collection" : "instance";
  }
  return undefined;
}

/** Every piece of module-level state in the files of `root`, as `file: name (what)`. */
function moduleState(root: string): string[] {
  const files = sourceFiles(root);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const name = (file: TS.SourceFile, what: string) =>
    `${relative(REPO_ROOT, file.fileName).split("\\").join("/")}: ${what}`;
  const resolve = (id: TS.Identifier): TS.Symbol | undefined => {
    const symbol = checker.getSymbolAtLocation(id);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };

  const found: string[] = [];
  const collections = new Map<TS.Symbol, string>();
  const sources = program.getSourceFiles().filter((f) => files.includes(f.fileName));
  for (const file of sources) {
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
      for (const d of statement.declarationList.declarations) {
        const what = d.name.getText(file);
        if (!constant) {
          found.push(name(file, `${what} (a top-level let)`));
          continue;
        }
        const kind = kindOf(d.initializer);
        if (kind === "instance") found.push(name(file, `${what} (an instance)`));
        const symbol = ts.isIdentifier(d.name) ? checker.getSymbolAtLocation(d.name) : undefined;
        if (kind === "collection" && symbol)
          collections.set(symbol, name(file, `${what} (changed at run time)`));
      }
    }
  }
  const mutated = new Set<string>();
  for (const file of sources) {
    const visit = (node: TS.Node): void => {
      if (ts.isIdentifier(node) && node.text === "globalThis") mutated.add(name(file, "globalThis"));
      for (const id of mutatedRoots(node)) {
        const symbol = resolve(id);
        const entry = symbol ? collections.get(symbol) : undefined;
        if (entry) mutated.add(entry);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return [...found, ...mutated].sort();
}

describe("module-level state in provider/", () => {
  const state = moduleState(SOURCE_ROOT);
  const allowed = (entry: string) =>
    Object.keys(ALLOWED).some((a) => entry.startsWith(`${a} `) || entry === a);

  it("is none, but for the listed exceptions", () => {
    expect(state.filter((s) => !allowed(s))).toEqual([]);
  });

  it("each exception is still there (a stale one is removed from the list)", () => {
    expect(Object.keys(ALLOWED).filter((a) => !state.some((s) => s === a || s.startsWith(`${a} `)))).toEqual(
      [],
    );
  });
});
