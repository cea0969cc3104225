/**
 * The v1 view of serverless endpoints under rest_url (`/v1/endpoints`, retired upstream, served
 * for old clients), over raw HTTP: the provider's client speaks v2 only.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests, type SharedEmulator, START } from "../support/emulator.js";
import { http, jobCalls, problem } from "../support/http.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const L4 = "NVIDIA L4";
const A40 = "NVIDIA A40";
const SEED_DATA_CENTERS = [
  "US-TX-3",
  "US-KS-2",
  "US-GA-1",
  "CA-MTL-1",
  "EU-RO-1",
  "EU-SE-1",
  "EUR-IS-1",
  "AP-JP-1",
  "OC-AU-1",
];
/** What a create fills in for the fields it is not given (v1 description, EndpointCreateInput). */
const SERVERLESS_DEFAULTS = {
  dataCenterIds: SEED_DATA_CENTERS,
  workersMin: 0,
  workersMax: 3,
  idleTimeout: 5,
  executionTimeoutMs: 600_000,
  flashboot: false,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  networkVolumeIds: [],
  env: {},
};
const ID = /^[a-z0-9]{14}$/;
type Body = Record<string, unknown>;
const USER_ID = /^user_[0-9a-f]{27}$/;

const h = frozenEmulatorForAllTests({ reset: true, seed: WITHOUT_HISTORY_RESOURCES });
const v1 = v1Api(h);

/** The v1 calls an old client makes, over raw HTTP; `ok` answers the body of a 2xx or throws. */
function v1Api(harness: SharedEmulator) {
  const c = http(harness);
  return {
    ...c,
    ...jobCalls(c),
    createEndpoint: (body: Body) => c.ok(c.post("rest", "/v1/endpoints", body)),
    listEndpoints: () => c.ok(c.get("rest", "/v1/endpoints")),
    getEndpoint: (id: string) => c.ok(c.get("rest", `/v1/endpoints/${id}`)),
    updateEndpoint: (id: string, body: Body) => c.ok(c.patch("rest", `/v1/endpoints/${id}`, body)),
    deleteEndpoint: (id: string) => c.ok(c.del("rest", `/v1/endpoints/${id}`)),
    deleteNetworkVolume: (id: string) => c.ok(c.del("base", `/v2/network-volumes/${id}`)),
    listNetworkVolumes: async (): Promise<{ id: string }[]> =>
      (await c.ok(c.get("base", "/v2/network-volumes"))).networkVolumes,
  };
}

/** What a create adds to every endpoint: when (the frozen START), version 1 and the account's user. */
const stamped = (created: Body) => ({
  createdAt: new Date(START).toISOString(),
  version: 1,
  userId: created.userId,
});

