/** Program-side functions: the catalog, placement candidates and jobs, against the emulator. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { providerLib } from "../support/provider.js";

const {
  getGpuTypes,
  getCpuFlavors,
  getDataCenters,
  getPublicTemplates,
  placementCandidates,
  runSync,
  run,
  getJobStatus,
  waitForJob,
  JobFailedError,
} = providerLib;

let emu: RunningEmulator;
const saved = { ...process.env };
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: 50 });
  // Outside a Pulumi program the functions read RUNPOD_* variables.
  Object.assign(process.env, emu.env());
});
afterAll(async () => {
  process.env = saved;
  await emu.close();
});

describe("catalog functions", () => {
  it("reads GPU types with stock, CPU flavors, data centers and public templates", async () => {
    const [gpus, cpus, dcs, templates] = await Promise.all([
      getGpuTypes({ minCudaVersion: "12.8" }),
      getCpuFlavors(),
      getDataCenters({ regions: ["ASIA"] }),
      getPublicTemplates(),
    ]);
    const h100 = gpus.find((g) => g.id === "NVIDIA H100 80GB HBM3");
    expect(h100?.dataCenters?.map((d) => d.id)).toEqual(["US-TX-3", "US-KS-2", "EU-RO-1"]);
    expect([
      cpus.length,
      dcs.map((d) => [d.id, d.gpuAvailability?.length, d.cpuAvailability]),
      templates.length,
    ]).toEqual([5, [["AP-JP-1", 2, undefined]], 3]);
  });

  it("orders candidates: availability first (NONE kept, last), then GPU order, then region order", async () => {
    const candidates = await placementCandidates({
      gpuTypeIds: ["NVIDIA A40", "NVIDIA GeForce RTX 4090"],
      regions: ["EUROPE", "NORTH_AMERICA"],
    });
    expect(candidates).toEqual([
      { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA A40" },
      { dataCenterId: "EUR-IS-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      { dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      { dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA A40" },
      { dataCenterId: "EU-RO-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      { dataCenterId: "US-GA-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      { dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA A40" },
    ]);
  });

  it("honours CUDA constraints and a minimum availability", async () => {
    const exact = await placementCandidates({
      gpuTypeIds: ["NVIDIA H100 80GB HBM3"],
      allowedCudaVersions: ["13.0"],
    });
    const floor = await placementCandidates({
      gpuTypeIds: ["NVIDIA A100 80GB PCIe"],
      minCudaVersion: "12.5",
    });
    const high = await placementCandidates({
      gpuTypeIds: ["NVIDIA GeForce RTX 4090"],
      minAvailability: "HIGH",
    });
    expect([exact, floor, high]).toEqual([
      [{ dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA H100 80GB HBM3" }],
      [{ dataCenterId: "EU-SE-1", gpuTypeId: "NVIDIA A100 80GB PCIe" }],
      [
        { dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA GeForce RTX 4090" },
        { dataCenterId: "EUR-IS-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
        { dataCenterId: "OC-AU-1", gpuTypeId: "NVIDIA GeForce RTX 4090" },
      ],
    ]);
  });

  it("gives CPU candidates by data center, those without stock last, or left out when a minimum is asked for", async () => {
    // cpu3c has no free vCPUs in EU-RO-1 in the default seed.
    const all = await placementCandidates({ cpuFlavorId: "cpu3c", regions: ["EUROPE"] });
    const stocked = await placementCandidates({
      cpuFlavorId: "cpu3c",
      regions: ["EUROPE"],
      minAvailability: "LOW",
    });
    expect([all, stocked]).toEqual([
      [{ dataCenterId: "EU-SE-1" }, { dataCenterId: "EU-RO-1" }],
      [{ dataCenterId: "EU-SE-1" }],
    ]);
  });
});

describe("job functions", () => {
  it("runSync returns an image model's output", async () => {
    const job = await runSync("black-forest-labs-flux-1-schnell", {
      prompt: "a fox",
      width: 512,
      height: 512,
      num_inference_steps: 4,
      guidance: 3.5,
    });
    expect([
      job.status,
      job.output?.image_url?.startsWith("https://"),
      typeof job.output?.cost,
      typeof job.executionTime,
    ]).toEqual(["COMPLETED", true, "number", "number"]);
  });

  it("run then waitForJob polls /status until COMPLETED", async () => {
    const submitted = await run("black-forest-labs-flux-1-schnell", { prompt: "a fox" });
    const first = await getJobStatus("black-forest-labs-flux-1-schnell", submitted.id);
    const done = await waitForJob("black-forest-labs-flux-1-schnell", submitted.id, { pollIntervalMs: 100 });
    expect([submitted.status, ["IN_QUEUE", "IN_PROGRESS"].includes(first.status), done.status]).toEqual([
      "IN_QUEUE",
      true,
      "COMPLETED",
    ]);
  });

  it("a FAILED job is a typed error carrying the job object", async () => {
    const err = await runSync("black-forest-labs-flux-1-schnell", { prompt: "x", fail: true }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JobFailedError);
    const failed = err as InstanceType<typeof JobFailedError>;
    expect([failed.code, failed.job.status, failed.endpointId]).toEqual([
      "RUNPOD_JOB_FAILED",
      "FAILED",
      "black-forest-labs-flux-1-schnell",
    ]);
  });

  it("waitForJob gives up at its deadline with the last status", async () => {
    emu.control.setSettings({ jobQueueMs: 3_600_000 });
    const submitted = await run("black-forest-labs-flux-1-schnell", { prompt: "x" });
    const err = await waitForJob("black-forest-labs-flux-1-schnell", submitted.id, {
      timeoutMs: 300,
      pollIntervalMs: 50,
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    emu.control.setSettings({ jobQueueMs: 500 });
    expect(err?.message).toBe(
      `Job ${submitted.id} on endpoint black-forest-labs-flux-1-schnell did not finish in time (last status IN_QUEUE).`,
    );
  });
});
