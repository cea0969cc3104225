/**
 * A release as users meet it: the rehearsal's artifacts (harness/release-rehearse.ts), built once
 * per run, served from 127.0.0.1 as the places a release publishes to (GitHub's release assets, a
 * package index, a Go module proxy), and commands run with no Node.js on the machine.
 */
import { execFile } from "node:child_process";
import { createReadStream, existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import { promisify } from "node:util";
import { archiveName, BUILD_PLATFORM } from "../../harness/plugin-executables.js";
import { PACK_FOLDER, policyPackArchiveName } from "../../harness/policy-pack-release.js";
import { quietEnv, requirePulumiCli } from "../../harness/pulumi-cli.js";
import { type Rehearsal, rehearseRelease } from "../../harness/release-rehearse.js";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/plugin/tokens.js";
import { oncePerRun } from "./once-per-run.js";
import { type Step, startScriptedServer } from "./scripted-server.js";
import { TIME_SCALE } from "./stack.js";

/** This checkout's release, rehearsed once for the whole run. */
export function rehearsal(): Promise<Rehearsal> {
  return oncePerRun("release-rehearsal", (dir) => rehearseRelease(join(dir, "release")));
}

/**
 * The release's policy pack as a team installs it: its archive unpacked into a folder of its own
 * and `npm ci` there (Pulumi's two packages from npmjs.org), once for the whole run. Resolves to
 * the folder `--policy-pack` takes.
 */
export function releasedPolicyPack(): Promise<string> {
  return oncePerRun("released-policy-pack", async (dir) => {
    const release = await rehearsal();
    await promisify(execFile)("tar", [
      "-xzf",
      join(release.dir, policyPackArchiveName(release.version)),
      "-C",
      dir,
    ]);
    const folder = join(dir, PACK_FOLDER);
    await promisify(execFile)("npm", ["ci", "--no-audit", "--no-fund"], {
      cwd: folder,
      maxBuffer: 16 * 1024 * 1024,
    });
    return folder;
  });
}

/** The path this machine's plugin archive is asked for at, in a served release folder. */
export const servedArchive = (release: Rehearsal) => `/${archiveName(BUILD_PLATFORM, release.version)}`;

/** A folder served read-only over HTTP on a loopback port, as a release's download location is. */
export interface ServedFolder {
  readonly url: string;
  /** The paths asked for so far, in order. */
  readonly asked: readonly string[];
  close(): Promise<void>;
}

const pathOf = (url: string) => decodeURIComponent(new URL(url, "http://x").pathname);

/** Each request answered with the file it names, or `/` with the folder's files as links (pip's --find-links reads those). */
function fileOf(dir: string): Step {
  return (req, res) => {
    const path = pathOf(req.url ?? "/");
    const file = join(dir, normalize(path));
    if (req.method === "GET" && path === "/") {
      const links = readdirSync(dir).map((name) => `<a href="/${encodeURIComponent(name)}">${name}</a>`);
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<html><body>${links.join("<br>")}</body></html>`);
    } else if (
      req.method !== "GET" ||
      !file.startsWith(dir) ||
      !existsSync(file) ||
      !statSync(file).isFile()
    ) {
      res.writeHead(404).end();
    } else {
      res.writeHead(200, { "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    }
  };
}

export async function serveFolder(dir: string): Promise<ServedFolder> {
  const server = await startScriptedServer(() => fileOf(dir));
  return {
    url: server.url,
    get asked() {
      return server.requests.map((r) => pathOf(r.url));
    },
    close: () => server.close(),
  };
}

/**
 * What sends the engine to `served` for the plugin, where the schema sends it to GitHub: Pulumi's
 * download-URL override (`<regexp>=<url>`), the archives at the folder's top as on a release.
 */
export function pluginDownloadOverride(served: ServedFolder): string {
  return `^${PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.")}=${served.url}`;
}

/**
 * The environment of a Pulumi command that may fetch the plugin from `served`, and reads no
 * RUNPOD_* variable of this process (the stack's config says where the API is).
 */
export function fetchingEnv(served: ServedFolder): Record<string, string> {
  return {
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
    PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: pluginDownloadOverride(served),
    RUNPOD_API_KEY: "",
    RUNPOD_BASE_URL: "",
    RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
  };
}

/**
 * The environment of a machine with Pulumi and no Node.js, for commands run `withoutNode`: the CLI's
 * folder (Pulumi's YAML language host is beside it) and the system's on PATH, a file backend and a
 * Pulumi home in `work`, the plugin fetched from `served`.
 */
export function machineWithoutNodeEnv(served: ServedFolder, work: string): Record<string, string> {
  return quietEnv({
    PATH: [requirePulumiCli().dir, "/usr/bin", "/bin"].join(":"),
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_HOME: join(work, "home"),
    PULUMI_CONFIG_PASSPHRASE: "runpod-dynamic-tests",
    ...fetchingEnv(served),
  });
}

/** Every `node` this machine has on its usual PATH, as real files. */
function nodeExecutables(): string[] {
  const found = ["/usr/bin/node", "/usr/local/bin/node", "/bin/node"].filter((f) => existsSync(f));
  return [...new Set(found.map((f) => realpathSync(f)))];
}

/**
 * `command args` in a mount namespace of its own where every `node` of the machine is an empty,
 * non-executable file: what a machine without Node.js is to the command and its children. Give it
 * a PATH without this run's own Node (.ci/vitest.sh puts one first).
 */
export function withoutNode(command: string, args: readonly string[]): [string, string[]] {
  const hide = nodeExecutables()
    .map((f) => `mount --bind /dev/null '${f}'`)
    .join(" && ");
  const script = `${hide} && if command -v node >/dev/null; then echo "node is still on PATH: $(command -v node)" >&2; exit 97; fi && exec "$@"`;
  return ["unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh", command, ...args]];
}

/** `command args` run `withoutNode` in `cwd` with `env`; a failure says what the command printed. */
export async function runWithoutNode(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env: Record<string, string> },
): Promise<{ stdout: string; stderr: string }> {
  const [file, wrapped] = withoutNode(command, args);
  try {
    return await promisify(execFile)(file, wrapped, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${[command, ...args].join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
    );
  }
}
