/**
 * Serverless endpoints v2 under base_url (`/v2/serverless`), over raw HTTP: shapes and defaults of
 * the v2 description, every 4xx rule, deletes, and the network volumes endpoints hold.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";
import { queueEndpoint, queueUrls, WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const L4 = "NVIDIA L4";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const A40 = "NVIDIA A40";
const ID = /^[a-z0-9]{14}$/;
const QUEUE = { type: "QUEUE_DELAY", queueDelay: 4 };

const h = frozenEmulatorForAllTests({ reset: true, seed: WITHOUT_HISTORY_RESOURCES });
const c = http(h);
const iso = (offset = 0) => new Date(h.t0 + offset).toISOString();

type Body = Record<string, unknown>;
const create = (body: Body) => c.ok(c.post("base", "/v2/serverless", body));
const read = (id: string) => c.ok(c.get("base", `/v2/serverless/${id}`));
const update = (id: string, body: Body) => c.ok(c.patch("base", `/v2/serverless/${id}`, body));
const minimal = (over: Body = {}): Body => queueEndpoint({ name: "gen", image: "acme/gen:1", ...over });

describe("POST /v2/serverless", () => {
  it("answers 201 with the Endpoint, the description's defaults filled in", async () => {
    const res = await c.post("base", "/v2/serverless", minimal());
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(id).toMatch(ID);
    expect(res.body).toEqual({
      id,
      name: "gen",
      type: "QUEUE",
      requestUrls: queueUrls(h.emu.serverlessUrl, id),
      image: "acme/gen:1",
      args: "",
      entrypoint: [],
      cmd: [],
      disk: 20,
      ports: [],
      env: {},
      registry: null,
      gpu: { pools: ["ADA_24"], count: 1, allowedCudaVersions: [], minCudaVersion: null },
      workers: { min: 0, max: 3, idleTimeout: 10 },
      scaling: QUEUE,
      dataCenterIds: [],
      networkVolumes: [],
      timeout: 300_000,
      flashboot: "OFF",
      createdAt: iso(),
    });
    expect(await read(id)).toEqual(res.body);
    expect(await c.ok(c.get("base", "/v2/serverless"))).toEqual({ endpoints: [res.body] });
  });

  it("keeps every field it is given, the command as args plus entrypoint and cmd", async () => {
    const created = await create({
      name: "full",
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 },
      image: "acme/gen:2",
      entrypoint: ["python"],
      cmd: ["-m", "handler"],
      disk: 40,
      ports: ["8000/http"],
      env: { MODEL: "sdxl" },
      gpu: {
        pools: ["ADA_24", "AMPERE_48"],
        excludedTypes: [` ${L4}`],
        count: 2,
        minCudaVersion: "12.4",
        allowedCudaVersions: [],
      },
      workers: { min: 1, max: 5, idleTimeout: 60 },
      dataCenterIds: ["US-TX-3", "EU-RO-1"],
      networkVolumes: ["nv-tx3-datasets"],
      timeout: 30_000,
      flashboot: "PRIORITY_FLASHBOOT",
    });
    expect(created).toEqual({
      id: created.id,
      name: "full",
      type: "QUEUE",
      requestUrls: queueUrls(h.emu.serverlessUrl, created.id),
      image: "acme/gen:2",
      args: '{"entrypoint":["python"],"cmd":["-m","handler"]}',
      entrypoint: ["python"],
      cmd: ["-m", "handler"],
      disk: 40,
      ports: ["8000/http"],
      env: { MODEL: "sdxl" },
      registry: null,
      // Surrounding whitespace of an excluded type is trimmed.
      gpu: {
        pools: ["ADA_24", "AMPERE_48"],
        excludedTypes: [L4],
        count: 2,
        allowedCudaVersions: [],
        minCudaVersion: "12.4",
      },
      workers: { min: 1, max: 5, idleTimeout: 60 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 },
      dataCenterIds: ["US-TX-3", "EU-RO-1"],
      networkVolumes: ["nv-tx3-datasets"],
      timeout: 30_000,
      flashboot: "PRIORITY_FLASHBOOT",
      createdAt: iso(),
    });
  });

  it("takes the container settings from a serverless template once, body fields winning, env merged", async () => {
    const template = await c.ok(
      c.post("base", "/v2/templates", {
        name: "worker",
        image: "acme/worker:1",
        args: "python handler.py",
        disk: 12,
        ports: ["8000/http"],
        env: { A: "template", B: "template" },
        serverless: true,
        allowedCudaVersions: ["12.4", "12.8"],
      }),
    );
    const created = await create({
      name: "from-template",
      type: "QUEUE",
      scaling: QUEUE,
      templateId: template.id,
      disk: 25,
      env: { B: "body", C: "body" },
      gpu: { pools: ["ADA_24"] },
    });
    expect(created).toMatchObject({
      image: "acme/worker:1",
      args: "python handler.py",
      entrypoint: [],
      cmd: ["python", "handler.py"],
      disk: 25,
      ports: ["8000/http"],
      env: { A: "template", B: "body", C: "body" },
      // The template's CUDA set seeds the GPU block the body left without one.
      gpu: { pools: ["ADA_24"], count: 1, allowedCudaVersions: ["12.4", "12.8"], minCudaVersion: null },
    });
    // A floor in the body keeps the template's set out (it would make the exclusive pair).
    const floored = await create({
      name: "floor",
      type: "QUEUE",
      scaling: QUEUE,
      templateId: template.id,
      gpu: { pools: ["ADA_24"], minCudaVersion: "12.6" },
    });
    expect(floored.gpu).toEqual({
      pools: ["ADA_24"],
      count: 1,
      allowedCudaVersions: [],
      minCudaVersion: "12.6",
    });
    // One-time source: a later template edit does not reach the endpoint.
    await c.ok(c.patch("base", `/v2/templates/${template.id}`, { image: "acme/worker:2" }));
    expect((await read(created.id)).image).toBe("acme/worker:1");
  });

  it("creates a CPU endpoint: memory from the flavor's RAM multiplier, no gpu block", async () => {
    const created = await create({
      name: "cpu",
      type: "QUEUE",
      scaling: QUEUE,
      image: "python:3.11-slim",
      cpu: [
        { id: "cpu5c", vcpuCount: 4 },
        { id: "cpu5g", vcpuCount: 8 },
      ],
    });
    expect(created.gpu).toBeUndefined();
    expect(created.cpu).toEqual([
      { id: "cpu5c", vcpuCount: 4, memory: 8 },
      { id: "cpu5g", vcpuCount: 8, memory: 32 },
    ]);
  });

  it("gives a LOAD_BALANCER endpoint a base and a health URL (HEALTH_CHECK_PATH honoured)", async () => {
    const lb = await create(
      minimal({ type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 4 } }),
    );
    const base = `${h.emu.serverlessUrl}/lb/${lb.id}`;
    expect([lb.type, lb.requestUrls, lb.workers]).toEqual([
      "LOAD_BALANCER",
      { base, health: `${base}/ping` },
      // idleTimeout applies to load balancers scaling on request count.
      { min: 0, max: 3, idleTimeout: 10 },
    ]);
    const custom = await create(
      minimal({
        type: "LOAD_BALANCER",
        scaling: { type: "REQUEST_COUNT", requestCount: 1 },
        env: { HEALTH_CHECK_PATH: "/healthz" },
        workers: { idleTimeout: 30 },
      }),
    );
    expect(custom.requestUrls.health).toBe(`${h.emu.serverlessUrl}/lb/${custom.id}/healthz`);
  });

  it("omits idleTimeout for a QUEUE endpoint scaling on request count, and refuses one sent", async () => {
    const created = await create(minimal({ scaling: { type: "REQUEST_COUNT", requestCount: 2 } }));
    expect(created.workers).toEqual({ min: 0, max: 3 });
    expect(
      await problem(
        c.post(
          "base",
          "/v2/serverless",
          minimal({ scaling: { type: "REQUEST_COUNT", requestCount: 2 }, workers: { idleTimeout: 5 } }),
        ),
      ),
    ).toEqual({
      status: 400,
      detail:
        "workers.idleTimeout does not apply to a QUEUE endpoint scaling on REQUEST_COUNT; leave it out.",
      errors: [],
    });
  });

  it.each<[string, Body, string[]]>([
    ["an unknown property", minimal({ gpuIds: "ADA_24" }), ["$: additional properties 'gpuIds' not allowed"]],
    [
      "no name, type or scaling",
      { image: "x", gpu: { pools: ["ADA_24"] } },
      [
        "$.name: required property is missing",
        "$.type: required property is missing",
        "$.scaling: required property is missing",
      ],
    ],
    [
      "neither image nor templateId",
      { name: "x", type: "QUEUE", scaling: QUEUE, gpu: { pools: ["ADA_24"] } },
      ["$: required property 'image' is missing (it is required unless templateId is set)"],
    ],
    [
      "a LOAD_BALANCER scaling on queue delay",
      minimal({ type: "LOAD_BALANCER" }),
      ['$.scaling.type: expected one of "REQUEST_COUNT" (LOAD_BALANCER endpoints scale on request count)'],
    ],
    [
      "an unknown scaler",
      minimal({ scaling: { type: "GPU_UTIL" } }),
      ['$.scaling.type: expected one of "QUEUE_DELAY", "REQUEST_COUNT"'],
    ],
    [
      "a queue delay under 0.5",
      minimal({ scaling: { type: "QUEUE_DELAY", queueDelay: 0.4 } }),
      ["$.scaling.queueDelay: expected number >= 0.5"],
    ],
    [
      "an unknown flashboot mode",
      minimal({ flashboot: "ON" }),
      ['$.flashboot: expected one of "OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"'],
    ],
    ["empty pools", minimal({ gpu: { pools: [] } }), ["$.gpu.pools: expected length >= 1"]],
    [
      "a CUDA field on a CPU create",
      minimal({ gpu: undefined, cpu: [{ id: "cpu5c", vcpuCount: 4, minCudaVersion: "12.4" }] }),
      ["$.cpu[0]: additional properties 'minCudaVersion' not allowed"],
    ],
    [
      "a duplicate CPU configuration",
      minimal({
        gpu: undefined,
        cpu: [
          { id: "cpu5c", vcpuCount: 4 },
          { id: "cpu5c", vcpuCount: 4 },
        ],
      }),
      ["$.cpu: items must be unique"],
    ],
    [
      "an idleTimeout over an hour",
      minimal({ workers: { idleTimeout: 3601 } }),
      ["$.workers.idleTimeout: expected number <= 3600"],
    ],
    [
      "a malformed CUDA version",
      minimal({ gpu: { pools: ["ADA_24"], minCudaVersion: "12" } }),
      ["$.gpu.minCudaVersion: must be a CUDA version as major.minor, e.g. 12.4"],
    ],
  ])("answers 422 with errors[] for %s, storing nothing", async (_name, body, errors) => {
    expect(await problem(c.post("base", "/v2/serverless", body))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
    expect(await c.ok(c.get("base", "/v2/serverless"))).toEqual({ endpoints: [] });
  });

  it.each<[string, Body, number, string]>([
    [
      "both gpu and cpu",
      minimal({ cpu: [{ id: "cpu5c", vcpuCount: 4 }] }),
      400,
      "Exactly one of gpu or cpu must be set.",
    ],
    ["neither gpu nor cpu", minimal({ gpu: undefined }), 400, "Exactly one of gpu or cpu must be set."],
    [
      "args and cmd that disagree",
      minimal({ args: "python a.py", cmd: ["python", "b.py"] }),
      400,
      "args and cmd describe different commands; send one of them, or both describing the same command",
    ],
    [
      "an unknown template",
      minimal({ image: undefined, templateId: "nope" }),
      404,
      "Template 'nope' was not found or is not accessible.",
    ],
    [
      "an unknown pool",
      minimal({ gpu: { pools: ["ADA_24", "VOLTA_16"] } }),
      400,
      "gpu.pools: 'VOLTA_16' is not a serverless GPU pool; see the pool field of GET /v2/catalog/gpus.",
    ],
    [
      "an excluded type outside the pools",
      minimal({ gpu: { pools: ["ADA_24"], excludedTypes: [A40] } }),
      400,
      `gpu.excludedTypes: '${A40}' is not a GPU type in the selected pools (ADA_24).`,
    ],
    [
      "exclusions that leave no GPU type",
      minimal({ gpu: { pools: ["ADA_24"], excludedTypes: [RTX4090, L4] } }),
      400,
      "gpu.excludedTypes excludes every GPU type of the selected pools; keep at least one.",
    ],
    [
      "a CUDA set and a floor",
      minimal({ gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.4" } }),
      400,
      'gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion cannot be combined; use one of them, or send [] or "" to clear the other.',
    ],
    [
      "an unknown CPU flavor",
      minimal({ gpu: undefined, cpu: [{ id: "cpu9z", vcpuCount: 4 }] }),
      400,
      "cpu[0].id 'cpu9z' is not a CPU flavor; see GET /v2/catalog/cpus.",
    ],
    [
      "a vCPU count that is not a power of two",
      minimal({ gpu: undefined, cpu: [{ id: "cpu5c", vcpuCount: 6 }] }),
      400,
      "cpu[0].vcpuCount 6 must be a power of two.",
    ],
    [
      "a vCPU count outside the flavor's range",
      minimal({ gpu: undefined, cpu: [{ id: "cpu3m", vcpuCount: 32 }] }),
      400,
      "cpu[0].vcpuCount 32 is not valid for flavor cpu3m (2-16).",
    ],
    [
      "workers.min above workers.max",
      minimal({ workers: { min: 4 } }),
      400,
      "workers.min (4) cannot be greater than workers.max (3).",
    ],
    [
      "an unknown data center",
      minimal({ dataCenterIds: ["MARS-1"] }),
      400,
      "dataCenterIds: 'MARS-1' is not a data center; see GET /v2/catalog/datacenters.",
    ],
    [
      "an unknown network volume",
      minimal({ networkVolumes: ["nv-gone"] }),
      400,
      "networkVolumes: network volume 'nv-gone' does not exist.",
    ],
    [
      "an unknown registry credential",
      minimal({ registry: "reg-gone" }),
      400,
      "registry 'reg-gone' is not a registry credential; see GET /v2/registries.",
    ],
  ])("refuses %s (400 or 404), storing nothing", async (_name, body, status, detail) => {
    expect(await problem(c.post("base", "/v2/serverless", body))).toEqual({ status, detail, errors: [] });
    expect(await c.ok(c.get("base", "/v2/serverless"))).toEqual({ endpoints: [] });
  });

  it("answers 422 for a pod template", async () => {
    expect(
      await problem(
        c.post("base", "/v2/serverless", minimal({ image: undefined, templateId: "runpod-torch-v240" })),
      ),
    ).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ["$.templateId: template 'runpod-torch-v240' is not a serverless template"],
    });
  });
});

describe("PATCH /v2/serverless/{id}", () => {
  it("changes only what it is given", async () => {
    const created = await create(minimal({ gpu: { pools: ["ADA_24"], excludedTypes: [L4] } }));
    h.emu.control.advance(60_000);
    const updated = await update(created.id, {
      name: "renamed",
      workers: { max: 5 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 8 },
      timeout: 60_000,
      flashboot: "FLASHBOOT",
      gpu: { count: 2 },
    });
    expect(updated).toEqual({
      ...created,
      name: "renamed",
      workers: { min: 0, max: 5, idleTimeout: 10 },
      scaling: { type: "QUEUE_DELAY", queueDelay: 8 },
      timeout: 60_000,
      flashboot: "FLASHBOOT",
      gpu: { ...created.gpu, count: 2 },
    });
    expect(await read(created.id)).toEqual(updated);
    expect(await update(created.id, {})).toEqual(updated);
  });

  it('replaces the selection with pools (clearing exclusions not restated) and clears CUDA fields with [] and ""', async () => {
    const created = await create(
      minimal({
        gpu: { pools: ["ADA_24"], excludedTypes: [L4], minCudaVersion: "12.4", allowedCudaVersions: [] },
      }),
    );
    const onlyCuda = await update(created.id, { gpu: { minCudaVersion: "" } });
    expect(onlyCuda.gpu).toEqual({
      pools: ["ADA_24"],
      excludedTypes: [L4],
      count: 1,
      allowedCudaVersions: [],
      minCudaVersion: null,
    });
    const repooled = await update(created.id, {
      gpu: { pools: ["ADA_24", "AMPERE_48"], allowedCudaVersions: ["12.4"] },
    });
    expect(repooled.gpu).toEqual({
      pools: ["ADA_24", "AMPERE_48"],
      count: 1,
      allowedCudaVersions: ["12.4"],
      minCudaVersion: null,
    });
    expect(
      await problem(c.patch("base", `/v2/serverless/${created.id}`, { gpu: { minCudaVersion: "12.8" } })),
    ).toEqual({
      status: 400,
      detail:
        'gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion cannot be combined; use one of them, or send [] or "" to clear the other.',
      errors: [],
    });
    expect(
      (await update(created.id, { gpu: { minCudaVersion: "12.8", allowedCudaVersions: [] } })).gpu,
    ).toEqual({
      pools: ["ADA_24", "AMPERE_48"],
      count: 1,
      allowedCudaVersions: [],
      minCudaVersion: "12.8",
    });
  });

  it("hides idleTimeout after switching to request-count scaling and shows it again after switching back", async () => {
    const created = await create(minimal({ workers: { idleTimeout: 30 } }));
    const counted = await update(created.id, { scaling: { type: "REQUEST_COUNT", requestCount: 3 } });
    expect(counted.workers).toEqual({ min: 0, max: 3 });
    expect(
      await problem(c.patch("base", `/v2/serverless/${created.id}`, { workers: { idleTimeout: 20 } })),
    ).toMatchObject({
      status: 400,
    });
    const back = await update(created.id, { scaling: QUEUE });
    expect(back.workers).toEqual({ min: 0, max: 3, idleTimeout: 30 });
  });

  it("applies a template's container settings once, replacing the env with template plus body", async () => {
    const created = await create(minimal({ env: { OLD: "1" }, disk: 50 }));
    const updated = await update(created.id, { templateId: "vllm-worker", env: { EXTRA: "x" } });
    expect(updated).toMatchObject({
      image: "runpod/worker-v1-vllm:v2.4.0",
      disk: 30,
      env: { MODEL_NAME: "Qwen/Qwen2.5-7B-Instruct", EXTRA: "x" },
    });
  });

  it.each<[string, Body, Body, number, string | string[]]>([
    [
      "gpu on a CPU endpoint",
      minimal({ gpu: undefined, cpu: [{ id: "cpu5c", vcpuCount: 4 }] }),
      { gpu: { count: 2 } },
      400,
      "This is a CPU endpoint; its compute family is fixed at create (send cpu, or create a new endpoint).",
    ],
    [
      "cpu on a GPU endpoint",
      minimal(),
      { cpu: [{ id: "cpu5c", vcpuCount: 4 }] },
      400,
      "This is a GPU endpoint; its compute family is fixed at create (send gpu, or create a new endpoint).",
    ],
    [
      "gpu and cpu",
      minimal(),
      { gpu: { count: 2 }, cpu: [{ id: "cpu5c", vcpuCount: 4 }] },
      400,
      "Send gpu or cpu, not both.",
    ],
    [
      "queue-delay scaling on a load balancer",
      minimal({ type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 1 } }),
      { scaling: QUEUE },
      400,
      "scaling: LOAD_BALANCER endpoints scale on REQUEST_COUNT; QUEUE_DELAY is for QUEUE endpoints.",
    ],
    [
      "workers.min above the current max",
      minimal(),
      { workers: { min: 4 } },
      400,
      "workers.min (4) cannot be greater than workers.max (3).",
    ],
    [
      "an unknown template",
      minimal(),
      { templateId: "nope" },
      404,
      "Template 'nope' was not found or is not accessible.",
    ],
    [
      "an unknown registry",
      minimal(),
      { registry: "nope" },
      400,
      "registry 'nope' is not a registry credential; see GET /v2/registries.",
    ],
    ["the type", minimal(), { type: "LOAD_BALANCER" }, 422, ["$: additional properties 'type' not allowed"]],
    [
      "excludedTypes without pools",
      minimal(),
      { gpu: { excludedTypes: [L4] } },
      422,
      ["$.gpu.pools: required property is missing (excludedTypes requires pools)"],
    ],
  ])("refuses %s and changes nothing", async (_name, body, patch, status, detail) => {
    const created = await create(body);
    const answer = await problem(c.patch("base", `/v2/serverless/${created.id}`, patch));
    expect(answer).toEqual(
      Array.isArray(detail)
        ? { status, detail: "Request body does not match the contract.", errors: detail }
        : { status, detail, errors: [] },
    );
    expect(await read(created.id)).toEqual(created);
  });

  it("answers 404 for an unknown id", async () => {
    expect(await problem(c.patch("base", "/v2/serverless/nope", { name: "x" }))).toEqual({
      status: 404,
      detail: "Endpoint 'nope' was not found.",
      errors: [],
    });
  });
});

describe("DELETE /v2/serverless/{id}", () => {
  it("answers 204, removes the endpoint and its jobs, leaves the others, then 404", async () => {
    const doomed = await create(minimal({ name: "doomed" }));
    const kept = await create(minimal({ name: "kept" }));
    const listed = async () =>
      (await c.ok(c.get("base", "/v2/serverless"))).endpoints.map((e: { id: string }) => e.id);
    const doomedJob = await c.ok(c.post("serverless", `/v2/${doomed.id}/run`, { input: {} }));
    const keptJob = await c.ok(c.post("serverless", `/v2/${kept.id}/run`, { input: {} }));
    const before = await listed();
    expect((await c.del("base", `/v2/serverless/${doomed.id}`)).status).toBe(204);
    const gone = { status: 404, detail: `Endpoint '${doomed.id}' was not found.`, errors: [] };
    expect([
      before,
      await listed(),
      h.emu.control.snapshot().jobs.map((j) => j.id),
      await problem(c.get("serverless", `/v2/${doomed.id}/status/${doomedJob.id}`)),
      await problem(c.get("base", `/v2/serverless/${doomed.id}`)),
      await problem(c.del("base", `/v2/serverless/${doomed.id}`)),
    ]).toEqual([[doomed.id, kept.id], [kept.id], [keptJob.id], gone, gone, gone]);
  });
});

describe("network volumes attached to an endpoint", () => {
  it("cannot be deleted while attached, and can once the endpoint lets go of them", async () => {
    const attachedTo = await create(minimal({ networkVolumes: ["nv-tx3-datasets", "nv-ro1-models"] }));
    const deleteVolume = (id: string) => c.del("base", `/v2/network-volumes/${id}`);
    const attached = (volume: string) => ({
      status: 409,
      detail: `Network volume '${volume}' is attached to endpoint '${attachedTo.id}'; detach or delete it first.`,
      errors: [],
    });
    expect([
      await problem(deleteVolume("nv-tx3-datasets")),
      await problem(deleteVolume("nv-ro1-models")),
    ]).toEqual([attached("nv-tx3-datasets"), attached("nv-ro1-models")]);
    await update(attachedTo.id, { networkVolumes: ["nv-tx3-datasets"] });
    expect((await deleteVolume("nv-ro1-models")).status).toBe(204);
    await c.ok(c.del("base", `/v2/serverless/${attachedTo.id}`));
    expect((await deleteVolume("nv-tx3-datasets")).status).toBe(204);
    expect((await c.ok(c.get("base", "/v2/network-volumes"))).networkVolumes).toEqual([]);
  });
});

describe("workers and releases", () => {
  it("derives workers from jobs and workers.min on the emulator clock", async () => {
    const created = await create(minimal({ workers: { min: 1, max: 2, idleTimeout: 5 } }));
    const workers = () => c.ok(c.get("base", `/v2/serverless/${created.id}/workers`));
    const summary = (over: Body) => ({
      running: 0,
      idle: 0,
      initializing: 0,
      throttled: 0,
      unhealthy: 0,
      total: 1,
      ...over,
    });
    // The always-on worker initializes for provisioningMs + startingMs (2000 + 3000).
    const first = await workers();
    const id0 = first.workers[0]?.id;
    expect(id0).toMatch(ID);
    const worker = (over: Body) => ({
      id: id0,
      status: "IDLE",
      isStale: false,
      version: 1,
      gpuCount: 1,
      image: "acme/gen:1",
      uptimeSeconds: null,
      gpuTypeId: RTX4090,
      dataCenterId: "US-TX-3",
      startedAt: null,
      ...over,
    });
    expect(first).toEqual({
      workers: [worker({ status: "INITIALIZING" })],
      summary: summary({ initializing: 1 }),
      endpointVersion: 1,
    });
    h.emu.control.advance(5000);
    const readyAt = iso(5000);
    expect(await workers()).toEqual({
      workers: [worker({ uptimeSeconds: 0, startedAt: readyAt })],
      summary: summary({ idle: 1 }),
      endpointVersion: 1,
    });
    // Two jobs: round-robin over the two slots. Slot 1 cold-starts with its job.
    await c.ok(c.post("serverless", `/v2/${created.id}/run`, { input: { n: 1 } }));
    await c.ok(c.post("serverless", `/v2/${created.id}/run`, { input: { n: 2 } }));
    const busy = await workers();
    expect(busy.workers.map((w: Body) => w.status)).toEqual(["IDLE", "INITIALIZING"]);
    h.emu.control.advance(500);
    expect((await workers()).workers.map((w: Body) => w.status)).toEqual(["RUNNING", "RUNNING"]);
    // After the job (1500 ms) and idleTimeout (5 s) the job-started worker scales down.
    h.emu.control.advance(1500 + 4999);
    expect((await workers()).workers.map((w: Body) => w.status)).toEqual(["IDLE", "IDLE"]);
    h.emu.control.advance(1);
    expect((await workers()).summary).toEqual(summary({ idle: 1 }));
  });

  it("makes a release of a container change only, marks older workers stale, and reports the rollout", async () => {
    const created = await create(minimal({ workers: { min: 1, max: 1 } }));
    h.emu.control.advance(5000);
    await update(created.id, { workers: { max: 2 }, timeout: 1000 });
    await update(created.id, {
      image: "acme/gen:2",
      env: { A: "1" },
      gpu: { count: 2 },
      dataCenterIds: ["US-TX-3"],
    });
    const releases = await c.ok(c.get("base", `/v2/serverless/${created.id}/releases`));
    expect(releases).toEqual({
      endpointVersion: 2,
      rollout: { inProgress: true, workersOnLatest: 0, workersTotal: 1, percentOnLatest: 0 },
      releases: [
        {
          id: releases.releases[0].id,
          version: 2,
          source: "MANUAL",
          buildId: null,
          createdByUserId: expect.stringMatching(/^user_[0-9a-f]{27}$/),
          workerCount: 0,
          createdAt: iso(5000),
          diff: [
            { field: "template.imageName", old: "acme/gen:1", new: "acme/gen:2" },
            { field: "template.env", old: {}, new: { A: "1" } },
            { field: "gpuCount", old: 1, new: 2 },
            { field: "locations", old: "", new: "US-TX-3" },
          ],
        },
        {
          id: releases.releases[1].id,
          version: 1,
          source: "MANUAL",
          buildId: null,
          createdByUserId: expect.stringMatching(/^user_[0-9a-f]{27}$/),
          workerCount: 1,
          createdAt: iso(),
          diff: [],
        },
      ],
    });
    const { workers } = await c.ok(c.get("base", `/v2/serverless/${created.id}/workers`));
    expect(workers.map((w: Body) => [w.version, w.isStale, w.image])).toEqual([[1, true, "acme/gen:1"]]);
  });

  it("answers 404 for the workers and releases of an unknown endpoint", async () => {
    for (const path of ["workers", "releases"]) {
      expect((await c.get("base", `/v2/serverless/nope/${path}`)).status).toBe(404);
    }
  });
});
