/**
 * Every artifact of a release, built from this checkout into one folder, as the release workflow
 * builds them from a tag (.github/workflows/release.yml; docs/releases.md, "What a release holds"):
 *
 *   pulumi-resource-runpod-dynamic-v<version>-<os>-<arch>.tar.gz   the plugin, one per platform
 *   pulumi_runpod_dynamic-<version>-py3-none-any.whl and .tar.gz   the Python SDK, wheel and sdist
 *   runpod-dynamic-<version>.tgz                                    the npm package
 *   runpod-dynamic-pulumi-<version>.tgz                             the Node.js SDK (@runpod-dynamic/pulumi)
 *   runpod-policies-v<version>.tar.gz                               the policy pack, a folder of its own
 *   goproxy/                                                        the Go SDK as the module proxy serves it
 *   SHA256SUMS                                                      every file above
 *
 * The folder is what a release publishes: its files are the GitHub release's assets (where the
 * schema's download location sends the engine), the wheel and sdist go to PyPI, the .tgz files to
 * npm, and goproxy/ is what the tag `sdk/go/v<version>` gives `go get`.
 *
 *   npm run release:rehearse [-- <out>]      (default: .tools/release/v<version>)
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { packageVersion } from "../provider/package-file.js";
import { packCheckout } from "./pack.js";
import { buildPluginExecutables } from "./plugin-executables.js";
import { buildPolicyPackArchive } from "./policy-pack-release.js";
import { REPO_ROOT } from "./pulumi-cli.js";

const run = promisify(execFile);
const BIG = { maxBuffer: 64 * 1024 * 1024 };

/** The Python build frontend the wheel and sdist are made with, pinned. */
const PYTHON_BUILD = "build==1.6.1";

/** The Go SDK's module folder, and the tag prefix a module in a subfolder is versioned by. */
export const GO_MODULE_DIR = "sdk/go";

/** What a rehearsal wrote. */
export interface Rehearsal {
  readonly dir: string;
  readonly version: string;
  /** The Go module proxy's folder. */
  readonly goproxy: string;
  /** Every file but goproxy's, by name, with its size. */
  readonly files: Record<string, number>;
}

/** A virtual environment with the Python build frontend, kept in .tools between builds. */
async function pythonBuild(): Promise<string> {
  const venv = join(REPO_ROOT, ".tools", "python-build", PYTHON_BUILD.replace("==", "-"));
  const python = join(venv, "bin", "python");
  if (!existsSync(python)) {
    await run("python3", ["-m", "venv", venv]);
    await run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYTHON_BUILD], BIG);
  }
  return python;
}

/** The Python SDK's wheel and sdist, built from a copy (the build writes beside its sources). */
async function pythonPackages(out: string, stage: string): Promise<void> {
  const sources = join(stage, "python");
  cpSync(join(REPO_ROOT, "sdk", "python"), sources, { recursive: true });
  await run(await pythonBuild(), ["-m", "build", "--sdist", "--wheel", "--outdir", out, sources], BIG);
}

/** The Node.js SDK compiled as Pulumi's packages are (tsc into bin/), packed from bin/. */
async function nodeSdkPackage(out: string, stage: string): Promise<void> {
  const sources = join(stage, "nodejs");
  cpSync(join(REPO_ROOT, "sdk", "nodejs"), sources, { recursive: true });
  // The SDK compiles against the @pulumi/pulumi and TypeScript this repository installs.
  symlinkSync(join(REPO_ROOT, "node_modules"), join(sources, "node_modules"), "dir");
  await run(
    process.execPath,
    [join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", sources],
    BIG,
  );
  const bin = join(sources, "bin");
  const pkg = JSON.parse(readFileSync(join(sources, "package.json"), "utf8")) as Record<string, unknown>;
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync(join(bin, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  cpSync(join(sources, "README.md"), join(bin, "README.md"));
  await run("npm", ["pack", "--ignore-scripts", "--pack-destination", out], { ...BIG, cwd: bin });
}

/** The Go SDK in a module proxy's layout, at `v<version>` (harness/go-module-proxy). */
async function goModule(version: string, goproxy: string): Promise<void> {
  await run("go", ["run", ".", join(REPO_ROOT, GO_MODULE_DIR), `v${version}`, goproxy], {
    ...BIG,
    cwd: join(REPO_ROOT, "harness", "go-module-proxy"),
    env: { ...process.env, GOFLAGS: "-mod=mod" },
  });
}

/** Builds every artifact into `out` (emptied first). */
export async function rehearseRelease(out: string): Promise<Rehearsal> {
  const version = packageVersion();
  const dir = resolve(out);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const stage = mkdtempSync(join(dir, ".stage-"));
  const goproxy = join(dir, "goproxy");
  try {
    await buildPluginExecutables(dir);
    await packCheckout(dir);
    await buildPolicyPackArchive(dir, version);
    await pythonPackages(dir, stage);
    await nodeSdkPackage(dir, stage);
    await goModule(version, goproxy);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  const files: Record<string, number> = {};
  const sums: string[] = [];
  for (const name of names) {
    const data = readFileSync(join(dir, name));
    files[name] = data.length;
    sums.push(`${createHash("sha256").update(data).digest("hex")}  ${name}`);
  }
  writeFileSync(join(dir, "SHA256SUMS"), `${sums.join("\n")}\n`);
  return { dir, version, goproxy, files };
}

if (require.main === module) {
  const out = process.argv[2] ?? join(REPO_ROOT, ".tools", "release", `v${packageVersion()}`);
  const started = Date.now();
  rehearseRelease(out).then(
    (r) => {
      for (const [name, bytes] of Object.entries(r.files)) {
        process.stdout.write(`${(bytes / 1e6).toFixed(1).padStart(7)} MB  ${name}\n`);
      }
      process.stdout.write(
        `${r.goproxy}: the Go module at v${r.version} (tag ${GO_MODULE_DIR}/v${r.version})\n`,
      );
      process.stdout.write(
        `release v${r.version} rehearsed into ${r.dir} in ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
