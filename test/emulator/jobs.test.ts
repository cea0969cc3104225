/**
 * Jobs under serverless_url (`/v2/{endpoint_id}/run|runsync|status/{job_id}`), over raw HTTP, on
 * the emulator clock: frozen and moved with `advance`, except where `/runsync` needs a running
 * clock (scaled so the real wait stays under 100 ms).
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests, lastStatus } from "../support/emulator.js";
import { http, jobCalls, problem } from "../support/http.js";
import { queueEndpoint } from "../support/seed-facts.js";

const FLUX = "black-forest-labs-flux-1-schnell";
const WAN = "wan-2-2-t2v-720";
const MINIMAX = "minimax-speech-02-hd";
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}-u1$/;
const WORKER_ID = /^[a-z0-9]{14}$/;
const REQUESTED_FAILURE = "Emulated failure: the job input set fail to true.";
const RANDOM_FAILURE = "Emulated worker failure (settings.jobFailureShare).";

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);
/** Raw HTTP calls, and the job calls by name. */
const jobs = { ...c, ...jobCalls(c) };

/** A QUEUE endpoint on the echo worker, created through v2. */
async function echoEndpoint(): Promise<string> {
  const created = await jobs.ok(
    jobs.post("base", "/v2/serverless", queueEndpoint({ name: "echo", templateId: "runpod-worker-sdxl" })),
  );
  return created.id;
}

describe("/run then /status on the emulator clock", () => {
  it("moves a job IN_QUEUE -> IN_PROGRESS -> COMPLETED at the configured times", async () => {
    const endpointId = await echoEndpoint();
    const input = { prompt: "hello", nested: { n: [1, 2] } };
    const submitted = await jobs.runJob(endpointId, input);
    expect(submitted.id).toMatch(JOB_ID);
    expect(submitted).toEqual({ id: submitted.id, status: "IN_QUEUE" });
    expect(lastStatus(h)).toBe(200);

    const read = () => jobs.getJobStatus(endpointId, submitted.id);
    expect(await read()).toEqual({ id: submitted.id, status: "IN_QUEUE" });
    h.emu.control.advance(499); // default settings.jobQueueMs = 500
    expect(await read()).toEqual({ id: submitted.id, status: "IN_QUEUE" });

    h.emu.control.advance(1);
    const started = await read();
    expect(started.workerId).toMatch(WORKER_ID);
    expect(started).toEqual({
      id: submitted.id,
      status: "IN_PROGRESS",
      delayTime: 500,
      workerId: started.workerId,
    });

    h.emu.control.advance(1499); // default settings.jobRunMs = 1500
    expect((await read()).status).toBe("IN_PROGRESS");

    h.emu.control.advance(1);
    expect(await read()).toEqual({
      id: submitted.id,
      status: "COMPLETED",
      delayTime: 500,
      executionTime: 1500,
      workerId: started.workerId,
      output: { echo: input },
    });
    h.emu.control.advance(3_600_000);
    expect((await read()).status).toBe("COMPLETED");
  });

  it("uses the queue and run durations from the settings", async () => {
    h.emu.control.setSettings({ jobQueueMs: 10_000, jobRunMs: 25_000 });
    const endpointId = await echoEndpoint();
    const { id } = await jobs.runJob(endpointId, {});
    h.emu.control.advance(34_999);
    expect(await jobs.getJobStatus(endpointId, id)).toMatchObject({
      status: "IN_PROGRESS",
      delayTime: 10_000,
    });
    h.emu.control.advance(1);
    expect(await jobs.getJobStatus(endpointId, id)).toMatchObject({
      status: "COMPLETED",
      delayTime: 10_000,
      executionTime: 25_000,
    });
  });

  it("ends FAILED with an error and no output when input.fail is true", async () => {
    const endpointId = await echoEndpoint();
    const { id } = await jobs.runJob(endpointId, { fail: true });
    h.emu.control.advance(1999);
    expect((await jobs.getJobStatus(endpointId, id)).status).toBe("IN_PROGRESS");
    h.emu.control.advance(1);
    const failed = await jobs.getJobStatus(endpointId, id);
    expect(failed).toEqual({
      id,
      status: "FAILED",
      delayTime: 500,
      executionTime: 1500,
      workerId: failed.workerId,
      error: REQUESTED_FAILURE,
    });
  });

  it.each([
    ["fail: false", { fail: false }],
    ['fail: "true" (only the boolean counts)', { fail: "true" }],
  ])("completes with %s", async (_name, input) => {
    const endpointId = await echoEndpoint();
    const { id } = await jobs.runJob(endpointId, input);
    h.emu.control.advance(2000);
    expect(await jobs.getJobStatus(endpointId, id)).toMatchObject({
      status: "COMPLETED",
      output: { echo: input },
    });
  });

  it("fails every job with jobFailureShare 1 and none with 0", async () => {
    const endpointId = await echoEndpoint();
    h.emu.control.setSettings({ jobFailureShare: 1 });
    const doomed = await Promise.all([1, 2, 3].map((n) => jobs.runJob(endpointId, { n })));
    h.emu.control.setSettings({ jobFailureShare: 0 });
    const fine = await Promise.all([4, 5, 6].map((n) => jobs.runJob(endpointId, { n })));
    h.emu.control.advance(2000);
    const statuses = await Promise.all([...doomed, ...fine].map((j) => jobs.getJobStatus(endpointId, j.id)));
    expect(statuses.map((s) => [s.status, s.error ?? null])).toEqual([
      ["FAILED", RANDOM_FAILURE],
      ["FAILED", RANDOM_FAILURE],
      ["FAILED", RANDOM_FAILURE],
      ["COMPLETED", null],
      ["COMPLETED", null],
      ["COMPLETED", null],
    ]);
  });
});

