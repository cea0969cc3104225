/**
 * Every TypeScript example runs through test/e2e (its dependencies installed, compiled by its own
 * tsconfig, then every phase): a new example without a test file here fails this instead of going
 * unchecked. examples/yaml and examples/python run on the provider plugin in test/plugin, and
 * examples/nodejs-sdk (a TypeScript program on the plugin's Node.js SDK, which only a release's
 * artifacts install) and examples/gitops-python in test/release.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLES_DIR } from "./phases.js";

/** TypeScript examples run on the provider plugin outside test/e2e, by the file that runs each. */
const ON_THE_PLUGIN: Record<string, string> = {
  "nodejs-sdk": join(__dirname, "..", "release", "nodejs-sdk.test.ts"),
};

const nodeExamples = readdirSync(EXAMPLES_DIR, { withFileTypes: true })
  .filter(
    (d) =>
      d.isDirectory() &&
      !d.name.startsWith(".") &&
      existsSync(join(EXAMPLES_DIR, d.name, "package.json")) &&
      !(d.name in ON_THE_PLUGIN),
  )
  .map((d) => d.name)
  .sort();

/**
 * The examples the e2e files run: `example: "<name>"` (example-suite.ts) or `exampleRun(emu, "<name>"`;
 * an example may have more than one file.
 */
const runByTests = readdirSync(__dirname)
  .filter((f) => f.endsWith(".test.ts"))
  .flatMap((f) => [
    ...readFileSync(join(__dirname, f), "utf8").matchAll(/(?:example: |exampleRun\(emu, )"([\w-]+)"/g),
  ])
  .map((m) => String(m[1]))
  .filter((name, i, all) => all.indexOf(name) === i)
  .sort();

describe("the examples", () => {
  it("each TypeScript example has an e2e run, and each e2e run an example", () => {
    expect(nodeExamples.length).toBeGreaterThan(0);
    expect(runByTests).toEqual(nodeExamples);
  });

  it("each example run on the plugin outside test/e2e is run by its file", () => {
    const unrun = Object.entries(ON_THE_PLUGIN).filter(
      ([name, file]) => !readFileSync(file, "utf8").includes(`join(REPO_ROOT, "examples", "${name}")`),
    );
    expect(unrun).toEqual([]);
  });
});
