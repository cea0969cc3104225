/** ServerlessEndpoint and ServerlessJob providers against the emulator, in-process. */
import { describe, expect, it } from "vitest";
import type { ServerlessEndpointOutputs } from "../../provider/resources/serverless-endpoint/types.js";
import type { ServerlessJobOutputs } from "../../provider/resources/serverless-job/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Endpoint: HostProviders["ServerlessEndpoint"];
let Job: HostProviders["ServerlessJob"];
const POOLS = ["ADA_24", "ADA_48_PRO"];

let emu: RunningEmulator;
let progress: string[];
freshEmulatorForEachTest({ firstSeed: 100, seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu, progress } = t);
  Endpoint = t.providers.ServerlessEndpoint;
  Job = t.providers.ServerlessJob;
});

const inputs = (extra: Record<string, unknown> = {}) =>
  ({
    name: "sdxl",
    templateId: "runpod-worker-sdxl",
    gpu: { pools: POOLS },
    env: { MODEL: "sdxl" },
    ...extra,
  }) as never;
const writes = () =>
  emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => e.route);

describe("ServerlessEndpoint", () => {
  it("creates through POST /v2/serverless with the type and scaler the API wants, and reports its addresses", async () => {
    const res = await Endpoint.create(inputs());
    const outs = res.outs as ServerlessEndpointOutputs;
    expect([
      outs.endpointId,
      outs.type,
      outs.workers,
      outs.scaling,
      outs.gpu,
      outs.env,
      outs.jobUrl,
      outs.requestUrls.run,
      outs.requestUrls.health,
      writes(),
    ]).toEqual([
      res.id,
      "QUEUE",
      { min: 0, max: 3, idleTimeout: 10 },
      { type: "QUEUE_DELAY", queueDelay: 4, requestCount: null },
      { pools: POOLS, excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
      { MODEL: "sdxl" },
      `${emu.serverlessUrl}/v2/${res.id}/`,
      `${emu.serverlessUrl}/v2/${res.id}/run`,
      `${emu.serverlessUrl}/v2/${res.id}/health`,
      ["POST /v2/serverless"],
    ]);
  });

  it("creates a load balancer from an image, scaling on requests", async () => {
    const res = await Endpoint.create(
      inputs({ templateId: undefined, image: "acme/api:1", type: "LOAD_BALANCER", ports: ["8000/http"] }),
    );
    const outs = res.outs as ServerlessEndpointOutputs;
    expect([outs.type, outs.scaling.type, outs.image, outs.jobUrl]).toEqual([
      "LOAD_BALANCER",
      "REQUEST_COUNT",
      "acme/api:1",
      outs.requestUrls.base,
    ]);
  });

  it("updates in place with a PATCH of only what changed, and says workers may restart", async () => {
    const res = await Endpoint.create(inputs());
    const next = inputs({ workers: { max: 5 }, gpu: { pools: ["ADA_48_PRO"] } });
    const diff = await Endpoint.diff(res.id, res.outs as ServerlessEndpointOutputs, next);
    emu.control.clearRequests();
    const updated = await Endpoint.update(res.id, res.outs as ServerlessEndpointOutputs, next);
    const outs = updated.outs as ServerlessEndpointOutputs;
    expect([diff, outs.workers.max, outs.gpu?.pools, writes()]).toEqual([
      { changes: true, replaces: [], updates: ["gpu.pools", "workers.max"], deleteBeforeReplace: false },
      5,
      ["ADA_48_PRO"],
      ["PATCH /v2/serverless/:id"],
    ]);
    expect(progress).toContain(
      "runpod ServerlessEndpoint sdxl: changing gpu.pools, workers.max may restart active workers",
    );
  });

  it("keeps env keys the template added when the program's env changes", async () => {
    const res = await Endpoint.create(inputs());
    const before = (await apiFor(emu).endpoints.get(res.id)).env ?? {};
    await Endpoint.update(
      res.id,
      res.outs as ServerlessEndpointOutputs,
      inputs({ env: { MODEL: "sdxl-turbo" } }),
    );
    const after = (await apiFor(emu).endpoints.get(res.id)).env ?? {};
    expect(after).toEqual({ ...before, MODEL: "sdxl-turbo" });
  });

  it("a refresh of an endpoint that declares no env reports what its create did, not the template's env", async () => {
    const res = await Endpoint.create(inputs({ name: "vllm", templateId: "vllm-worker", env: undefined }));
    const outs = res.outs as ServerlessEndpointOutputs;
    const read = await Endpoint.read(res.id, outs);
    expect([
      Object.keys((await apiFor(emu).endpoints.get(res.id)).env ?? {}),
      outs.env,
      (read.props as ServerlessEndpointOutputs).env,
    ]).toEqual([["MODEL_NAME"], {}, {}]);
  });

  it("replaces on a new compute family or type", async () => {
    const res = await Endpoint.create(inputs());
    const olds = res.outs as ServerlessEndpointOutputs;
    const toCpu = await Endpoint.diff(
      res.id,
      olds,
      inputs({ gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 4 }] }),
    );
    const toLb = await Endpoint.diff(res.id, olds, inputs({ type: "LOAD_BALANCER" }));
    expect([toCpu.replaces, toLb.replaces]).toEqual([["cpu"], ["type"]]);
  });

  it("refresh shows an out-of-band change and a deletion", async () => {
    const res = await Endpoint.create(inputs());
    await apiFor(emu).endpoints.update(res.id, { workers: { min: 0, max: 9 }, env: { MODEL: "other" } });
    const read = await Endpoint.read(res.id, res.outs as ServerlessEndpointOutputs);
    const props = read.props as ServerlessEndpointOutputs;
    expect([props.workers.max, props.env]).toEqual([9, { MODEL: "other" }]);
    await apiFor(emu).endpoints.delete(res.id);
    expect(await Endpoint.read(res.id, res.outs as ServerlessEndpointOutputs)).toEqual({});
  });

  it("deletes, and a second delete (404) succeeds", async () => {
    const res = await Endpoint.create(inputs());
    await Endpoint.delete(res.id, res.outs as ServerlessEndpointOutputs);
    await Endpoint.delete(res.id, res.outs as ServerlessEndpointOutputs);
    expect([
      emu.control.snapshot().endpoints,
      emu.control.requests().summary.byRoute["DELETE /v2/serverless/:id"],
    ]).toEqual([[], 2]);
  });

  it("surfaces the API's refusal of a pod template", async () => {
    const err = await thrown(Endpoint.create(inputs({ templateId: "runpod-torch-v240" })));
    expect(err.message).toMatch(/^ServerlessEndpoint sdxl: POST \/v2\/serverless: 422 /);
  });

  it("adopts an existing endpoint, applying what differs", async () => {
    const existing = await apiFor(emu).endpoints.create({
      name: "old",
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      templateId: "runpod-worker-sdxl",
      gpu: { pools: POOLS },
    });
    const res = await Endpoint.create(inputs({ adoptId: existing.id }));
    expect([
      res.id,
      (res.outs as ServerlessEndpointOutputs).name,
      emu.control.snapshot().endpoints.length,
      (res.outs as ServerlessEndpointOutputs).env,
      (await apiFor(emu).endpoints.get(existing.id)).env?.MODEL,
    ]).toEqual([existing.id, "sdxl", 1, { MODEL: "sdxl" }, "sdxl"]);
  });

  it("refreshes, updates and deletes an endpoint whose state the v1 code wrote, without a replacement", async () => {
    // The endpoint the v1 code made for gpuTypeIds [RTX 4090], made again through v2 (REST v1 is
    // retired): the ADA_24 pool less its other type, with v1's defaults.
    const created = await apiFor(emu).endpoints.create({
      name: "sdxl",
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      templateId: "runpod-worker-sdxl",
      gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] },
      workers: { min: 0, max: 2, idleTimeout: 5 },
      timeout: 600_000,
    });
    const id = created.id;
    const v1Outputs = {
      endpointId: id,
      name: "sdxl",
      templateId: "runpod-worker-sdxl",
      computeType: "GPU",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      gpuCount: 1,
      workersMin: 0,
      workersMax: 2,
      idleTimeout: 5,
      executionTimeoutMs: 600000,
      flashboot: false,
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      networkVolumeIds: [],
      env: {},
      jobUrl: `${emu.serverlessUrl}/v2/${id}/`,
    } as never;
    const next = inputs({ env: undefined, workers: { max: 4 }, gpu: { pools: ["ADA_24"] } });
    const diff = await Endpoint.diff(id, v1Outputs, next);
    const read = await Endpoint.read(id, v1Outputs);
    emu.control.clearRequests();
    const updated = await Endpoint.update(id, v1Outputs, next);
    await Endpoint.delete(id, updated.outs as ServerlessEndpointOutputs);
    expect([
      diff.replaces,
      (read.props as ServerlessEndpointOutputs).workers,
      (updated.outs as ServerlessEndpointOutputs).workers.max,
      writes(),
    ]).toEqual([
      [],
      { min: 0, max: 2, idleTimeout: 5 },
      4,
      ["PATCH /v2/serverless/:id", "DELETE /v2/serverless/:id"],
    ]);
  });
});

