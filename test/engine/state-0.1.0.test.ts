/**
 * State written by runpod-dynamic 0.1.0, the REST v1 code (test/fixtures/state-0.1.0.json: the
 * ServerlessEndpoint and jobs of examples/serverless-endpoint, written through the real CLI), keeps
 * working after the move to /v2/serverless: through the real CLI the endpoint previews as an
 * in-place update (never a replacement), refreshes to v2 outputs, is then unchanged, and destroys
 * through v2. The program is the same endpoint in v2 inputs (test/fixtures/programs/state-0.1.0).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, previewSteps, steps } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { importReleasedState, onlyResource, releasedState } from "../support/released-state.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "..", "fixtures", "programs", "state-0.1.0");
const ENDPOINT = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";

let emu: RunningEmulator;
let stack: ProgramStack;
let endpointId: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 121,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  const state = releasedState("0.1.0");
  const old = onlyResource(state, ENDPOINT);
  // The endpoint itself, as the v1 code left it, made again through v2 (REST v1 is retired): its
  // gpuTypeIds, an A100 and an H100, are the whole of the AMPERE_80 and ADA_80_PRO pools.
  const v1 = old.outputs ?? {};
  const created = await raw(`${emu.baseUrl}/v2/serverless`, {
    method: "POST",
    body: JSON.stringify({
      name: v1.name,
      type: "QUEUE",
      scaling: { type: v1.scalerType, queueDelay: v1.scalerValue },
      templateId: v1.templateId,
      gpu: { pools: ["AMPERE_80", "ADA_80_PRO"] },
      workers: { min: v1.workersMin, max: v1.workersMax, idleTimeout: v1.idleTimeout },
      timeout: v1.executionTimeoutMs,
      flashboot: v1.flashboot === true ? "FLASHBOOT" : "OFF",
      dataCenterIds: v1.dataCenterIds,
      env: { MAX_MODEL_LEN: "8192" },
    }),
  });
  endpointId = String(created.body.id);
  // The state as the old code left it, pointing at that endpoint, without the two jobs of the
  // example (they are not what this test is about).
  state.deployment.resources = state.deployment.resources.filter((r) => !r.type.endsWith(":ServerlessJob"));
  stack = await importReleasedState(emu, PROGRAM, state, new Map([[old.id, endpointId]]));
}, 120_000);
afterAll(async () => {
  stack?.dispose();
  await emu.close();
});

const endpointsInEmulator = () => emu.control.snapshot().endpoints.map((e) => e.id);

describe("state written by 0.1.0, the v1 code", { timeout: 120_000 }, () => {
  it("previews as an in-place update, never a replacement", async () => {
    const r = await stack.run(["preview", "--json"]);
    expect([r.code, previewSteps(r.stdout).filter((s) => s.endsWith(" worker"))]).toEqual([
      0,
      ["update worker"],
    ]);
  });

  it("refreshes through GET /v2/serverless/{id} into v2 outputs, after which nothing changes", async () => {
    emu.control.clearRequests();
    const refresh = await stack.run(["refresh", "--yes", "--skip-preview", "--json"]);
    const routes = Object.keys(emu.control.requests().summary.byRoute);
    const { deployment } = await stack.exportState();
    const outputs = deployment.resources?.find((r) => r.type === ENDPOINT)?.outputs ?? {};
    expect([refresh.code, routes, outputs.type, outputs.gpu, outputs.workers]).toEqual([
      0,
      ["GET /v2/serverless/:id"],
      "QUEUE",
      {
        pools: ["AMPERE_80", "ADA_80_PRO"],
        excludedTypes: [],
        count: 1,
        allowedCudaVersions: [],
        minCudaVersion: null,
      },
      { min: 0, max: 2, idleTimeout: 60 },
    ]);
    const again = await stack.run(["up", "--yes", "--expect-no-changes", "--json"]);
    expect([again.code, steps(engineEvents(again.stdout)).filter((s) => s.endsWith(" worker"))]).toEqual([
      0,
      ["same worker"],
    ]);
  });

  it("destroys through DELETE /v2/serverless/{id}", async () => {
    emu.control.clearRequests();
    const r = await stack.run(["destroy", "--yes", "--skip-preview"]);
    const writes = emu.control
      .requests()
      .entries.filter((e) => e.method !== "GET")
      .map((e) => e.route);
    expect([r.code, writes, endpointsInEmulator().includes(endpointId)]).toEqual([
      0,
      ["DELETE /v2/serverless/:id"],
      false,
    ]);
  });
});
