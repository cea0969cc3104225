/**
 * A release as users meet it: the rehearsal's artifacts (harness/release-rehearse.ts), built once
 * per run, served from 127.0.0.1 as the places a release publishes to (GitHub's release assets, a
 * package index, a Go module proxy), and commands run with no Node.js on the machine.
 */
import { createReadStream, existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import { type Rehearsal, rehearseRelease } from "../../harness/release-rehearse.js";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/plugin/tokens.js";
import { oncePerRun } from "./once-per-run.js";

/** This checkout's release, rehearsed once for the whole run. */
export function rehearsal(): Promise<Rehearsal> {
  return oncePerRun("release-rehearsal", (dir) => rehearseRelease(join(dir, "release")));
}

/** A folder served read-only over HTTP on a loopback port, as a release's download location is. */
export interface ServedFolder {
  readonly url: string;
  /** The paths asked for, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

export async function serveFolder(dir: string): Promise<ServedFolder> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    asked.push(path);
    const file = join(dir, normalize(path));
    if (req.method === "GET" && path === "/") {
      // The folder's files as links: what pip's --find-links reads from a URL.
      const links = readdirSync(dir).map((name) => `<a href="/${encodeURIComponent(name)}">${name}</a>`);
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<html><body>${links.join("<br>")}</body></html>`);
      return;
    }
    if (req.method !== "GET" || !file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What sends the engine to `served` for the plugin, where the schema sends it to GitHub: Pulumi's
 * download-URL override (`<regexp>=<url>`), the archives at the folder's top as on a release.
 */
export function pluginDownloadOverride(served: ServedFolder): string {
  return `^${PLUGIN_DOWNLOAD_URL.replace(/[.]/g, "\\.")}=${served.url}`;
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
