/**
 * The recording proxy against a scripted upstream (a real server on 127.0.0.1:0): what it records
 * for an answer, a stream the client leaves, a connection the upstream drops, and the routes it
 * does not validate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceProxy, startConformanceProxy } from "../support/conformance/proxy.js";
import { DescriptionValidator } from "../support/conformance/validator.js";
import { type ScriptedServer, type Step, startScriptedServer } from "../support/scripted-server.js";

const RATE = { ratelimit: '"minute";r=59;t=60', "ratelimit-policy": '"minute";q=60;w=60' };

/** Answers by path: a pod without its status, an event stream that never ends, a dropped connection. */
const answer: Step = (req, res) => {
  switch (req.url) {
    case "/v2/pods/p1":
      res.writeHead(200, { "content-type": "application/json", ...RATE });
      res.end(JSON.stringify({ id: "p1", name: "p" }));
      return;
    case "/v2/pods/p1/logs":
      res.writeHead(200, { "content-type": "text/event-stream", ...RATE });
      res.write('id: 1\ndata: {"source":"container","line":"ready","ts":"2026-11-21T00:00:00Z"}\n\n');
      return;
    case "/v2/pods/gone":
      req.socket.destroy();
      return;
    default:
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
  }
};

let upstream: ScriptedServer;
let proxy: ConformanceProxy;
beforeAll(async () => {
  upstream = await startScriptedServer(() => answer);
  proxy = await startConformanceProxy(
    { baseUrl: upstream.url, restUrl: upstream.url, serverlessUrl: upstream.url },
    DescriptionValidator.load(),
  );
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

/** The exchanges recorded while `send` ran, once none is under way. */
async function recorded(send: () => Promise<unknown>) {
  const from = proxy.exchanges.length;
  await send().catch(() => undefined);
  await proxy.settled();
  return proxy.exchanges
    .slice(from)
    .map(({ kind, key, status, violations }) => ({ kind, key, status, violations }));
}

describe("the recording proxy", () => {
  it("records and validates an answer before the client sees its end", async () => {
    const res = await fetch(`${proxy.baseUrl}/v2/pods/p1`);
    const body = await res.text();
    const [last] = proxy.exchanges.slice(-1);
    expect([res.status, body, last?.key, last?.violations.map((v) => v.pointer).slice(0, 3)]).toEqual([
      200,
      '{"id":"p1","name":"p"}',
      "getPod",
      ["/body/status", "/body/actions", "/body/image"],
    ]);
  });

  it("passes an event stream through as it comes, and records it when the client leaves", async () => {
    const exchanges = await recorded(async () => {
      const controller = new AbortController();
      const res = await fetch(`${proxy.baseUrl}/v2/pods/p1/logs`, { signal: controller.signal });
      const reader = res.body?.getReader();
      const first = await reader?.read();
      controller.abort();
      return first;
    });
    expect(exchanges).toEqual([{ kind: "validated", key: "getPodLogs", status: 200, violations: [] }]);
  });

  it("records a connection the upstream dropped as no answer", async () => {
    const exchanges = await recorded(() => fetch(`${proxy.baseUrl}/v2/pods/gone`));
    expect(exchanges).toEqual([{ kind: "validated", key: "getPod", status: 0, violations: [] }]);
  });

  it("records, without validating, the /v1 routes and the routes the description lacks", async () => {
    const exchanges = await recorded(async () => {
      await fetch(`${proxy.restUrl}/v1/endpoints`);
      await fetch(`${proxy.baseUrl}/graphql`, { method: "POST", body: "{}" });
      await fetch(`${proxy.serverlessUrl}/v2/ep1/run`, { method: "POST", body: "{}" });
    });
    expect(exchanges).toEqual([
      { kind: "legacy-v1", key: "GET /v1/endpoints", status: 200, violations: [] },
      { kind: "not-in-description", key: "POST /graphql", status: 200, violations: [] },
      { kind: "not-in-description", key: "POST /v2/:endpointId/run", status: 200, violations: [] },
    ]);
  });
});