describe("hosted model endpoints", () => {
  it.each([
    ["image, default size", FLUX, { prompt: "a cat" }, "image_url", "png", 0.0026],
    [
      "image, 512x768",
      FLUX,
      { prompt: "a cat", width: 512, height: 768, num_inference_steps: 4, guidance: 3.5 },
      "image_url",
      "png",
      0.001,
    ],
    ["image, 2048x2048", FLUX, { prompt: "a cat", width: 2048, height: 2048 }, "image_url", "png", 0.0105],
    ["video, default duration", WAN, { prompt: "waves" }, "video_url", "mp4", 0.3],
    ["video, 10 s", WAN, { prompt: "waves", duration: 10 }, "video_url", "mp4", 0.6],
    ["audio, 1200 characters of text", MINIMAX, { text: "a".repeat(1200) }, "audio_url", "mp3", 0.06],
    ["audio, 2000 characters of prompt", MINIMAX, { prompt: "b".repeat(2000) }, "audio_url", "mp3", 0.1],
  ])("%s: output carries the media URL and cost", async (_name, model, input, urlField, extension, cost) => {
    const { id } = await jobs.runJob(model, input);
    h.emu.control.advance(2000);
    const done = await jobs.getJobStatus(model, id);
    expect(done).toEqual({
      id,
      status: "COMPLETED",
      delayTime: 500,
      executionTime: 1500,
      workerId: done.workerId,
      output: { [urlField]: `https://${urlField.split("_")[0]}.runpod.ai/${model}/${id}.${extension}`, cost },
    });
  });
});

describe("/runsync", () => {
  it("waits for the job while the clock runs and answers COMPLETED", async () => {
    h.emu.control.setClockScale(50); // 2000 ms of emulator time = 40 ms real
    const done = await jobs.runJobSync(FLUX, { prompt: "a cat" });
    h.emu.control.setClockScale(0);
    expect(done).toEqual({
      id: done.id,
      status: "COMPLETED",
      delayTime: 500,
      executionTime: 1500,
      workerId: done.workerId,
      output: { image_url: `https://image.runpod.ai/${FLUX}/${done.id}.png`, cost: 0.0026 },
    });
    expect(await jobs.getJobStatus(FLUX, done.id)).toEqual(done);
  });

  it("answers FAILED from a serverless endpoint when the job fails", async () => {
    const endpointId = await echoEndpoint();
    h.emu.control.setClockScale(50);
    const failed = await jobs.runJobSync(endpointId, { fail: true });
    expect(failed).toMatchObject({ status: "FAILED", error: REQUESTED_FAILURE, executionTime: 1500 });
  });

  it("answers at once with the job IN_QUEUE when the clock is frozen; /status follows it", async () => {
    const endpointId = await echoEndpoint();
    const pending = await jobs.runJobSync(endpointId, { x: 1 });
    expect(pending.id).toMatch(JOB_ID);
    expect(pending).toEqual({ id: pending.id, status: "IN_QUEUE" });
    h.emu.control.advance(2000);
    expect(await jobs.getJobStatus(endpointId, pending.id)).toMatchObject({
      status: "COMPLETED",
      output: { echo: { x: 1 } },
    });
  });

  it("answers IN_PROGRESS when the job already started and the clock is frozen", async () => {
    h.emu.control.setSettings({ jobQueueMs: 0 });
    const pending = await jobs.runJobSync(FLUX, { prompt: "x" });
    expect(pending).toEqual({
      id: pending.id,
      status: "IN_PROGRESS",
      delayTime: 0,
      workerId: pending.workerId,
    });
  });

  it("answers at once when the job would end after runsyncWaitMs", async () => {
    h.emu.control.setSettings({ jobQueueMs: 60_000, jobRunMs: 60_000, runsyncWaitMs: 90_000 });
    h.emu.control.setClockScale(50); // the job would need 2.4 s of real time
    const pending = await jobs.runJobSync(FLUX, { prompt: "x" });
    expect(pending).toEqual({ id: pending.id, status: "IN_QUEUE" });
  });
});

describe("errors", () => {
  it.each([
    ["/run", () => jobs.runJob("nope", {})],
    ["/runsync", () => jobs.runJobSync("nope", {})],
    ["/status", () => jobs.getJobStatus("nope", "job-1")],
  ])("%s on an unknown endpoint answers 404", async (_name, call) => {
    expect(await problem(call())).toEqual({
      status: 404,
      detail: "Endpoint 'nope' was not found.",
      errors: [],
    });
  });

  it("answers 404 for an unknown job, and for a job of another endpoint", async () => {
    const endpointId = await echoEndpoint();
    const { id } = await jobs.runJob(FLUX, {});
    expect(await problem(jobs.getJobStatus(endpointId, "no-such-job"))).toEqual({
      status: 404,
      detail: `Job 'no-such-job' was not found on endpoint '${endpointId}'.`,
      errors: [],
    });
    expect(await problem(jobs.getJobStatus(endpointId, id))).toEqual({
      status: 404,
      detail: `Job '${id}' was not found on endpoint '${endpointId}'.`,
      errors: [],
    });
  });

  it.each([
    ["no body", undefined, ["$.input: required property is missing"]],
    ["input that is not an object", { input: "hello" }, ["$.input: expected record"]],
    ["an unknown property", { input: {}, priority: 1 }, ["$: additional properties 'priority' not allowed"]],
  ])("answers 422 for %s", async (_name, body, errors) => {
    const call = jobs.call("POST", "serverless", `/v2/${FLUX}/run`, body);
    expect(await problem(call)).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
    expect(h.emu.control.snapshot().jobs).toEqual([]);
  });
});
