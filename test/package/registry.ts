/**
 * A package registry in front of the public one, for installing what depends on runpod-dynamic
 * by version before that version is published: it answers runpod-dynamic's packument and tarball
 * itself (from a tarball `npm pack` made) and passes every other request to registry.npmjs.org.
 * npm points tarball downloads of the public registry at the `--registry` it was given, so those
 * pass through here too.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename } from "node:path";

const UPSTREAM = "https://registry.npmjs.org";

export interface LocalRegistry {
  /** For `npm install --registry <url>`; ends with a slash. */
  readonly url: string;
  /** Paths of the requests answered from the tarball, in order (npm may take the tarball from its cache). */
  readonly served: readonly string[];
  /** The tarball's `sha512-...` integrity, as the packument gives it and a lockfile records it. */
  readonly integrity: string;
  close(): Promise<void>;
}

/** What `npm pack` put in `manifest` (the packed package.json), as a registry publishes it. */
function packument(
  manifest: { name: string; version: string },
  tarball: Buffer,
  integrity: string,
  tarballUrl: string,
) {
  const shasum = createHash("sha1").update(tarball).digest("hex");
  return {
    _id: manifest.name,
    name: manifest.name,
    "dist-tags": { latest: manifest.version },
    versions: {
      [manifest.version]: {
        ...manifest,
        _id: `${manifest.name}@${manifest.version}`,
        dist: { tarball: tarballUrl, integrity, shasum },
      },
    },
  };
}

/** Passes one request to the public registry; its body arrives decoded, so no content-encoding. */
async function proxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const upstream = await fetch(`${UPSTREAM}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers: { accept: req.headers.accept ?? "*/*" },
  });
  const body = Buffer.from(await upstream.arrayBuffer());
  res.writeHead(upstream.status, {
    "content-type": upstream.headers.get("content-type") ?? "application/octet-stream",
    "content-length": body.length,
  });
  res.end(body);
}

/**
 * Starts the registry on 127.0.0.1, port 0, serving `tarballPath` (an `npm pack` output) under
 * the name and version of `manifest`.
 */
export async function startLocalRegistry(
  tarballPath: string,
  manifest: { name: string; version: string },
): Promise<LocalRegistry> {
  const tarball = readFileSync(tarballPath);
  const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
  const served: string[] = [];
  const tarballRoute = `/${manifest.name}/-/${basename(tarballPath)}`;
  let url = "";
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === `/${manifest.name}`) {
      served.push(path);
      const body = JSON.stringify(packument(manifest, tarball, integrity, `${url}${tarballRoute.slice(1)}`));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    } else if (path === tarballRoute) {
      served.push(path);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length });
      res.end(tarball);
    } else {
      proxy(req, res).catch((err: Error) => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`proxying ${path} to ${UPSTREAM} failed: ${err.message}`);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    served,
    integrity,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
