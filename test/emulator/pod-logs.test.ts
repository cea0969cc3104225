/**
 * Pod and worker logs as server-sent events (`GET /v2/pods/{id}/logs`,
 * `GET /v2/serverless/{id}/workers/{workerId}/logs`): framing, backfill (`tail`, `since`,
 * `Last-Event-ID`), the `source` filter, live lines as the frozen clock is advanced, and the
 * deterministic lines of each container behaviour.
 */
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";
import { APP_POD, queueEndpoint } from "../support/seed-facts.js";
import { openStream, type SseStream } from "../support/sse.js";

/** The streams a test opened, closed before the next test resets the emulator. */
const open: SseStream[] = [];
beforeEach(() => {
  for (const s of open.splice(0)) s.close();
});
const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

type Body = Record<string, unknown>;
const iso = (offset: number) => new Date(h.t0 + offset).toISOString();
const createPod = (over: Body = {}) =>
  c.ok(c.post("base", "/v2/pods", { ...APP_POD, ports: ["8888/http", "22/tcp"], ...over }));
async function logs(path: string, options: { headers?: Record<string, string>; key?: string | null } = {}) {
  const s = await openStream(`${h.emu.baseUrl}${path}`, options);
  open.push(s);
  return s;
}
const line = (offset: number, source: string, text: string) => ({
  id: iso(offset),
  data: { source, line: text, ts: iso(offset) },
});
const digest = (image: string) => `sha256:${createHash("sha256").update(image).digest("hex")}`;

/** What acme/app:1 with 8888/http and 22/tcp logs each time its container starts, at `at`. */
const containerStart = (at: number) => [
  line(at, "system", "start container"),
  line(at + 1, "container", "Starting acme/app:1"),
  line(at + 2, "container", "Listening on 8888/http"),
  line(at + 3, "container", "Listening on 22/tcp"),
  line(at + 4, "container", "Ready"),
];
/** What a pod of acme/app:1 with 8888/http and 22/tcp logs through its first start. */
const started = () => [
  line(0, "system", "create pod: 1x NVIDIA A40 in US-KS-2"),
  line(2000, "system", "create container acme/app:1"),
  line(2001, "system", "1: Pulling from acme/app"),
  line(2002, "system", `Digest: ${digest("acme/app:1")}`),
  line(2003, "system", "Status: Downloaded newer image for acme/app:1"),
  ...containerStart(5000),
];

