/**
 * The provider plugin as a release asset: a folder with `pulumi-resource-runpod-dynamic` at its top
 * (what `pulumi plugin install resource runpod-dynamic <version> --file <asset>` looks for) and the
 * packed package installed beside it with its dependencies, archived as a .tar.gz. The plugin is
 * JavaScript: one asset serves every platform that has Node 22 or later on PATH.
 *
 *   node dist/harness/plugin-asset.js <packed runpod-dynamic .tgz> <out .tar.gz>
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { packCheckout } from "./pack.js";
import { REPO_ROOT } from "./pulumi-cli.js";

const run = promisify(execFile);

/** The executable's name, as the engine looks for it. */
export const PLUGIN_EXECUTABLE = "pulumi-resource-runpod-dynamic";

const LAUNCHER = `#!/bin/sh
# The runpod-dynamic provider plugin: its package is installed under node_modules beside this file.
exec node "$(dirname "$0")/node_modules/runpod-dynamic/dist/provider/plugin/main.js" "$@"
`;

/** Builds the asset from a packed tarball into `out`; resolves to `out`. */
export async function buildPluginAsset(tarball: string, out: string): Promise<string> {
  const staging = mkdtempSync(join(tmpdir(), "runpod-plugin-asset-"));
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        staging,
        "--omit=dev",
        "--no-audit",
        "--no-fund",
        "--no-save",
        resolve(tarball),
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    writeFileSync(join(staging, PLUGIN_EXECUTABLE), LAUNCHER);
    chmodSync(join(staging, PLUGIN_EXECUTABLE), 0o755);
    await run("tar", ["-czf", resolve(out), "-C", staging, "."]);
    return resolve(out);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The asset of this checkout, as a release makes it, in a scratch folder `dispose` removes. */
export interface PackedPlugin {
  /** The packed package (`npm pack`). */
  readonly tarball: string;
  /** The .tar.gz to install with `pulumi plugin install resource runpod-dynamic <version> --file`. */
  readonly file: string;
  /** The package's version: the plugin's. */
  readonly version: string;
  dispose(): void;
}

/** `npm pack` of this built checkout (no build again: `--ignore-scripts`), made into the asset. */
export async function packPluginAsset(): Promise<PackedPlugin> {
  const dir = mkdtempSync(join(tmpdir(), "runpod-plugin-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const tarball = await packCheckout(dir);
    const file = await buildPluginAsset(tarball, join(dir, `${PLUGIN_EXECUTABLE}-v${version}.tar.gz`));
    return { tarball, file, version, dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

if (require.main === module) {
  const [tarball, out] = process.argv.slice(2);
  if (!tarball || !out) {
    process.stderr.write("usage: node dist/harness/plugin-asset.js <packed .tgz> <out .tar.gz>\n");
    process.exit(2);
  }
  buildPluginAsset(tarball, out).then(
    (file) => process.stdout.write(`${file}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