describe("ServerlessJob", () => {
  it("runs a job on a hosted image model at deploy time and keeps the output", async () => {
    const res = await Job.create({
      endpointId: "black-forest-labs-flux-1-schnell",
      input: { prompt: "a red fox", width: 512, height: 512 },
    });
    const outs = res.outs as ServerlessJobOutputs;
    expect([
      outs.status,
      typeof (outs.output as { image_url: string }).image_url,
      typeof (outs.output as { cost: number }).cost,
    ]).toEqual(["COMPLETED", "string", "number"]);
  });

  it("runs through /run and /status in async mode", async () => {
    const endpoint = await Endpoint.create(inputs());
    const res = await Job.create({ endpointId: endpoint.id, input: { hello: "world" }, mode: "async" });
    const routes = emu.control.requests().summary.byRoute;
    expect([
      (res.outs as ServerlessJobOutputs).output,
      routes["POST /v2/:endpointId/run"],
      (routes["GET /v2/:endpointId/status/:jobId"] ?? 0) > 0,
    ]).toEqual([{ echo: { hello: "world" } }, 1, true]);
    expect(routes["POST /v2/:endpointId/runsync"]).toBeUndefined();
  });

  it("fails the deployment when the job FAILS, with the job's error", async () => {
    const endpoint = await Endpoint.create(inputs());
    const err = await thrown(Job.create({ endpointId: endpoint.id, input: { fail: true } }));
    expect(err.message).toMatch(
      /^ServerlessJob \w+: the smoke-test job \S+ FAILED: .+\. Nothing was recorded; fix the endpoint and run again\.$/,
    );
  });

  it("fails with the last status when the job outlasts its timeout", async () => {
    emu.control.setSettings({ jobQueueMs: 3_600_000 });
    const err = await thrown(
      Job.create({
        endpointId: "black-forest-labs-flux-1-schnell",
        input: { prompt: "x" },
        mode: "async",
        timeout: 2,
      }),
    );
    expect(err.message).toMatch(
      /^ServerlessJob black-forest-labs-flux-1-schnell: Job \S+ on endpoint black-forest-labs-flux-1-schnell did not finish in time \(last status IN_QUEUE\)\. It was cancelled \(CANCELLED\)\.$/,
    );
    // Nobody waits for it any more: it no longer runs, nor bills.
    expect(emu.control.requests().summary.byRoute["POST /v2/:endpointId/cancel/:jobId"]).toBe(1);
  });

  it("runs again when the input changes, not when only the mode does", async () => {
    const res = await Job.create({ endpointId: "black-forest-labs-flux-1-schnell", input: { prompt: "x" } });
    const olds = res.outs as ServerlessJobOutputs;
    expect(
      await Job.diff(res.id, olds, {
        endpointId: "black-forest-labs-flux-1-schnell",
        input: { prompt: "y" },
      }),
    ).toEqual({
      changes: true,
      replaces: ["input"],
      updates: [],
      deleteBeforeReplace: false,
    });
    expect(
      (
        await Job.diff(res.id, olds, {
          endpointId: "black-forest-labs-flux-1-schnell",
          input: { prompt: "x" },
          mode: "async",
        })
      ).changes,
    ).toBe(false);
  });
});
