/**
 * The shape of the sources (docs/architecture.md): no import cycle anywhere (madge over every
 * TypeScript source, type-only imports included), the emulator's store below its behaviour, and
 * no source file over 400 lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeRequire, REPO_ROOT } from "../support/dist.js";

/** What this test uses of madge's API (madge ships no types). */
interface MadgeResult {
  /** Each module's imports, by path from `baseDir`. */
  obj(): Record<string, string[]>;
  circular(): string[][];
  warnings(): { skipped: string[] };
}
const madge = nodeRequire("madge") as (paths: string[], config: object) => Promise<MadgeResult>;

const SOURCES = ["provider", "emulator", "cli", "policy", "harness", "bench"];
/** No source file of any of them is over this, so none may grow past it. */
const MAX_LINES = 400;
const EXCLUDED = /(^|\/)(node_modules|dist|results)(\/|$)/;

const graph = madge(
  SOURCES.map((dir) => join(REPO_ROOT, dir)),
  {
    baseDir: REPO_ROOT,
    fileExtensions: ["ts"],
    excludeRegExp: [EXCLUDED],
    detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
  },
);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: "utf8" })
    .map((file) => `${dir}/${file}`)
    .filter((file) => file.endsWith(".ts") && !EXCLUDED.test(file));
}

describe("the import graph", () => {
  it("reads every source, resolving every relative import", async () => {
    const result = await graph;
    const modules = Object.keys(result.obj());
    const expected = SOURCES.flatMap(sourceFiles);
    // A relative import madge could not resolve would drop its edges, hiding a cycle through them.
    const unresolved = result.warnings().skipped.filter((name) => name.startsWith("."));
    expect([modules.sort(), unresolved]).toEqual([expected.sort(), []]);
    expect(result.obj()["emulator/index.ts"]).toContain("emulator/platform/state.ts");
  });

  it("has no cycle", async () => {
    expect((await graph).circular()).toEqual([]);
  });

  // Stores sit below behaviour (moto's models under its responses): a module of a lower layer
  // imports nothing above it. The HTTP layer's leaf modules are parts the store holds.
  it.each([
    ["emulator/schemas/", ["emulator/schemas/"]],
    ["emulator/seed/", ["emulator/seed/", "emulator/schemas/"]],
    [
      "emulator/store/",
      [
        "emulator/store/",
        "emulator/seed/",
        "emulator/schemas/",
        "emulator/http/errors.ts",
        "emulator/http/faults.ts",
        "emulator/http/rate-limit.ts",
        "emulator/http/request-log.ts",
      ],
    ],
  ])("%s imports only from its layer and below", async (layer, allowed) => {
    const above = Object.entries((await graph).obj())
      .filter(([module]) => module.startsWith(layer))
      .flatMap(([module, imports]) =>
        imports.filter((i) => !allowed.some((a) => i.startsWith(a))).map((i) => `${module} -> ${i}`),
      );
    expect(above).toEqual([]);
  });
});

describe("file size", () => {
  it.each(SOURCES)(`no source file under %s/ is over ${MAX_LINES} lines`, (dir) => {
    const over = sourceFiles(dir)
      .map((file) => ({ file, lines: readFileSync(join(REPO_ROOT, file), "utf8").split("\n").length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
