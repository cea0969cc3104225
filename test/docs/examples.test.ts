/**
 * Every resource's TypeScript example (its declaration's, shown in its class's docs, the reference
 * and the schema) type-checks against the built package as a program imports it, under the options
 * `pulumi new typescript` writes. The Python and Go examples are checked against their SDKs in
 * test/plugin/python.test.ts and test/plugin/go.test.ts.
 */
import { join } from "node:path";
import type * as TS from "typescript";
import { describe, expect, it } from "vitest";
import { loadDist, nodeRequire, REPO_ROOT } from "../support/dist.js";

const ts = nodeRequire("typescript") as typeof TS;
const { DECLARATIONS } = loadDist<typeof import("../../provider/resources/declarations.js")>(
  "provider/resources/declarations.js",
);

/** The compiler options of `pulumi new typescript`'s tsconfig.json (no esModuleInterop). */
const PULUMI_NEW: TS.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  experimentalDecorators: true,
  noFallthroughCasesInSwitch: true,
  noImplicitReturns: true,
  forceConsistentCasingInFileNames: true,
  noEmit: true,
  types: ["node"],
};

describe("the TypeScript examples of the declarations", { timeout: 60_000 }, () => {
  it("type-check against the built package", () => {
    // In memory, beside the repository's node_modules, where `runpod-dynamic` resolves to the build.
    const files = new Map(
      DECLARATIONS.flatMap((d) =>
        d.examples.map(
          (e, i) => [join(REPO_ROOT, "test", `example-${d.kind}-${i}.ts`), e.typescript] as const,
        ),
      ),
    );
    const host = ts.createCompilerHost(PULUMI_NEW);
    const { fileExists, readFile, getSourceFile } = host;
    host.fileExists = (f) => files.has(f) || fileExists.call(host, f);
    host.readFile = (f) => files.get(f) ?? readFile.call(host, f);
    host.getSourceFile = (f, language, ...rest) => {
      const text = files.get(f);
      return text !== undefined
        ? ts.createSourceFile(f, text, language)
        : getSourceFile.call(host, f, language, ...rest);
    };
    const program = ts.createProgram([...files.keys()], PULUMI_NEW, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file?.fileName.split("/").pop()}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    expect([files.size, errors]).toEqual([DECLARATIONS.length, []]);
  });
});
