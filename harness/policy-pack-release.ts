/**
 * The policy pack as a release artifact of its own, `runpod-policies-v<version>.tar.gz`: a folder
 * `runpod-policies/` that any project runs with `pulumi preview --policy-pack <folder>` and
 * publishes with `pulumi policy publish`, whatever language its program is in. The pack's code and
 * the provider's review code it shares (`runpod-dynamic/review`: the input checks, the estimate)
 * are bundled into one `index.js`, so the folder needs no runpod-dynamic from a registry and no
 * TypeScript; its package.json and lock name only `@pulumi/policy` and `@pulumi/pulumi`, at the
 * versions this repository tests the pack with, which `npm ci` installs from npmjs.org. The lock is
 * an npm-shrinkwrap.json, which `npm pack` keeps (it leaves a package-lock.json out): the tarball
 * `pulumi policy publish` uploads installs the same tree on every machine of a policy group. Why a
 * folder of its own: docs/decisions.md, "The policy pack as a release artifact".
 *
 *   node dist/harness/policy-pack-release.js <out-dir>
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { packageVersion } from "../provider/package-file.js";
import { NODE_BUNDLE } from "./plugin-executables.js";
import { REPO_ROOT } from "./pulumi-cli.js";

const run = promisify(execFile);

/** The folder the archive holds, and the pack's name (policy/pack.ts). */
export const PACK_FOLDER = "runpod-policies";

/** The packages the bundle leaves to the folder's node_modules: the policy server must be the pack's own. */
const LEFT_TO_NPM = ["@pulumi/policy", "@pulumi/pulumi"] as const;

export const policyPackArchiveName = (version: string) => `runpod-policies-v${version}.tar.gz`;

/** The version of `name` this repository installs (its package-lock), which the tests run the pack on. */
function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`package-lock.json does not lock ${name}`);
  return version;
}

/** policy/index.ts with everything it imports but {@link LEFT_TO_NPM}, as one CommonJS script. */
async function bundlePack(out: string): Promise<void> {
  await esbuild.build({
    ...NODE_BUNDLE,
    entryPoints: [join(REPO_ROOT, "policy", "index.ts")],
    outfile: out,
    external: LEFT_TO_NPM.flatMap((name) => [name, `${name}/*`]),
    // From source, so the artifact does not depend on how dist/ was last built.
    alias: { "runpod-dynamic/review": join(REPO_ROOT, "provider", "review.ts") },
  });
  const text = readFileSync(out, "utf8");
  // The pack is started in its own folder (the budget reads `pricesFile` from there); a file the
  // bundle would read beside the provider's code is not in the folder.
  if (/__dirname|import\.meta/.test(text)) {
    throw new Error("the bundled pack reads a file beside its code, which the released folder does not hold");
  }
}

/** The folder's package.json: the pack's name and version, its entry point, the two dependencies pinned. */
function manifest(version: string): string {
  const own = JSON.parse(readFileSync(join(REPO_ROOT, "policy", "package.json"), "utf8")) as {
    name: string;
    description: string;
    license: string;
  };
  return `${JSON.stringify(
    {
      name: own.name,
      version,
      description: own.description,
      license: own.license,
      main: "index.js",
      dependencies: Object.fromEntries(LEFT_TO_NPM.map((name) => [name, lockedVersion(name)])),
    },
    null,
    2,
  )}\n`;
}

/**
 * Builds `runpod-policies-v<version>.tar.gz` into `out`; resolves to its path. Writing the lock
 * asks the npm registry for the two dependencies' trees (npm's cache answers when it can).
 */
export async function buildPolicyPackArchive(out: string, version = packageVersion()): Promise<string> {
  const stage = mkdtempSync(join(out, ".policy-pack-"));
  try {
    const folder = join(stage, PACK_FOLDER);
    mkdirSync(folder);
    await bundlePack(join(folder, "index.js"));
    writeFileSync(join(folder, "package.json"), manifest(version));
    for (const file of ["PulumiPolicy.yaml", "README.md"]) {
      cpSync(join(REPO_ROOT, "policy", file), join(folder, file));
    }
    const npm = (args: string[]) => run("npm", args, { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
    await npm([
      "install",
      "--package-lock-only",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
    ]);
    await npm(["shrinkwrap"]);
    const archive = join(out, policyPackArchiveName(version));
    await run("tar", [
      "-czf",
      archive,
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "-C",
      stage,
      PACK_FOLDER,
    ]);
    return archive;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write("usage: node dist/harness/policy-pack-release.js <out-dir>\n");
    process.exit(2);
  }
  mkdirSync(out, { recursive: true });
  buildPolicyPackArchive(out).then(
    (archive) => process.stdout.write(`${archive}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