describe("POST /v1/endpoints", () => {
  it("fills in the v1 description's defaults and answers 200 with the Endpoint", async () => {
    const created = await v1.createEndpoint({ templateId: "runpod-worker-sdxl", gpuTypeIds: [L4] });
    expect(created.id).toMatch(ID);
    expect(created.userId).toMatch(USER_ID);
    expect(created).toEqual({
      id: created.id,
      name: `endpoint-${created.id}`,
      templateId: "runpod-worker-sdxl",
      computeType: "GPU",
      gpuTypeIds: [L4],
      gpuCount: 1,
      allowedCudaVersions: [],
      ...SERVERLESS_DEFAULTS,
      ...stamped(created),
    });
    const log = h.emu.control.requests().entries;
    expect(log.map((e) => [e.route, e.status])).toEqual([["POST /v1/endpoints", 200]]);
  });

  it("keeps every field it is given, and ignores CPU fields on a GPU endpoint", async () => {
    const kept = {
      name: "sdxl-prod",
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: [L4, A40],
      gpuCount: 2,
      allowedCudaVersions: ["12.4", "12.8"],
      minCudaVersion: "12.4",
      dataCenterIds: ["US-TX-3", "EU-RO-1"],
      workersMin: 1,
      workersMax: 1,
      idleTimeout: 60,
      executionTimeoutMs: 30_000,
      flashboot: true,
      scalerType: "REQUEST_COUNT",
      scalerValue: 2,
      networkVolumeId: "nv-tx3-datasets",
      networkVolumeIds: ["nv-tx3-datasets", "nv-ro1-models"],
      env: { MODEL: "sdxl" },
    };
    const created = await v1.createEndpoint({ ...kept, cpuFlavorIds: ["cpu3c"], vcpuCount: 4 });
    expect(created).toEqual({ id: created.id, ...kept, computeType: "GPU", ...stamped(created) });
  });

  it("creates a CPU endpoint with instanceIds <flavor>-<vcpu>-<memoryGb>, ignoring GPU fields", async () => {
    const created = await v1.createEndpoint({
      name: "cpu-echo",
      templateId: "vllm-worker",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3g", "cpu3c"],
      gpuTypeIds: ["not even a GPU"],
      gpuCount: 4,
    });
    expect(created).toEqual({
      id: created.id,
      name: "cpu-echo",
      templateId: "vllm-worker",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3g", "cpu3c"],
      vcpuCount: 2,
      instanceIds: ["cpu3g-2-8", "cpu3c-2-4"],
      ...SERVERLESS_DEFAULTS,
      ...stamped(created),
    });
  });

  it("accepts workersMin equal to workersMax", async () => {
    const created = await v1.createEndpoint({
      templateId: "vllm-worker",
      gpuTypeIds: [A40],
      workersMin: 3,
    });
    expect([created.workersMin, created.workersMax]).toEqual([3, 3]);
  });

  it.each<[string, Body, number, string]>([
    [
      "an unknown template (404)",
      { templateId: "nope", gpuTypeIds: [L4] },
      404,
      "Template 'nope' was not found or is not accessible.",
    ],
    [
      "a pod template",
      { templateId: "runpod-torch-v240", gpuTypeIds: [L4] },
      400,
      "Template 'runpod-torch-v240' is not a serverless template; an endpoint needs a template created with serverless: true.",
    ],
    [
      "a GPU endpoint (the default) without gpuTypeIds",
      { templateId: "runpod-worker-sdxl" },
      400,
      "gpuTypeIds must list at least one GPU type for a GPU endpoint (computeType GPU, the default).",
    ],
    [
      "a GPU endpoint with empty gpuTypeIds",
      { templateId: "runpod-worker-sdxl", computeType: "GPU", gpuTypeIds: [] },
      400,
      "gpuTypeIds must list at least one GPU type for a GPU endpoint (computeType GPU, the default).",
    ],
    [
      "an unknown GPU type",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4, "NVIDIA GTX 9999"] },
      400,
      "gpuTypeIds: 'NVIDIA GTX 9999' is not a GPU type; see GET /v2/catalog/gpus.",
    ],
    [
      "a CPU endpoint without cpuFlavorIds",
      { templateId: "runpod-worker-sdxl", computeType: "CPU", gpuTypeIds: [L4] },
      400,
      "cpuFlavorIds must list at least one CPU flavor for a CPU endpoint (computeType CPU).",
    ],
    [
      "an unknown CPU flavor",
      { templateId: "runpod-worker-sdxl", computeType: "CPU", cpuFlavorIds: ["cpu9z"] },
      400,
      "cpuFlavorIds: 'cpu9z' is not a CPU flavor; see GET /v2/catalog/cpus.",
    ],
    [
      "workersMin above the default workersMax",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4], workersMin: 4 },
      400,
      "workersMin (4) cannot be greater than workersMax (3).",
    ],
    [
      "workersMin above workersMax",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4], workersMin: 2, workersMax: 1 },
      400,
      "workersMin (2) cannot be greater than workersMax (1).",
    ],
    [
      "an unknown data center",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4], dataCenterIds: ["US-TX-3", "MARS-1"] },
      400,
      "dataCenterIds: 'MARS-1' is not a data center; see GET /v2/catalog/datacenters.",
    ],
    [
      "an unknown networkVolumeId",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4], networkVolumeId: "nv-missing" },
      400,
      "Network volume 'nv-missing' does not exist.",
    ],
    [
      "an unknown entry in networkVolumeIds",
      {
        templateId: "runpod-worker-sdxl",
        gpuTypeIds: [L4],
        networkVolumeIds: ["nv-tx3-datasets", "nv-gone"],
      },
      400,
      "Network volume 'nv-gone' does not exist.",
    ],
  ])("rejects %s and stores nothing", async (_name, body, status, detail) => {
    expect(await problem(v1.createEndpoint(body))).toEqual({ status, detail, errors: [] });
    expect(await v1.listEndpoints()).toEqual([]);
  });

  it.each([
    ["no templateId", { gpuTypeIds: [L4] }, ["$.templateId: required property is missing"]],
    [
      "an unknown property",
      { templateId: "runpod-worker-sdxl", gpuTypeIds: [L4], gpuIds: "ADA_24" },
      ["$: additional properties 'gpuIds' not allowed"],
    ],
    [
      "an idleTimeout out of range and a bad compute type",
      { templateId: "runpod-worker-sdxl", idleTimeout: 0, computeType: "TPU" },
      ['$.computeType: expected one of "GPU", "CPU"', "$.idleTimeout: expected number >= 1"],
    ],
  ])("answers 422 with errors[] for %s", async (_name, body, errors) => {
    expect(await problem(v1.post("rest", "/v1/endpoints", body))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
  });
});

