/**
 * A real HTTP server on 127.0.0.1:0 that answers each attempt from a script ("500, then 200"),
 * the way stripe-node's and undici's retry tests do. Requests are recorded with their headers.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
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

/** A pod as `GET /v2/pods/:id` answers it: RUNNING in US-KS-2 on one A40; `extra` overrides fields. */
export const podBody = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: "trainer",
  status: "RUNNING",
  actions: ["stop", "terminate"],
  image: "img:1",
  args: "",
  disk: 20,
  mounts: {},
  ports: [],
  env: {},
  registry: null,
  gpu: { id: "NVIDIA A40", count: 1, vcpuCount: 9, memory: 50 },
  cloud: "SECURE",
  dataCenterId: "US-KS-2",
  cudaVersion: "12.4",
  ssh: { proxy: null, direct: null },
  template: null,
  cost: 0.44,
  locked: false,
  globalNetworking: { enabled: false },
  runtime: null,
  createdAt: "2026-11-21T00:00:00Z",
  startedAt: "2026-11-21T00:00:05Z",
  ...extra,
});

export interface EchoProxy {
  readonly url: string;
  /** The requests answered with an echo so far. */
  readonly echoed: RecordedRequest[];
  /**
   * The next `times` (default 1) requests matching `method` and `path` are not forwarded: they are
   * answered with a problem whose detail quotes the request's Authorization header and body, as a
   * gateway that echoes what it refused would.
   */
  echo(rule: { method: string; path: RegExp; status: number; times?: number }): void;
  close(): Promise<void>;
}

/** A proxy in front of `target` (an origin) that forwards every request as it is, unless told to echo. */
export async function startEchoProxy(target: string): Promise<EchoProxy> {
  const upstream = new URL(target);
  const echoed: RecordedRequest[] = [];
  const rules: { method: string; path: RegExp; status: number; times: number }[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    const rule = rules.find((r) => r.times > 0 && r.method === req.method && r.path.test(path));
    if (!rule) {
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => req.socket.destroy());
      req.pipe(forward);
      return;
    }
    rule.times -= 1;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      echoed.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const detail = `upstream refused ${req.method} ${path} sent with authorization '${req.headers.authorization ?? ""}' and body '${body}'`;
      problem(rule.status, "Echoed", detail)(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    echoed,
    echo: (rule) => {
      rules.push({ ...rule, times: rule.times ?? 1 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