describe("GET /v2/pods/{id}/logs", () => {
  it("streams text/event-stream, each event an id and a JSON data line with source, line and ts", async () => {
    const pod = await createPod();
    h.emu.control.advance(10_000);
    const s = await logs(`/v2/pods/${pod.id}/logs`);
    expect([s.status, s.headers.get("content-type"), s.headers.get("cache-control")]).toEqual([
      200,
      "text/event-stream",
      "no-cache",
    ]);
    expect(await s.next(started().length)).toEqual(started());
    expect(s.text().split("\n\n")[0]).toBe(
      `id: ${iso(0)}\ndata: {"source":"system","line":"create pod: 1x NVIDIA A40 in US-KS-2","ts":"${iso(0)}"}`,
    );
    expect(h.emu.control.requests().entries.at(-1)).toMatchObject({
      route: "GET /v2/pods/:id/logs",
      status: 200,
    });
  });

  it("follows the pod's lifecycle live as the clock moves, and ends the stream once it is terminated", async () => {
    const pod = await createPod();
    const s = await logs(`/v2/pods/${pod.id}/logs`);
    expect(await s.next(1)).toEqual(started().slice(0, 1));
    h.emu.control.advance(2500);
    expect(await s.next(4)).toEqual(started().slice(1, 5));
    h.emu.control.advance(3000);
    expect(await s.next(5)).toEqual(started().slice(5));
    h.emu.control.advance(1000);
    await c.ok(c.post("base", `/v2/pods/${pod.id}/action`, { action: "restart" }));
    h.emu.control.advance(4000);
    await c.ok(c.del("base", `/v2/pods/${pod.id}`));
    expect(await s.rest()).toEqual([
      line(6500, "system", "restart container"),
      line(6501, "system", "create container acme/app:1"),
      line(6502, "system", "Status: Image is up to date for acme/app:1"),
      ...containerStart(9500),
      line(10_500, "system", "terminate pod: container stopped and removed"),
    ]);
  });

  it("backfills the last 100 lines by default, `tail` lines when given, none with tail=0", async () => {
    h.emu.control.setContainerBehaviour({
      image: "acme/flaky:*",
      kind: "crashLoop",
      runMs: 1000,
      lines: ["boom"],
    });
    h.emu.control.setSettings({ crashRestartMs: 1000 });
    const pod = await createPod({ image: "acme/flaky:1" });
    h.emu.control.advance(200_000);
    const all = h.emu.control.podLogs(pod.id).map((l) => ({ id: l.ts, data: l }));
    expect(all.length).toBeGreaterThan(300);
    const byDefault = await logs(`/v2/pods/${pod.id}/logs`);
    expect(await byDefault.next(100)).toEqual(all.slice(-100));
    const three = await logs(`/v2/pods/${pod.id}/logs?tail=3`);
    expect(await three.next(3)).toEqual(all.slice(-3));
    const none = await logs(`/v2/pods/${pod.id}/logs?tail=0`);
    h.emu.control.advance(1000);
    // Nothing from before; the first line after it is the next crash-loop line.
    const [next] = await none.next(1);
    expect(next).toEqual(h.emu.control.podLogs(pod.id).map((l) => ({ id: l.ts, data: l }))[all.length]);
  });

  it("keeps one source with `source`, and starts at `since`", async () => {
    const pod = await createPod();
    h.emu.control.advance(10_000);
    const container = await logs(`/v2/pods/${pod.id}/logs?source=container`);
    expect(await container.next(4)).toEqual(started().filter((l) => l.data.source === "container"));
    const system = await logs(`/v2/pods/${pod.id}/logs?source=system&since=${encodeURIComponent(iso(2002))}`);
    expect(await system.next(3)).toEqual([started()[3], started()[4], started()[5]]);
  });

  it("resumes after Last-Event-ID, which wins over since and tail", async () => {
    const pod = await createPod();
    h.emu.control.advance(10_000);
    const first = await logs(`/v2/pods/${pod.id}/logs`);
    const seen = await first.next(3);
    first.close();
    const lastId = seen[2]?.id ?? "";
    const resumed = await logs(`/v2/pods/${pod.id}/logs?tail=1&since=${encodeURIComponent(iso(0))}`, {
      headers: { "last-event-id": lastId },
    });
    expect(await resumed.next(started().length - 3)).toEqual(started().slice(3));
  });

  it("logs the pull retries of an image that does not exist, every pullRetryMs", async () => {
    const pod = await createPod({ image: "emulator/image-not-found:2", ports: [] });
    h.emu.control.advance(40_000);
    const retry = (at: number) => [
      line(at, "system", "create container emulator/image-not-found:2"),
      line(
        at + 2,
        "system",
        "error pulling image: Error response from daemon: manifest for emulator/image-not-found:2 not found: manifest unknown: manifest unknown",
      ),
      line(
        at + 3,
        "system",
        "error creating container: container: create: container create: Error response from daemon: No such image: emulator/image-not-found:2",
      ),
      line(at + 4, "system", "retrying in 30s"),
    ];
    const s = await logs(`/v2/pods/${pod.id}/logs`);
    expect(await s.next(9)).toEqual([
      line(0, "system", "create pod: 1x NVIDIA A40 in US-KS-2"),
      ...retry(2000),
      ...retry(32_000),
    ]);
  });

  it("logs a crash loop: the container's lines, its exit code and the restart", async () => {
    h.emu.control.setContainerBehaviour({
      image: "acme/crash:1",
      kind: "crashLoop",
      runMs: 4000,
      exitCode: 137,
      lines: ["loading model", "Killed"],
    });
    const pod = await createPod({ image: "acme/crash:1" });
    h.emu.control.advance(20_000);
    const lines = h.emu.control.podLogs(pod.id).filter((l) => l.ts >= iso(5000));
    expect(lines).toEqual([
      { ts: iso(5000), source: "system", line: "start container" },
      { ts: iso(5001), source: "container", line: "loading model" },
      { ts: iso(5002), source: "container", line: "Killed" },
      { ts: iso(9000), source: "system", line: "container exited with code 137" },
      { ts: iso(9001), source: "system", line: "restarting container in 10s" },
      { ts: iso(19_000), source: "system", line: "start container (restart 1)" },
      { ts: iso(19_001), source: "container", line: "loading model" },
      { ts: iso(19_002), source: "container", line: "Killed" },
    ]);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ["an unknown source", { source: "kernel" }, ['query.source: expected one of "container", "system"']],
    ["a tail over 5000", { tail: "5001" }, ["query.tail: expected an integer from 0 to 5000"]],
    ["a negative tail", { tail: "-1" }, ["query.tail: expected an integer from 0 to 5000"]],
    [
      "a since that is not a time",
      { since: "yesterday" },
      ["query.since: expected an RFC 3339 date-time, as the stream's event ids are"],
    ],
  ])("answers 422 for %s", async (_name, query, errors) => {
    const pod = await createPod();
    const qs = new URLSearchParams(query).toString();
    expect(await problem(c.get("base", `/v2/pods/${pod.id}/logs?${qs}`))).toEqual({
      status: 422,
      detail: "Query parameters do not match the contract.",
      errors,
    });
  });

  it("answers 422 for a Last-Event-ID that is not a time, 404 for an unknown pod, 401 without a key", async () => {
    const pod = await createPod();
    expect(
      await problem(
        c.call("GET", "base", `/v2/pods/${pod.id}/logs`, undefined, { headers: { "last-event-id": "42" } }),
      ),
    ).toMatchObject({
      status: 422,
      errors: ["header.Last-Event-ID: expected an RFC 3339 date-time, as the stream's event ids are"],
    });
    expect(await problem(c.get("base", "/v2/pods/nope/logs"))).toEqual({
      status: 404,
      detail: "Pod 'nope' was not found.",
      errors: [],
    });
    expect((await c.call("GET", "base", `/v2/pods/${pod.id}/logs`, undefined, { key: null })).status).toBe(
      401,
    );
  });

  it("streams a cluster member's log too", async () => {
    const s = await logs("/v2/pods/clu-demo-ray-node0/logs");
    expect(s.status).toBe(200);
    s.close();
  });
});

