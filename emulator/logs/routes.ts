/**
 * Log streams as server-sent events (v2 description: getPodLogs, getWorkerLogs):
 * `GET /v2/pods/{id}/logs` and `GET /v2/serverless/{id}/workers/{workerId}/logs` on base_url.
 *
 * Each event is `id: <ts>` and `data: {"source","line","ts"}`, `ts` an RFC 3339 time with
 * milliseconds that is unique within one log, so it is also the resume cursor. Backfill first:
 * with `Last-Event-ID` the lines after it; else with `since` the lines at or after it; else the
 * last `tail` lines (default 100, 0 for none, at most 5000). `source` (container or system) keeps
 * one source. Then the stream stays open and sends each new line as the emulator clock reaches it,
 * until the client goes away; a pod's stream ends once the pod is terminated and its last lines
 * are sent, a worker's when its endpoint is deleted.
 *
 * A pod's lines come from its boots (pods/containers.ts); a worker's from the jobs it ran.
 */

import { notFound, unprocessable } from "../http/errors.js";
import type { Reply, RouteContext, RouteTable, StreamSink } from "../http/routing.js";
import { type LogLine, type LogSource, podLog } from "../pods/containers.js";
import { findPod } from "../pods/lifecycle.js";
import { isDateTime } from "../schemas/billing.js";
import { findEndpoint, requireEndpoint } from "../serverless/endpoints.js";
import { workerLog } from "../serverless/worker-log.js";
import { workerIdFor } from "../serverless/workers.js";

const DEFAULT_TAIL = 100;
const MAX_TAIL = 5000;
/** How often (real ms) an open stream looks for lines the emulator clock has reached. */
const POLL_MS = 20;

interface LogQuery {
  source: LogSource | undefined;
  /** Lines strictly after this time (Last-Event-ID), or at or after it (since). */
  after: number | undefined;
  from: number | undefined;
  tail: number;
}

function logQuery(ctx: RouteContext): LogQuery {
  const errors: string[] = [];
  const source = ctx.query.get("source");
  if (source !== null && source !== "container" && source !== "system") {
    errors.push('query.source: expected one of "container", "system"');
  }
  const tailRaw = ctx.query.get("tail");
  const tail = tailRaw === null ? DEFAULT_TAIL : Number(tailRaw);
  if (tailRaw !== null && (!/^\d+$/.test(tailRaw) || tail > MAX_TAIL)) {
    errors.push(`query.tail: expected an integer from 0 to ${MAX_TAIL}`);
  }
  const time = (raw: string | null, name: string) => {
    if (raw === null) return undefined;
    if (!isDateTime(raw)) {
      errors.push(`${name}: expected an RFC 3339 date-time, as the stream's event ids are`);
      return undefined;
    }
    return Date.parse(raw);
  };
  const header = ctx.headers["last-event-id"];
  const after = time(typeof header === "string" ? header : null, "header.Last-Event-ID");
  const from = time(ctx.query.get("since"), "query.since");
  if (errors.length > 0) throw unprocessable(errors, "Query parameters do not match the contract.");
  return { source: (source ?? undefined) as LogSource | undefined, after, from, tail };
}

const iso = (ms: number) => new Date(ms).toISOString();

function event(l: LogLine): string {
  const ts = iso(l.ts);
  return `id: ${ts}\ndata: ${JSON.stringify({ source: l.source, line: l.line, ts })}\n\n`;
}

/**
 * The SSE answer over a log: `read(until)` gives every line up to `until`, or undefined once
 * the log is gone; `finished()` says no more lines will come.
 */
function sse(
  ctx: RouteContext,
  read: (until: number) => LogLine[] | undefined,
  finished: () => boolean,
): Reply {
  const q = logQuery(ctx);
  const { state } = ctx;
  const pick = (lines: LogLine[]) => (q.source ? lines.filter((l) => l.source === q.source) : lines);
  const first = pick(read(state.now()) ?? []);
  // Last-Event-ID takes precedence over since, and either over tail.
  const backfill =
    q.after !== undefined
      ? first.filter((l) => l.ts > (q.after as number))
      : q.from !== undefined
        ? first.filter((l) => l.ts >= (q.from as number))
        : q.tail === 0
          ? []
          : first.slice(-q.tail);
  const cursor = first.at(-1)?.ts ?? Number.NEGATIVE_INFINITY;
  return {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
    stream: (out: StreamSink) => {
      let sent = Math.max(cursor, q.after ?? Number.NEGATIVE_INFINITY);
      for (const l of backfill) out.write(event(l));
      const tick = () => {
        const lines = read(state.now());
        if (lines === undefined) {
          out.end();
          return;
        }
        for (const l of pick(lines)) {
          if (l.ts <= sent) continue;
          out.write(event(l));
          sent = l.ts;
        }
        if (finished()) out.end();
      };
      tick();
      if (out.closed) return;
      const timer = setInterval(tick, POLL_MS);
      timer.unref();
      out.onClose(() => clearInterval(timer));
    },
  };
}

function podLogs(ctx: RouteContext): Reply {
  const { state } = ctx;
  const id = ctx.params.id ?? "";
  if (!findPod(state, id, ctx.account)) throw notFound(`Pod '${id}' was not found.`);
  return sse(
    ctx,
    (until) => {
      const pod = findPod(state, id, ctx.account);
      return pod ? podLog(pod, until) : undefined;
    },
    () => findPod(state, id, ctx.account)?.status === "TERMINATED",
  );
}

function workerLogs(ctx: RouteContext): Reply {
  const { state } = ctx;
  const e = requireEndpoint(state, ctx.params.id ?? "", ctx.account);
  const workerId = ctx.params.workerId ?? "";
  const slots = Math.max(e.workers.max, e.workers.min);
  const index = Array.from({ length: slots }, (_, i) => i).find((i) => workerIdFor(e.id, i) === workerId);
  if (index === undefined) throw notFound(`Worker '${workerId}' was not found on endpoint '${e.id}'.`);
  return sse(
    ctx,
    (until) => {
      const live = findEndpoint(state, e.id, ctx.account);
      return live ? workerLog(state, live, index, until) : undefined;
    },
    () => false,
  );
}

export const logRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/pods/:id/logs", handler: podLogs },
    { method: "GET", pattern: "/v2/serverless/:id/workers/:workerId/logs", handler: workerLogs },
  ],
};
