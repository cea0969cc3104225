/**
 * HTTP wiring: three listeners on 127.0.0.1 (base_url, rest_url, serverless_url), one route table
 * each, and the one path every request takes: read the body (413 first where the contract says
 * so), apply fault rules, authenticate, count against the user's quota, parse JSON, run the
 * handler, translate errors to problem+json, log. A `/v1` path on rest_url is answered 410 at
 * once (retired-v1.ts). Nothing a client sends can crash it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ANONYMOUS_ACCOUNT, actingAccount, userOf } from "../account/accounts.js";
import { HttpError } from "../http/errors.js";
import {
  type CompiledRoute,
  compile,
  type Method,
  matchRoute,
  type Reply,
  type RouteTable,
  type StreamSink,
  type Surface,
} from "../http/routing.js";
import type { Store } from "../store/store.js";
import { retiredV1 } from "./retired-v1.js";

const DEFAULT_MAX_BODY = 1024 * 1024;
/** The quota anonymous requests share (public routes only; no user id is ever this). */
const ANONYMOUS_QUOTA_KEY = "\u0000anonymous";
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

interface Listener {
  readonly surface: Surface;
  readonly url: string;
  readonly server: Server;
}

type ControlHandler = (
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
) => Reply | Promise<Reply>;

export async function listen(
  state: Store,
  table: RouteTable,
  options: { host: string; ports: Partial<Record<Surface, number>>; control?: ControlHandler | undefined },
): Promise<Listener[]> {
  const listeners: Listener[] = [];
  for (const surface of ["v2", "rest", "serverless"] as const) {
    const routes = (table[surface] ?? []).map(compile);
    const control = surface === "v2" ? options.control : undefined;
    const server = createServer((req, res) => {
      handle(state, surface, routes, control, req, res).catch((err: unknown) => {
        // Last resort: an answer is always sent.
        writeProblem(
          res,
          new HttpError(500, `internal emulator error: ${err instanceof Error ? err.message : String(err)}`),
          {},
        );
      });
    });
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.ports[surface] ?? 0, options.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    listeners.push({ surface, url: `http://${options.host}:${port}`, server });
  }
  return listeners;
}

