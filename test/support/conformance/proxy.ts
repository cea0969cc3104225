/**
 * A recording, validating proxy in front of the emulator: one node:http server on 127.0.0.1 port 0
 * per upstream address, forwarding every request as it came and every answer as it comes (streamed,
 * so a server-sent event stream passes through), and recording each exchange once its answer ended,
 * before the client sees that end.
 *
 * What is validated against the v2 description depends on the address:
 * - base_url: every request whose path is one of the description's; the rest (the hub's GraphQL)
 *   is recorded as not in the description.
 * - rest_url: the legacy `/v1` routes, which the v2 description does not cover: recorded, not
 *   validated (docs/api-differences.md).
 * - serverless_url: the job routes (`/v2/{endpoint_id}/run|runsync|status/{job_id}`), which the
 *   description does not cover at all: recorded, not validated.
 */
import { createServer, request as forward, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { emulatorRouteName, type Surface } from "./emulator-routes.js";
import type {
  AnswerRecord,
  DescriptionValidator,
  OperationMatch,
  RequestRecord,
  Violation,
} from "./validator.js";

/**
 * `validated`: checked against the description. `legacy-v1`: a `/v1` route on rest_url.
 * `not-in-description`: base_url or serverless_url routes the description has no path for.
 */
export type ExchangeKind = "validated" | "legacy-v1" | "not-in-description";

export interface Exchange {
  readonly surface: Surface;
  readonly kind: ExchangeKind;
  /** The operationId when validated; otherwise the emulator's route (`POST /graphql`) or `METHOD path`. */
  readonly key: string;
  readonly method: string;
  /** Path and query string, as sent. */
  readonly url: string;
  /** 0 when no answer came (the connection broke). */
  readonly status: number;
  readonly violations: readonly Violation[];
}

export interface ConformanceProxy {
  readonly baseUrl: string;
  readonly restUrl: string;
  readonly serverlessUrl: string;
  /** Every finished exchange, in the order the answers ended. */
  readonly exchanges: readonly Exchange[];
  /** Resolves once no exchange is under way (all recorded). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface Upstream {
  readonly baseUrl: string;
  readonly restUrl: string;
  readonly serverlessUrl: string;
}

/** Headers that belong to one connection, not to the message: never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "host",
]);

function lowerCaseHeaders(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function forwardable(headers: IncomingMessage["headers"]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) out[k] = v;
  return out;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

interface Classified {
  readonly kind: ExchangeKind;
  readonly key: string;
  readonly match: OperationMatch | undefined;
  readonly requestViolations: readonly Violation[];
}

function classify(surface: Surface, validator: DescriptionValidator, req: RequestRecord): Classified {
  const route = () => emulatorRouteName(surface, req.method, req.path) ?? `${req.method} ${req.path}`;
  if (surface === "rest") return { kind: "legacy-v1", key: route(), match: undefined, requestViolations: [] };
  if (surface === "serverless") {
    return { kind: "not-in-description", key: route(), match: undefined, requestViolations: [] };
  }
  const check = validator.validateRequest(req);
  switch (check.kind) {
    case "undescribed":
      return { kind: "not-in-description", key: route(), match: undefined, requestViolations: [] };
    case "method-not-described":
      return {
        kind: "validated",
        key: check.operation,
        match: undefined,
        requestViolations: check.violations,
      };
    case "described":
      return {
        kind: "validated",
        key: check.operation.operationId,
        match: check.operation,
        requestViolations: check.violations,
      };
  }
}

/**
 * A success answer to a request whose body the description refuses: the service answers such a
 * body 422 (docs/api-model.md, Errors), so the emulator accepting it is a violation of its own.
 */
function acceptedAnyway(
  operation: string,
  requestViolations: readonly Violation[],
  status: number,
): Violation[] {
  const refused = requestViolations.filter(
    (v) => v.pointer.startsWith("/body") || v.pointer === "/headers/content-type",
  ).length;
  if (refused === 0 || status < 200 || status > 299) return [];
  return [
    {
      operation,
      direction: "answer",
      pointer: "/status",
      message: `${status} to a request whose body the description refuses (${refused} violation(s) above); the service answers 422`,
    },
  ];
}

/** Starts one proxy listener per upstream address. */
export async function startConformanceProxy(
  upstream: Upstream,
  validator: DescriptionValidator,
): Promise<ConformanceProxy> {
  const exchanges: Exchange[] = [];
  let underWay = 0;
  let idle: (() => void)[] = [];
  const begin = () => {
    underWay += 1;
  };
  const done = () => {
    underWay -= 1;
    if (underWay === 0) for (const wake of idle.splice(0)) wake();
  };
  const targets: [Surface, string][] = [
    ["base", upstream.baseUrl],
    ["rest", upstream.restUrl],
    ["serverless", upstream.serverlessUrl],
  ];
  const servers: Server[] = [];
  const urls: Partial<Record<Surface, string>> = {};

  for (const [surface, target] of targets) {
    const server = createServer((req, res) => {
      begin();
      void (async () => {
        const bodyBytes = await readAll(req);
        const url = new URL(req.url ?? "/", "http://proxy");
        const record: RequestRecord = {
          method: (req.method ?? "GET").toUpperCase(),
          path: url.pathname,
          query: url.search.slice(1),
          headers: lowerCaseHeaders(req.headers),
          body: bodyBytes.toString("utf8"),
        };
        const classified = classify(surface, validator, record);
        let finished = false;
        const finish = (status: number, answerViolations: readonly Violation[]) => {
          if (finished) return;
          finished = true;
          exchanges.push({
            surface,
            kind: classified.kind,
            key: classified.key,
            method: record.method,
            url: req.url ?? "/",
            status,
            violations: [...classified.requestViolations, ...answerViolations],
          });
          done();
        };

        const outgoing = forward(`${target}${req.url ?? "/"}`, {
          method: record.method,
          headers: forwardable(req.headers),
        });
        outgoing.on("response", (answer) => {
          res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
          // An event stream may send nothing for a while: the client gets the status at once.
          res.flushHeaders();
          const chunks: Buffer[] = [];
          let recorded = false;
          // Once per exchange: when the answer ended, or when it broke off (a client that left an
          // event stream), with what came until then.
          const record = (complete: boolean) => {
            if (recorded) return;
            recorded = true;
            const status = answer.statusCode ?? 0;
            const received: AnswerRecord = {
              status,
              headers: lowerCaseHeaders(answer.headers),
              body: Buffer.concat(chunks).toString("utf8"),
              complete,
            };
            finish(
              status,
              classified.match
                ? [
                    ...validator.validateAnswer(classified.match, received),
                    ...acceptedAnyway(classified.key, classified.requestViolations, status),
                  ]
                : [],
            );
          };
          answer.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            res.write(chunk);
          });
          answer.on("end", () => {
            record(true);
            res.end();
          });
          answer.on("close", () => {
            if (recorded) return;
            record(false);
            res.destroy();
          });
          // A broken-off answer also emits an error; "close" above records it.
          answer.on("error", () => undefined);
        });
        outgoing.on("error", () => {
          // The emulator dropped the connection (an injected reset): drop the client's too.
          finish(0, []);
          req.socket.destroy();
        });
        // A client that gives up (an aborted event stream) ends the upstream request as well.
        res.on("close", () => {
          if (!res.writableFinished) outgoing.destroy();
        });
        outgoing.end(bodyBytes);
      })().catch(() => {
        done();
        req.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    urls[surface] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
  }

  return {
    baseUrl: urls.base ?? "",
    restUrl: urls.rest ?? "",
    serverlessUrl: urls.serverless ?? "",
    exchanges,
    settled: () =>
      underWay === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            idle = [...idle, resolve];
          }),
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}
