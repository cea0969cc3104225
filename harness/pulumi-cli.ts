/**
 * Where the real Pulumi CLI is: the one `harness/pulumi-cli/build.sh` built into
 * `.tools/pulumi/<version>/bin`, else a `pulumi` on PATH. The built one comes with the two plugin
 * shims the CLI's release archive carries (the dynamic-provider host and the Node policy-pack
 * launcher); a `pulumi` installed the usual way has them beside it already.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

/** The repository: the nearest folder above this file (source or compiled) with harness/pulumi-cli. */
export const REPO_ROOT = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "harness", "pulumi-cli", "go.mod"))) return dir;
  }
  throw new Error(`no harness/pulumi-cli/go.mod above ${__dirname}`);
})();

/** The CLI version the build script builds: the pkg/v3 version its go.mod requires. */
export const PINNED_PULUMI_VERSION = (() => {
  const mod = readFileSync(join(REPO_ROOT, "harness", "pulumi-cli", "go.mod"), "utf8");
  const match = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(mod);
  if (!match?.[1])
    throw new Error("harness/pulumi-cli/go.mod does not require github.com/pulumi/pulumi/pkg/v3");
  return match[1];
})();

export interface PulumiCli {
  /** The `pulumi` executable. */
  readonly bin: string;
  /** Its folder, which goes first on PATH so the CLI finds the shims next to it. */
  readonly dir: string;
  /** As `pulumi version` prints it, e.g. `v3.259.0`. */
  readonly version: string;
  readonly source: "built" | "PATH";
}

function onPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "pulumi");
    if (dir !== "" && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function versionOf(bin: string): string | undefined {
  try {
    return execFileSync(bin, ["version"], { encoding: "utf8", env: quietEnv() }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The CLI built here, else the one on PATH, else undefined. The built one's version is its
 * folder's: build.sh builds that version there (stamped with it) and checks it before it skips a
 * build, so it is not asked again here, where every command of every test would pay for a
 * `pulumi version`.
 */
export function findPulumiCli(): PulumiCli | undefined {
  const built = join(REPO_ROOT, ".tools", "pulumi", PINNED_PULUMI_VERSION, "bin", "pulumi");
  if (existsSync(built))
    return { bin: built, dir: dirname(built), version: PINNED_PULUMI_VERSION, source: "built" };
  const bin = onPath();
  const version = bin === undefined ? undefined : versionOf(bin);
  return bin !== undefined && version !== undefined
    ? { bin, dir: dirname(bin), version, source: "PATH" }
    : undefined;
}

/** The CLI, or an error that says how to get it. */
export function requirePulumiCli(): PulumiCli {
  const cli = findPulumiCli();
  if (cli) return cli;
  throw new Error(
    `No Pulumi CLI: run \`bash harness/pulumi-cli/build.sh\` (needs Go 1.26) to build ${PINNED_PULUMI_VERSION} into .tools/, or put pulumi on PATH.`,
  );
}

/** The environment every CLI run gets: no update check, no telemetry, nothing downloaded. */
export function quietEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    // Unless the caller asks the engine to fetch plugins (a test of a release's download location).
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION:
      process.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION ?? "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    ...extra,
  };
}

/** PATH with the CLI's folder first, so the engine finds the plugin shims beside it. */
export function pathWith(cli: PulumiCli): string {
  return [cli.dir, process.env.PATH ?? ""].join(delimiter);
}