describe("GET /v2/serverless/{id}/workers/{workerId}/logs", () => {
  it("streams a worker's container start and its jobs as they start and end", async () => {
    const body = queueEndpoint({ name: "w", image: "acme/worker:1", workers: { max: 1 } });
    const endpoint = await c.ok(c.post("base", "/v2/serverless", body));
    const job = await c.ok(c.post("serverless", `/v2/${endpoint.id}/run`, { input: {} }));
    const failing = await c.ok(c.post("serverless", `/v2/${endpoint.id}/run`, { input: { fail: true } }));
    const { workerId, lines } = h.emu.control.workerLogs(endpoint.id, 0);
    expect(lines).toEqual([
      { ts: iso(0), source: "system", line: `worker ${workerId}: create container acme/worker:1` },
    ]);
    const s = await logs(`/v2/serverless/${endpoint.id}/workers/${workerId}/logs`);
    expect(await s.next(1)).toEqual([
      line(0, "system", `worker ${workerId}: create container acme/worker:1`),
    ]);
    h.emu.control.advance(2001);
    expect(await s.next(5)).toEqual([
      line(499, "system", "start container"),
      line(500, "container", `Started job ${job.id}`),
      line(501, "container", `Started job ${failing.id}`),
      line(2000, "container", `Finished job ${job.id}`),
      line(2001, "container", `Job ${failing.id} failed`),
    ]);
    expect((await c.get("base", `/v2/serverless/${endpoint.id}/workers/nope/logs`)).status).toBe(404);
  });

  it("logs the image of the release a worker started on, not one released after it", async () => {
    const body = queueEndpoint({ name: "w", image: "acme/worker:1", workers: { max: 1 } });
    const endpoint = await c.ok(c.post("base", "/v2/serverless", body));
    await c.ok(c.post("serverless", `/v2/${endpoint.id}/run`, { input: {} }));
    h.emu.control.advance(5000);
    await c.ok(c.patch("base", `/v2/serverless/${endpoint.id}`, { image: "acme/worker:2" }));
    const releases = await c.ok(c.get("base", `/v2/serverless/${endpoint.id}/releases`));
    expect(releases.endpointVersion).toBe(2);
    const { workerId, lines } = h.emu.control.workerLogs(endpoint.id, 0);
    expect(lines[0]).toEqual({
      ts: iso(0),
      source: "system",
      line: `worker ${workerId}: create container acme/worker:1`,
    });
  });
});
