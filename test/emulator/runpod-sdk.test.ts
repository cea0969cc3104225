/**
 * RunPod's own JavaScript SDK (`runpod-sdk` on npm), unchanged, against the emulator's
 * serverless address: its endpoint client is what many users run jobs with, so the emulator must
 * answer it as the service does.
 */
import runpodSdk from "runpod-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { queueEndpoint } from "../support/seed-facts.js";

let emu: RunningEmulator;
let endpointId: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: 20,
    randomSeed: 131,
    rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }],
  });
  const created = await raw(`${emu.baseUrl}/v2/serverless`, {
    method: "POST",
    body: JSON.stringify(queueEndpoint({ name: "sdk", image: "acme/echo:1", workers: { min: 1, max: 2 } })),
  });
  endpointId = String(created.body.id);
});
afterAll(async () => {
  await emu.close();
});

const endpoint = () => {
  const sdk = runpodSdk(emu.apiKey, { baseUrl: `${emu.serverlessUrl}/v2` });
  const e = sdk.endpoint(endpointId);
  if (!e) throw new Error("runpod-sdk gave no endpoint client");
  return e;
};

describe("runpod-sdk's endpoint client against the emulator", { timeout: 60_000 }, () => {
  it("run, then status until COMPLETED", async () => {
    const job = await endpoint().run({ input: { prompt: "hello" } });
    let status = await endpoint().status(job.id);
    while (!["COMPLETED", "FAILED"].includes(String(status.status))) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = await endpoint().status(job.id);
    }
    const output = "output" in status ? status.output : undefined;
    expect([typeof job.id, job.status, status.status, output]).toEqual([
      "string",
      "IN_QUEUE",
      "COMPLETED",
      { echo: { prompt: "hello" } },
    ]);
  });

  it("runSync answers with the finished job", async () => {
    const done = await endpoint().runSync({ input: { prompt: "sync" } });
    expect([done.status, done.output]).toEqual(["COMPLETED", { echo: { prompt: "sync" } }]);
  });

  it("stream hands out each chunk once", async () => {
    const job = await endpoint().run({ input: { stream: ["a", "b", "c"] } });
    const chunks: unknown[] = [];
    for await (const chunk of endpoint().stream(job.id)) chunks.push(chunk);
    expect(chunks.map((c) => (c as { output: unknown }).output)).toEqual(["a", "b", "c"]);
  });

  it("cancel, purgeQueue and health", async () => {
    const queued = await endpoint().run({ input: { prompt: "never mind" } });
    const cancelled = await endpoint().cancel(queued.id);
    await endpoint().run({ input: { prompt: "later" } });
    const purged = await endpoint().purgeQueue();
    const health = await endpoint().health();
    expect([cancelled.status, typeof purged.removed, typeof health.jobs, typeof health.workers]).toEqual([
      "CANCELLED",
      "number",
      "object",
      "object",
    ]);
  });
});
