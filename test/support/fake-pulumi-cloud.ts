/**
 * The part of Pulumi Cloud's REST API that `pulumi login <url>` and `pulumi policy publish` use, on
 * a real HTTP server on 127.0.0.1:0, as Pulumi's CLI v3.259.0 calls it
 * (pkg/backend/httpstate/client): the token's user, then a policy pack's publication in three steps
 * (create the version, upload the `npm pack` tarball to the address the answer gives, mark it
 * complete). Every request is recorded, its body as bytes; a route it does not know answers 404.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface CloudRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Buffer;
}

export interface FakePulumiCloud {
  readonly url: string;
  readonly requests: readonly CloudRequest[];
  /** The policy pack publications created (the create request's JSON) and their uploaded tarballs. */
  readonly published: readonly {
    readonly request: Record<string, unknown>;
    tarball?: Buffer;
    complete: boolean;
  }[];
  close(): Promise<void>;
}

export async function startFakePulumiCloud(user: string, org: string): Promise<FakePulumiCloud> {
  const requests: CloudRequest[] = [];
  const published: { request: Record<string, unknown>; tarball?: Buffer; complete: boolean }[] = [];
  let base = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
      const answer = (status: number, value?: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(value === undefined ? "" : JSON.stringify(value));
      };
      const upload = /^\/upload\/(\d+)$/.exec(path);
      const complete = new RegExp(`^/api/orgs/${org}/policypacks/[^/]+/versions/[^/]+/complete$`).test(path);
      if (req.method === "GET" && path === "/api/user") {
        answer(200, { githubLogin: user, name: user, organizations: [{ githubLogin: org, name: org }] });
      } else if (req.method === "GET" && path === "/api/capabilities") {
        answer(200, { capabilities: [] });
      } else if (req.method === "POST" && path === `/api/orgs/${org}/policypacks`) {
        published.push({
          request: JSON.parse(body.toString("utf8")) as Record<string, unknown>,
          complete: false,
        });
        answer(200, { version: published.length, uploadURI: `${base}/upload/${published.length}` });
      } else if (req.method === "PUT" && upload) {
        const entry = published[Number(upload[1]) - 1];
        if (entry) entry.tarball = body;
        answer(entry ? 200 : 404);
      } else if (req.method === "POST" && complete) {
        const last = published.at(-1);
        if (last) last.complete = true;
        answer(last ? 204 : 404);
      } else {
        answer(404, { code: 404, message: `${req.method} ${path} is not served by the fake Pulumi Cloud` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    published,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
