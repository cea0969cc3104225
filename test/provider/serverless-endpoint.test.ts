/** ServerlessEndpoint and ServerlessJob providers against the emulator, in-process. */
import { describe, expect, it } from "vitest";
import type { ServerlessEndpointOutputs } from "../../provider/resources/serverless-endpoint.js";
import type { ServerlessJobOutputs } from "../../provider/resources/serverless-job.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, runtimeLib } from "../support/provider.js";

const Endpoint = runtimeLib.providers.ServerlessEndpoint;
const Job = runtimeLib.providers.ServerlessJob;
const GPUS = ["NVIDIA GeForce RTX 4090", "NVIDIA L40S"];

let emu: RunningEmulator;
let progress: string[];
freshEmulatorForEachTest({ firstSeed: 100 }, (t) => {
  ({ emu, progress } = t);
});

const inputs = (extra: Record<string, unknown> = {}) =>
  ({
    name: "sdxl",
    templateId: "runpod-worker-sdxl",
    gpuTypeIds: GPUS,
    env: { MODEL: "sdxl" },
    ...extra,
  }) as never;

describe("ServerlessEndpoint", () => {
  it("creates with the API's defaults and the job address", async () => {
    const res = await Endpoint.create(inputs());
    const outs = res.outs as ServerlessEndpointOutputs;
    expect([
      outs.endpointId,
      outs.workersMin,
      outs.workersMax,
      outs.idleTimeout,
      outs.computeType,
      outs.env,
      outs.jobUrl,
    ]).toEqual([res.id, 0, 3, 5, "GPU", { MODEL: "sdxl" }, `${emu.serverlessUrl}/v2/${res.id}/`]);
  });

  it("updates in place with a PATCH of only what changed, and says workers may restart", async () => {
    const res = await Endpoint.create(inputs());
    const diff = await Endpoint.diff(
      res.id,
      res.outs as ServerlessEndpointOutputs,
      inputs({ workersMax: 5, gpuTypeIds: ["NVIDIA L40S"] }),
    );
    const updated = await Endpoint.update(
      res.id,
      res.outs as ServerlessEndpointOutputs,
      inputs({ workersMax: 5, gpuTypeIds: ["NVIDIA L40S"] }),
    );
    const outs = updated.outs as ServerlessEndpointOutputs;
    expect([
      diff,
      outs.workersMax,
      outs.gpuTypeIds,
      emu.control.requests().summary.byRoute["PATCH /v1/endpoints/:id"],
    ]).toEqual([{ changes: true, replaces: [], deleteBeforeReplace: false }, 5, ["NVIDIA L40S"], 1]);
    expect(progress).toContain(
      "runpod ServerlessEndpoint sdxl: changing gpuTypeIds, workersMax may restart active workers",
    );
  });

  it("replaces on a new compute type", async () => {
    const res = await Endpoint.create(inputs());
    const diff = await Endpoint.diff(
      res.id,
      res.outs as ServerlessEndpointOutputs,
      inputs({ computeType: "CPU", cpuFlavorIds: ["cpu3c"], gpuTypeIds: undefined }),
    );
    expect(diff.replaces).toEqual(["computeType"]);
  });

  it("refresh shows an out-of-band change and a deletion", async () => {
    const res = await Endpoint.create(inputs());
    await apiFor(emu).updateEndpoint(res.id, { workersMax: 9, env: { MODEL: "other" } });
    const read = await Endpoint.read(res.id, res.outs as ServerlessEndpointOutputs);
    const props = read.props as ServerlessEndpointOutputs;
    expect([props.workersMax, props.env]).toEqual([9, { MODEL: "other" }]);
    await apiFor(emu).deleteEndpoint(res.id);
    expect(await Endpoint.read(res.id, res.outs as ServerlessEndpointOutputs)).toEqual({});
  });

  it("deletes, and a second delete (404) succeeds", async () => {
    const res = await Endpoint.create(inputs());
    await Endpoint.delete(res.id, res.outs as ServerlessEndpointOutputs);
    await Endpoint.delete(res.id, res.outs as ServerlessEndpointOutputs);
    expect([
      emu.control.snapshot().endpoints,
      emu.control.requests().summary.byRoute["DELETE /v1/endpoints/:id"],
    ]).toEqual([[], 2]);
  });

  it("surfaces the API's refusal of a pod template", async () => {
    const err = await thrown(Endpoint.create(inputs({ templateId: "runpod-torch-v240" })));
    expect(err.message).toMatch(/^ServerlessEndpoint sdxl: POST \/v1\/endpoints: 400 Bad Request: /);
    expect(err.message).toMatch(
      /^ServerlessEndpoint sdxl: POST \/v1\/endpoints: 400 Bad Request: Template 'runpod-torch-v240' is not a serverless template; an endpoint needs a template created with serverless: true\./,
    );
  });

  it("adopts an existing endpoint, applying what differs", async () => {
    const existing = await apiFor(emu).createEndpoint({
      name: "old",
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: GPUS,
    });
    const res = await Endpoint.create(inputs({ adoptId: existing.id }));
    expect([
      res.id,
      (res.outs as ServerlessEndpointOutputs).name,
      emu.control.snapshot().endpoints.length,
    ]).toEqual([existing.id, "sdxl", 1]);
    // The env it lacked was applied too: in the outputs, and in the service.
    expect([
      (res.outs as ServerlessEndpointOutputs).env,
      (await apiFor(emu).getEndpoint(existing.id)).env,
    ]).toEqual([{ MODEL: "sdxl" }, { MODEL: "sdxl" }]);
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
      /^ServerlessJob black-forest-labs-flux-1-schnell: Job \S+ on endpoint black-forest-labs-flux-1-schnell did not finish in time \(last status IN_QUEUE\)\.$/,
    );
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
