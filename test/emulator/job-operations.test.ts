/**
 * The job operations real clients call under serverless_url, over raw HTTP with the method, path
 * and body RunPod's `runpod-sdk` sends (`POST /runsync?wait=`, `GET /status-sync/{id}?wait=`,
 * `GET /stream/{id}`, `POST /cancel/{id}` with `{}`, `POST /purge-queue` with `{}`, `GET /health`),
 * plus `/retry`, execution timeouts and queues no worker takes. Frozen clock, moved with `advance`
 * (default queue 500 ms, run 1500 ms).
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";
import { queueEndpoint } from "../support/seed-facts.js";

const FLUX = "black-forest-labs-flux-1-schnell";
const REQUESTED_FAILURE = "Emulated failure: the job input set fail to true.";

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

type Body = Record<string, unknown>;

async function endpoint(over: Body = {}): Promise<string> {
  const created = await c.ok(
    c.post("base", "/v2/serverless", queueEndpoint({ name: "jobs", image: "acme/worker:1", ...over })),
  );
  return created.id;
}

const run = (id: string, input: Body, extra: Body = {}) =>
  c.ok(c.post("serverless", `/v2/${id}/run`, { input, ...extra }));
const status = (id: string, job: string) => c.ok(c.get("serverless", `/v2/${id}/status/${job}`));
const stream = (id: string, job: string) => c.ok(c.get("serverless", `/v2/${id}/stream/${job}`));
const cancel = (id: string, job: string) => c.ok(c.post("serverless", `/v2/${id}/cancel/${job}`, {}));
const retry = (id: string, job: string) => c.ok(c.post("serverless", `/v2/${id}/retry/${job}`));
const health = (id: string) => c.ok(c.get("serverless", `/v2/${id}/health`));

const idleWorkers = { idle: 0, initializing: 0, ready: 0, running: 0, throttled: 0, unhealthy: 0 };

describe("GET /v2/{endpoint_id}/health", () => {
  it("counts jobs by status and workers by state, on the emulator clock", async () => {
    const id = await endpoint({ workers: { max: 2 } });
    expect(await health(id)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 0, retried: 0 },
      workers: idleWorkers,
    });
    const ok = await run(id, { n: 1 });
    await run(id, { fail: true });
    await run(id, { n: 3 }); // slot 0 again
    expect(await health(id)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 3, retried: 0 },
      workers: { ...idleWorkers, initializing: 2 },
    });
    h.emu.control.advance(500);
    expect(await health(id)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 3, inQueue: 0, retried: 0 },
      workers: { ...idleWorkers, running: 2, ready: 2 },
    });
    h.emu.control.advance(1500);
    expect(await health(id)).toEqual({
      jobs: { completed: 2, failed: 1, inProgress: 0, inQueue: 0, retried: 0 },
      workers: { ...idleWorkers, idle: 2, ready: 2 },
    });
    expect((await status(id, ok.id)).status).toBe("COMPLETED");
  });

  it("answers for a hosted model too, its running jobs as running workers", async () => {
    await run(FLUX, { prompt: "a" });
    h.emu.control.advance(500);
    expect(await health(FLUX)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 1, inQueue: 0, retried: 0 },
      workers: { ...idleWorkers, running: 1, ready: 1 },
    });
  });
});

describe("POST /v2/{endpoint_id}/cancel/{job_id}", () => {
  it("cancels a queued job (no worker fields) and a running one (execution time so far)", async () => {
    const id = await endpoint();
    const queued = await run(id, {});
    const running = await run(id, {});
    expect(await cancel(id, queued.id)).toEqual({ id: queued.id, status: "CANCELLED" });
    h.emu.control.advance(700);
    expect(await cancel(id, running.id)).toEqual({ id: running.id, status: "CANCELLED" });
    h.emu.control.advance(5000);
    expect(await status(id, queued.id)).toEqual({ id: queued.id, status: "CANCELLED" });
    const stopped = await status(id, running.id);
    expect(stopped).toEqual({
      id: running.id,
      status: "CANCELLED",
      delayTime: 500,
      executionTime: 200,
      workerId: stopped.workerId,
    });
    expect((await health(id)).jobs).toEqual({
      completed: 0,
      failed: 0,
      inProgress: 0,
      inQueue: 0,
      retried: 0,
    });
  });

  it("leaves an ended job as it is", async () => {
    const id = await endpoint();
    const job = await run(id, {});
    h.emu.control.advance(2000);
    expect(await cancel(id, job.id)).toEqual({ id: job.id, status: "COMPLETED" });
    expect((await status(id, job.id)).output).toEqual({ echo: {} });
  });
});

describe("POST /v2/{endpoint_id}/purge-queue", () => {
  it("removes the jobs still waiting and lets running ones finish", async () => {
    const id = await endpoint();
    const early = await run(id, { n: 1 });
    h.emu.control.advance(600);
    const late = [await run(id, { n: 2 }), await run(id, { n: 3 })];
    expect(await c.ok(c.post("serverless", `/v2/${id}/purge-queue`, {}))).toEqual({
      removed: 2,
      status: "completed",
    });
    expect(await c.ok(c.post("serverless", `/v2/${id}/purge-queue`, {}))).toEqual({
      removed: 0,
      status: "completed",
    });
    h.emu.control.advance(2000);
    expect((await status(id, early.id)).status).toBe("COMPLETED");
    for (const job of late)
      expect((await c.get("serverless", `/v2/${id}/status/${job.id}`)).status).toBe(404);
  });
});

describe("GET /v2/{endpoint_id}/stream/{job_id}", () => {
  it("hands out each chunk of a streaming job once, as {output}, until the job ends", async () => {
    const id = await endpoint();
    const job = await run(id, { stream: ["a", "b", "c"] });
    expect(await stream(id, job.id)).toEqual({ id: job.id, status: "IN_QUEUE", stream: [] });
    h.emu.control.advance(500 + 500); // the first of three chunks over 1500 ms
    expect(await stream(id, job.id)).toEqual({
      id: job.id,
      status: "IN_PROGRESS",
      stream: [{ output: "a" }],
    });
    expect(await stream(id, job.id)).toEqual({ id: job.id, status: "IN_PROGRESS", stream: [] });
    h.emu.control.advance(1000);
    expect(await stream(id, job.id)).toEqual({
      id: job.id,
      status: "COMPLETED",
      stream: [{ output: "b" }, { output: "c" }],
    });
  });

  it("gives a job that does not stream its output as one chunk, and a failed job its error", async () => {
    const id = await endpoint();
    const plain = await run(id, { x: 1 });
    const failing = await run(id, { fail: true });
    h.emu.control.advance(2000);
    expect(await stream(id, plain.id)).toEqual({
      id: plain.id,
      status: "COMPLETED",
      stream: [{ output: { echo: { x: 1 } } }],
    });
    expect(await stream(id, failing.id)).toEqual({
      id: failing.id,
      status: "FAILED",
      stream: [],
      error: REQUESTED_FAILURE,
    });
  });

  it("serves runpod-sdk's stream loop: read until the status is terminal, yielding every chunk once", async () => {
    const id = await endpoint();
    const job = await run(id, { stream: [1, 2, 3, 4] });
    const seen: unknown[] = [];
    for (let read = 0; read < 10; read += 1) {
      const answer = await stream(id, job.id);
      seen.push(...answer.stream);
      if (["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"].includes(answer.status)) break;
      h.emu.control.advance(400);
    }
    expect(seen).toEqual([{ output: 1 }, { output: 2 }, { output: 3 }, { output: 4 }]);
  });
});

describe("POST /v2/{endpoint_id}/retry/{job_id}", () => {
  it("requeues a FAILED job under the same id, output removed, and counts the retry", async () => {
    const id = await endpoint();
    const job = await run(id, { fail: true });
    h.emu.control.advance(2000);
    expect((await status(id, job.id)).status).toBe("FAILED");
    expect(await retry(id, job.id)).toEqual({ id: job.id, status: "IN_QUEUE" });
    expect(await status(id, job.id)).toEqual({ id: job.id, status: "IN_QUEUE" });
    expect((await health(id)).jobs).toEqual({
      completed: 0,
      failed: 0,
      inProgress: 0,
      inQueue: 1,
      retried: 1,
    });
    h.emu.control.advance(2000);
    // `fail: true` is the job's input: it fails again, the same way.
    expect(await status(id, job.id)).toMatchObject({ status: "FAILED", delayTime: 500, executionTime: 1500 });
  });

  it("refuses a job that did not fail or time out", async () => {
    const id = await endpoint();
    const job = await run(id, {});
    expect(await problem(c.post("serverless", `/v2/${id}/retry/${job.id}`))).toEqual({
      status: 400,
      detail: `Job '${job.id}' is IN_QUEUE; only FAILED or TIMED_OUT jobs can be retried.`,
      errors: [],
    });
  });
});

describe("execution timeouts", () => {
  it("ends TIMED_OUT after policy.executionTimeout, which overrides the endpoint's timeout", async () => {
    h.emu.control.setSettings({ jobRunMs: 20_000 });
    const id = await endpoint({ timeout: 10_000 });
    const byEndpoint = await run(id, {});
    const byPolicy = await run(id, {}, { policy: { executionTimeout: 6000 } });
    const longEnough = await run(id, {}, { policy: { executionTimeout: 30_000 } });
    h.emu.control.advance(500 + 6000);
    const timedOut = await status(id, byPolicy.id);
    expect(timedOut).toEqual({
      id: byPolicy.id,
      status: "TIMED_OUT",
      delayTime: 500,
      executionTime: 6000,
      workerId: timedOut.workerId,
      error: "Job timed out after 6000 ms (its execution timeout).",
    });
    expect((await status(id, byEndpoint.id)).status).toBe("IN_PROGRESS");
    h.emu.control.advance(4000);
    expect((await status(id, byEndpoint.id)).status).toBe("TIMED_OUT");
    h.emu.control.advance(10_000);
    expect((await status(id, longEnough.id)).status).toBe("COMPLETED");
    expect(await retry(id, byPolicy.id)).toEqual({ id: byPolicy.id, status: "IN_QUEUE" });
  });
});

describe("jobs no worker takes", () => {
  it("stay IN_QUEUE on an endpoint allowing no workers", async () => {
    const id = await endpoint({ workers: { max: 0 } });
    const job = await run(id, {});
    h.emu.control.advance(3_600_000);
    expect(await status(id, job.id)).toEqual({ id: job.id, status: "IN_QUEUE" });
    expect(await health(id)).toEqual({
      jobs: { completed: 0, failed: 0, inProgress: 0, inQueue: 1, retried: 0 },
      workers: idleWorkers,
    });
  });

  it("stay IN_QUEUE while the endpoint's image cannot be pulled; its worker is UNHEALTHY", async () => {
    const id = await endpoint({ image: "emulator/image-not-found:1" });
    const job = await run(id, {});
    h.emu.control.advance(60_000);
    expect(await status(id, job.id)).toEqual({ id: job.id, status: "IN_QUEUE" });
    expect((await health(id)).workers).toEqual({ ...idleWorkers, unhealthy: 1 });
    const { workers } = await c.ok(c.get("base", `/v2/serverless/${id}/workers`));
    expect(workers.map((w: Body) => [w.status, w.uptimeSeconds, w.startedAt])).toEqual([
      ["UNHEALTHY", null, null],
    ]);
  });
});

describe("/runsync?wait= and /status-sync", () => {
  it("waits while the clock runs for at most ?wait= ms of emulator time", async () => {
    const id = await endpoint();
    h.emu.control.setClockScale(50);
    const done = await c.ok(c.post("serverless", `/v2/${id}/runsync?wait=90000`, { input: { a: 1 } }));
    expect(done).toMatchObject({ status: "COMPLETED", output: { echo: { a: 1 } } });
    // A wait shorter than the job answers with it still queued.
    const pending = await c.ok(c.post("serverless", `/v2/${id}/runsync?wait=100`, { input: { a: 2 } }));
    expect(pending).toEqual({ id: pending.id, status: "IN_QUEUE" });
    const later = await c.ok(c.get("serverless", `/v2/${id}/status-sync/${pending.id}?wait=90000`));
    expect(later).toMatchObject({ id: pending.id, status: "COMPLETED", output: { echo: { a: 2 } } });
  });

  it.each(["-1", "1.5", "300001", "soon"])("answers 422 for wait=%s", async (wait) => {
    const id = await endpoint();
    expect(await problem(c.post("serverless", `/v2/${id}/runsync?wait=${wait}`, { input: {} }))).toEqual({
      status: 422,
      detail: "Query parameters do not match the contract.",
      errors: ["query.wait: expected an integer from 0 to 300000 (milliseconds)"],
    });
  });
});

describe("errors", () => {
  it.each([
    ["POST", "cancel/job-1"],
    ["POST", "retry/job-1"],
    ["GET", "stream/job-1"],
    ["GET", "status-sync/job-1"],
  ])("%s /%s answers 404 for an unknown job", async (method, path) => {
    const id = await endpoint();
    expect(
      await problem(c.call(method, "serverless", `/v2/${id}/${path}`, method === "POST" ? {} : undefined)),
    ).toEqual({
      status: 404,
      detail: `Job 'job-1' was not found on endpoint '${id}'.`,
      errors: [],
    });
  });

  it.each([
    ["GET", "health"],
    ["POST", "purge-queue"],
  ])("%s /%s answers 404 for an unknown endpoint", async (method, path) => {
    expect(
      await problem(c.call(method, "serverless", `/v2/nope/${path}`, method === "POST" ? {} : undefined)),
    ).toEqual({
      status: 404,
      detail: "Endpoint 'nope' was not found.",
      errors: [],
    });
  });

  it("refuses jobs on a LOAD_BALANCER endpoint", async () => {
    const id = await endpoint({ type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 1 } });
    expect(await problem(c.post("serverless", `/v2/${id}/run`, { input: {} }))).toEqual({
      status: 400,
      detail: `Endpoint '${id}' is a LOAD_BALANCER endpoint: it has no job queue; send requests to its workers (requestUrls.base).`,
      errors: [],
    });
  });

  it.each<[string, Body, string[]]>([
    ["a bad webhook", { input: {}, webhook: "not a url" }, ["$.webhook: Invalid URL"]],
    [
      "an unknown policy field",
      { input: {}, policy: { priority: 1 } },
      ["$.policy: additional properties 'priority' not allowed"],
    ],
    [
      "a too short executionTimeout",
      { input: {}, policy: { executionTimeout: 1000 } },
      ["$.policy.executionTimeout: expected number >= 5000"],
    ],
  ])("answers 422 for %s", async (_name, body, errors) => {
    expect(await problem(c.post("serverless", `/v2/${FLUX}/run`, body))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
  });
});
