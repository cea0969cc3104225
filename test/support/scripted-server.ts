/**
 * A real HTTP server on 127.0.0.1:0 that answers each attempt from a script ("500, then 200"),
 * the way stripe-node's and undici's retry tests do. Requests are recorded with their headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export type Step = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface ScriptedServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(
  script: readonly Step[] | ((n: number) => Step),
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const n = requests.length;
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const step = typeof script === "function" ? script(n) : script[Math.min(n, script.length - 1)];
      if (!step) throw new Error("empty script");
      step(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

export const problem =
  (
    status: number,
    title: string,
    detail: string,
    errors?: string[],
    headers: Record<string, string> = {},
  ): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/problem+json", ...headers });
    res.end(JSON.stringify({ title, status, detail, ...(errors ? { errors } : {}) }));
  };

export const raw =
  (status: number, contentType: string, text: string): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": contentType });
    res.end(text);
  };

/** Drops the connection without answering (a reset after the request was sent). */
export const reset: Step = (req) => {
  req.socket.destroy();
};

/** Sends headers and part of a body, then never finishes. */
export const hang: Step = (_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"id":');
};