describe("GET /v1/endpoints and /v1/endpoints/:id", () => {
  it("lists endpoints in creation order and reads one by id", async () => {
    const first = await v1.createEndpoint({
      name: "one",
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: [L4],
    });
    const second = await v1.createEndpoint({ name: "two", templateId: "vllm-worker", gpuTypeIds: [A40] });
    expect(await v1.listEndpoints()).toEqual([first, second]);
    expect(await v1.getEndpoint(second.id)).toEqual(second);
  });

  it("answers an empty array when there are none", async () => {
    expect(await v1.listEndpoints()).toEqual([]);
  });

  it("answers 404 for an unknown id", async () => {
    expect(await problem(v1.getEndpoint("nope"))).toEqual({
      status: 404,
      detail: "Endpoint 'nope' was not found.",
      errors: [],
    });
  });

  it("adds the template and the (empty) worker list when asked to", async () => {
    const created = await v1.createEndpoint({ templateId: "runpod-worker-sdxl", gpuTypeIds: [L4] });
    const expanded = await v1.ok(
      v1.get("rest", `/v1/endpoints/${created.id}?includeTemplate=true&includeWorkers=true`),
    );
    expect(expanded.workers).toEqual([]);
    expect(expanded.template).toMatchObject({
      id: "runpod-worker-sdxl",
      image: "runpod/worker-sdxl:3.1.0",
      serverless: true,
    });
    const listed = await v1.ok(v1.get("rest", "/v1/endpoints?includeTemplate=false"));
    expect(listed).toEqual([created]);
  });
});

describe("PATCH /v1/endpoints/:id", () => {
  it("changes the given fields only and keeps id, createdAt, userId and version", async () => {
    const created = await v1.createEndpoint({
      name: "before",
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: [L4],
    });
    h.emu.control.advance(60_000);
    const updated = await v1.updateEndpoint(created.id, {
      name: "after",
      workersMax: 5,
      workersMin: 1,
      gpuTypeIds: [A40, L4],
    });
    expect(updated).toEqual({
      ...created,
      name: "after",
      workersMax: 5,
      workersMin: 1,
      gpuTypeIds: [A40, L4],
    });
    expect(await v1.getEndpoint(created.id)).toEqual(updated);
  });

  it("bumps version when the template or env changes, and only then", async () => {
    const created = await v1.createEndpoint({
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: [L4],
      env: { A: "1" },
    });
    const versions = [created.version];
    for (const patch of [
      { idleTimeout: 30 },
      { env: { A: "1" } },
      { env: { A: "2" } },
      { env: { A: "2", B: "3" } },
      { templateId: "runpod-worker-sdxl" },
      { templateId: "vllm-worker" },
      { scalerValue: 9 },
    ]) {
      versions.push((await v1.updateEndpoint(created.id, patch)).version);
    }
    expect(versions).toEqual([1, 1, 1, 2, 3, 3, 4, 4]);
  });

  it("answers 422 for computeType: the compute type is fixed at create", async () => {
    const created = await v1.createEndpoint({ templateId: "runpod-worker-sdxl", gpuTypeIds: [L4] });
    expect(await problem(v1.patch("rest", `/v1/endpoints/${created.id}`, { computeType: "CPU" }))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ["$: additional properties 'computeType' not allowed"],
    });
    expect(await v1.getEndpoint(created.id)).toEqual(created);
  });

  it.each<[string, Body, number, string]>([
    [
      "workersMin above the current workersMax",
      { workersMin: 4 },
      400,
      "workersMin (4) cannot be greater than workersMax (3).",
    ],
    [
      "workersMin above a lowered workersMax",
      { workersMax: 0, workersMin: 1 },
      400,
      "workersMin (1) cannot be greater than workersMax (0).",
    ],
    [
      "empty gpuTypeIds",
      { gpuTypeIds: [] },
      400,
      "gpuTypeIds must list at least one GPU type for a GPU endpoint (computeType GPU, the default).",
    ],
    [
      "an unknown GPU type",
      { gpuTypeIds: ["H9000"] },
      400,
      "gpuTypeIds: 'H9000' is not a GPU type; see GET /v2/catalog/gpus.",
    ],
    [
      "an unknown template",
      { templateId: "nope" },
      404,
      "Template 'nope' was not found or is not accessible.",
    ],
    [
      "a pod template",
      { templateId: "comfyui-community" },
      400,
      "Template 'comfyui-community' is not a serverless template; an endpoint needs a template created with serverless: true.",
    ],
    [
      "an unknown data center",
      { dataCenterIds: ["NOWHERE"] },
      400,
      "dataCenterIds: 'NOWHERE' is not a data center; see GET /v2/catalog/datacenters.",
    ],
    ["an unknown network volume", { networkVolumeId: "nv-x" }, 400, "Network volume 'nv-x' does not exist."],
  ])("rejects %s on the merged endpoint and changes nothing", async (_name, patch, status, detail) => {
    const created = await v1.createEndpoint({ templateId: "runpod-worker-sdxl", gpuTypeIds: [L4] });
    expect(await problem(v1.updateEndpoint(created.id, patch))).toEqual({ status, detail, errors: [] });
    expect(await v1.getEndpoint(created.id)).toEqual(created);
  });

  it("checks a CPU endpoint's flavors, recomputes instanceIds and ignores GPU fields", async () => {
    const created = await v1.createEndpoint({
      templateId: "vllm-worker",
      computeType: "CPU",
      cpuFlavorIds: ["cpu3c"],
    });
    expect(await problem(v1.updateEndpoint(created.id, { cpuFlavorIds: [] }))).toEqual({
      status: 400,
      detail: "cpuFlavorIds must list at least one CPU flavor for a CPU endpoint (computeType CPU).",
      errors: [],
    });
    const updated = await v1.updateEndpoint(created.id, {
      cpuFlavorIds: ["cpu5c"],
      vcpuCount: 8,
      gpuTypeIds: [L4],
    });
    expect(updated).toEqual({
      ...created,
      cpuFlavorIds: ["cpu5c"],
      vcpuCount: 8,
      instanceIds: ["cpu5c-8-16"],
    });
  });

  it("answers 404 for an unknown id", async () => {
    expect(await problem(v1.updateEndpoint("nope", { name: "x" }))).toEqual({
      status: 404,
      detail: "Endpoint 'nope' was not found.",
      errors: [],
    });
  });
});

