/**
 * A stack whose ServerlessEndpoint was created by the REST v1 code (the state in
 * test/fixtures/serverless-endpoint-v1-stack.json, written by runpod-dynamic 0.1.0 through the
 * real CLI) keeps working after the move to /v2/serverless: through the real CLI it previews as an
 * in-place update (never a replacement), refreshes to v2 outputs, is then unchanged, and destroys
 * through v2.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, previewSteps, steps } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const FIXTURE = join(__dirname, "..", "fixtures", "serverless-endpoint-v1-stack.json");
const ENDPOINT = "pulumi-nodejs:dynamic/runpod:ServerlessEndpoint";

interface Exported {
  deployment: {
    resources: {
      urn: string;
      type: string;
      id?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
  };
}

let emu: RunningEmulator;
let stack: ProgramStack;
let endpointId: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 121,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  const state = JSON.parse(readFileSync(FIXTURE, "utf8")) as Exported;
  const old = state.deployment.resources.find((r) => r.type === ENDPOINT);
  if (!old?.id) throw new Error("the fixture holds no ServerlessEndpoint");
  // The endpoint itself, made again the way the v1 code made it: POST {rest_url}/v1/endpoints.
  const v1 = old.outputs ?? {};
  const created = await raw(`${emu.restUrl}/v1/endpoints`, {
    method: "POST",
    body: JSON.stringify({
      name: v1.name,
      templateId: v1.templateId,
      gpuTypeIds: v1.gpuTypeIds,
      workersMin: v1.workersMin,
      workersMax: v1.workersMax,
      idleTimeout: v1.idleTimeout,
      executionTimeoutMs: v1.executionTimeoutMs,
      flashboot: v1.flashboot,
      env: { MAX_MODEL_LEN: "8192" },
    }),
  });
  endpointId = String(created.body.id);
  // The state as the old code left it, pointing at that endpoint, without the two jobs of the
  // example (they are not what this test is about).
  state.deployment.resources = state.deployment.resources.filter((r) => !r.type.endsWith(":ServerlessJob"));
  // Refresh runs with the provider configuration recorded in state at the last update (not the
  // stack config of today): the recorded addresses are this emulator's, as they would be the
  // service's for a user.
  const { "runpod:apiKey": _key, ...urls } = emu.pulumiConfig();
  for (const r of state.deployment.resources.filter((x) => x.type.startsWith("pulumi:providers:"))) {
    Object.assign(r.inputs ?? {}, urls);
    Object.assign(r.outputs ?? {}, urls);
  }
  const text = JSON.stringify(state).replaceAll(old.id, endpointId);
  stack = await stackOnEmulator(emu, join(__dirname, "endpoint-program"));
  const file = join(stack.workDir, "v1-state.json");
  writeFileSync(file, text);
  await stack.expect(["stack", "import", "--file", file]);
}, 120_000);
afterAll(async () => {
  stack?.dispose();
  await emu.close();
});

const endpointsInEmulator = () => emu.control.snapshot().endpoints.map((e) => e.id);

describe("state written by the v1 code", { timeout: 120_000 }, () => {
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
