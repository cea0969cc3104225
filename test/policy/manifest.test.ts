/**
 * policy/package.json against the package's own: the pack is published and installed on its own
 * (`pulumi policy publish`, Pulumi Cloud's policy groups, a pack kept in its own folder), so its
 * dependencies are version ranges a registry resolves, and they must move with the package. In
 * this repository nothing is installed in policy/: the pack resolves every one of them from the
 * repository's node_modules (runpod-dynamic through the link .ci/link-self.cjs makes), so the
 * ranges below must admit exactly what the repository's tests run the pack with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/dist.js";

interface Manifest {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const read = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), "utf8")) as Manifest;
const pkg = read("package.json");
const pack = read("policy/package.json");

describe("policy/package.json", () => {
  it("has the package's version: a pack published with each release gets a new version", () => {
    expect(pack.version).toBe(pkg.version);
  });

  it.each([
    // The release the pack was copied out of and its minor line (0.x: a minor may break).
    ["runpod-dynamic", `^${pkg.version}`],
    // The range the package itself takes, so one copy serves the pack and runpod-dynamic.
    ["@pulumi/pulumi", pkg.dependencies?.["@pulumi/pulumi"]],
    // Patch releases only: keepSecretMarkers reads a private module of this version
    // (policy/secret-policies.ts).
    ["@pulumi/policy", `~${pkg.devDependencies?.["@pulumi/policy"]}`],
    // Without its own, the engine compiles the pack with TypeScript 3.8, which cannot parse it;
    // 6 rejects `moduleResolution: node` (deprecated there), which policy/tsconfig.json uses.
    ["typescript", `^${pkg.devDependencies?.typescript}`],
    // The pack reads files (node:fs) and type-checks against Node's declarations.
    ["@types/node", `^${pkg.devDependencies?.["@types/node"]}`],
  ])("takes %s at %s", (name, range) => {
    expect(pack.dependencies?.[name]).toBe(range);
  });

  it("depends on those and nothing else", () => {
    expect(Object.keys(pack.dependencies ?? {}).sort()).toEqual([
      "@pulumi/policy",
      "@pulumi/pulumi",
      "@types/node",
      "runpod-dynamic",
      "typescript",
    ]);
  });
});