async function handle(
  state: Store,
  surface: Surface,
  routes: readonly CompiledRoute[],
  control: ControlHandler | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://emulator");
  const method = (req.method ?? "GET").toUpperCase();
  const path = url.pathname;

  if (control && path.startsWith("/__emulator/")) {
    const raw = await readBody(req, DEFAULT_MAX_BODY * 8);
    let body: unknown;
    try {
      body = raw.tooLarge || raw.bytes.length === 0 ? undefined : JSON.parse(raw.bytes.toString("utf8"));
    } catch {
      writeProblem(res, new HttpError(400, "control plane: malformed JSON body"), {});
      return;
    }
    try {
      writeReply(res, await control(method, path, url.searchParams, body), {});
    } catch (err) {
      writeProblem(res, toHttpError(err), {});
    }
    return;
  }

  // rest_url served REST v1 alone, which RunPod retired: a `/v1` path is gone for every caller,
  // so it is answered before faults, authentication and quota, whatever the method.
  const retired = surface === "rest" ? retiredV1(method, path) : undefined;
  const match = METHODS.has(method) ? matchRoute(routes, method, path) : undefined;
  const route = match && "route" in match ? match.route : undefined;
  const routeName = route
    ? `${method} ${route.pattern}`
    : retired
      ? `${method} (retired REST v1)`
      : `${method} (unmatched)`;
  const log = (status: number, fault?: number) =>
    state.log.add({
      at: state.now(),
      method,
      route: routeName,
      path,
      status,
      surface,
      ...(fault === undefined ? {} : { fault }),
    });

  const limit = route?.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const raw = await readBody(req, limit);
  let headers: Record<string, string> = {};
  const fail = (err: HttpError, fault?: number) => {
    writeProblem(res, err, headers);
    log(err.status, fault);
  };

  if (retired) {
    fail(retired);
    return;
  }

  if (raw.tooLarge && route?.sizeBeforeAuth) {
    fail(new HttpError(413, `The request body is ${raw.size} bytes, over the ${limit}-byte limit.`));
    return;
  }

  const fault = state.faults.match(method, path, () => state.random());
  if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
  if (fault?.reset === "before") {
    req.socket.destroy();
    log(0, fault.rule);
    return;
  }
  if (fault?.status) {
    fail(
      new HttpError(
        fault.status,
        fault.status === 429 ? "Rate limit exceeded (injected)." : "Injected upstream failure.",
        undefined,
        fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) },
      ),
      fault.rule,
    );
    return;
  }

  const auth = req.headers.authorization;
  const token = /^Bearer\s+(\S+)$/i.exec(auth ?? "")?.[1];
  const anonymous = auth === undefined && route?.auth === "optional";
  if (!anonymous && (!token || !state.apiKeys.has(token))) {
    fail(
      new HttpError(
        401,
        token ? "The API key is invalid or expired." : "Missing bearer token in the Authorization header.",
      ),
    );
    return;
  }

  try {
    // The windows are the user's, whichever of their keys is used; a rate-limit-exempt caller has
    // no quota and gets no RateLimit headers (docs/api-model.md, Limits).
    const exempt = !anonymous && state.apiKeys.get(token ?? "")?.rateLimitExempt === true;
    const quotaUser = anonymous ? ANONYMOUS_QUOTA_KEY : userOf(state, token ?? "");
    headers = exempt ? {} : state.limiter.take(quotaUser, state.now());
  } catch (err) {
    const e = toHttpError(err);
    headers = { ...e.headers };
    fail(e);
    return;
  }

  if (!route) {
    if (match && "allowed" in match) {
      headers = { ...headers, allow: [...new Set(match.allowed)].join(", ") };
      fail(new HttpError(405, `${method} is not allowed on ${path}.`));
    } else {
      fail(new HttpError(404, `No route for ${method} ${path}.`));
    }
    return;
  }
  if (raw.tooLarge) {
    fail(new HttpError(413, `The request body is ${raw.size} bytes, over the ${limit}-byte limit.`));
    return;
  }

  let body: unknown;
  if (raw.bytes.length > 0) {
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
      fail(new HttpError(415, `Expected Content-Type application/json, got ${type || "none"}.`));
      return;
    }
    try {
      body = JSON.parse(raw.bytes.toString("utf8"));
    } catch {
      fail(new HttpError(400, "The request body is not valid JSON."));
      return;
    }
  }

  let reply: Reply;
  try {
    reply = await route.handler({
      state,
      method: method as Method,
      path,
      params: match && "params" in match ? match.params : {},
      query: url.searchParams,
      body,
      headers: req.headers,
      apiKey: anonymous ? "" : (token ?? ""),
      account: anonymous ? ANONYMOUS_ACCOUNT : actingAccount(state, token ?? "", teamHeader(req)),
      now: state.now(),
    });
  } catch (err) {
    fail(toHttpError(err), fault?.rule);
    return;
  }
  if (fault?.reset === "after") {
    // The change took effect; the client never hears about it.
    req.socket.destroy();
    log(0, fault.rule);
    return;
  }
  writeReply(res, reply, headers);
  log(reply.status, fault?.rule);
}

/** The `X-Team-Id` header's value (the first, if sent twice). */
function teamHeader(req: IncomingMessage): string | undefined {
  const value = req.headers["x-team-id"];
  return Array.isArray(value) ? value[0] : value;
}

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  return new HttpError(500, `internal emulator error: ${err instanceof Error ? err.message : String(err)}`);
}

/** The body's bytes as received, unless there are more than `limit` of them; `size` counts them all. */
async function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ bytes: Buffer; size: number; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      tooLarge = true;
      continue; // drain, keep nothing
    }
    chunks.push(buf);
  }
  return { bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), size, tooLarge };
}

function writeReply(res: ServerResponse, reply: Reply, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const all = { ...headers, ...reply.headers };
  if (reply.stream) {
    res.writeHead(reply.status, all);
    res.flushHeaders();
    reply.stream(sinkOf(res));
    return;
  }
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, all);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { "content-type": "application/json", ...all });
  res.end(text);
}

function sinkOf(res: ServerResponse): StreamSink {
  let closed = false;
  const listeners: (() => void)[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const l of listeners.splice(0)) l();
  };
  res.on("close", close);
  return {
    write: (text) => {
      if (!closed && !res.destroyed) res.write(text);
    },
    end: () => {
      if (!closed && !res.destroyed) res.end();
      close();
    },
    get closed() {
      return closed;
    },
    onClose: (listener) => {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}

function writeProblem(res: ServerResponse, err: HttpError, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(err.status, { ...headers, ...err.headers, "content-type": "application/problem+json" });
  res.end(JSON.stringify(err.body()));
}