describe("DELETE /v1/endpoints/:id", () => {
  it("answers 204, removes the endpoint and its jobs, and 404 the second time", async () => {
    const doomed = await v1.createEndpoint({ templateId: "runpod-worker-sdxl", gpuTypeIds: [L4] });
    const kept = await v1.createEndpoint({ templateId: "vllm-worker", gpuTypeIds: [A40] });
    const doomedJob = await v1.runJob(doomed.id, { n: 1 });
    const keptJob = await v1.runJob(kept.id, { n: 2 });

    expect(await v1.deleteEndpoint(doomed.id)).toBeUndefined();
    expect(h.emu.control.requests().entries.at(-1)).toMatchObject({
      route: "DELETE /v1/endpoints/:id",
      status: 204,
    });

    expect(await v1.listEndpoints()).toEqual([kept]);
    expect(h.emu.control.snapshot().jobs.map((j) => j.id)).toEqual([keptJob.id]);
    expect(await problem(v1.getJobStatus(doomed.id, doomedJob.id))).toEqual({
      status: 404,
      detail: `Endpoint '${doomed.id}' was not found.`,
      errors: [],
    });
    expect(await problem(v1.deleteEndpoint(doomed.id))).toEqual({
      status: 404,
      detail: `Endpoint '${doomed.id}' was not found.`,
      errors: [],
    });
  });
});

describe("network volumes attached to an endpoint", () => {
  it("cannot be deleted while attached, by networkVolumeId or networkVolumeIds", async () => {
    const single = await v1.createEndpoint({
      templateId: "runpod-worker-sdxl",
      gpuTypeIds: [L4],
      networkVolumeId: "nv-tx3-datasets",
    });
    const listed = await v1.createEndpoint({
      templateId: "vllm-worker",
      gpuTypeIds: [A40],
      networkVolumeIds: ["nv-ro1-models"],
    });
    const attached = (volume: string, endpoint: string) => ({
      status: 409,
      detail: `Network volume '${volume}' is attached to endpoint '${endpoint}'; detach or delete it first.`,
      errors: [],
    });
    expect(await problem(v1.deleteNetworkVolume("nv-tx3-datasets"))).toEqual(
      attached("nv-tx3-datasets", single.id),
    );
    expect(await problem(v1.deleteNetworkVolume("nv-ro1-models"))).toEqual(
      attached("nv-ro1-models", listed.id),
    );
    await v1.deleteEndpoint(listed.id);
    await v1.deleteNetworkVolume("nv-ro1-models");
    expect((await v1.listNetworkVolumes()).map((v) => v.id)).toEqual(["nv-tx3-datasets"]);
  });
});
