/**
 * Billing under base_url (`/v2/billing`, `/pods`, `/serverless`, `/endpoints`,
 * `/network-volumes`, `/clusters`), over raw HTTP, from the seeded usage history: the window
 * (startTime/endTime snapped to buckets, lastN, defaults), one record per resource per bucket,
 * the description's amount components, filters, metadata, and every 4xx.
 *
 * Emulator time is 2026-11-21T12:00:00Z throughout (frozen). The default seed's pods bill
 * hourly: pod-hist-trainer (H100) $2.979 GPU + $0.011 disk every hour; pod-hist-notebook (4090)
 * $0.6873 + $0.0027 in the first 10 hours of each day; pod-hist-cpu $0.1186 CPU + $0.0014 disk
 * from 2026-11-11; the Ray cluster $47.84 GPU + $0.0137 disk + $0.05 networking an hour from
 * 2026-11-17.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorLib, START } from "../support/emulator.js";
import { http, problem } from "../support/http.js";

type Emulator = Awaited<ReturnType<typeof emulatorLib.startEmulator>>;
let emu: Emulator;
let custom: Emulator;
let c: ReturnType<typeof http>;
let cc: ReturnType<typeof http>;

/** A small hand-made history: every family, amounts easy to add up. */
const CUSTOM_BILLING = {
  pods: [
    { time: "2026-11-19T23:00:00Z", podId: "pa", gpuTypeId: "NVIDIA A40", amount: 2 },
    {
      time: "2026-11-20T01:00:00Z",
      podId: "pa",
      gpuTypeId: "NVIDIA A40",
      amount: 1,
      gpuAmount: 0.9,
      cpuAmount: 0,
      diskAmount: 0.1,
    },
    // No components: the whole amount is CPU compute, the row's type being a CPU flavor.
    { time: "2026-11-20T02:00:00Z", podId: "pb", gpuTypeId: "cpu3c", amount: 0.5 },
  ],
  endpoints: [
    {
      time: "2026-11-20T03:00:00Z",
      endpointId: "ea",
      amount: 0.3,
      gpuAmount: 0.2,
      cpuAmount: 0,
      diskAmount: 0.05,
      feeAmount: 0.05,
    },
    { time: "2026-11-20T04:00:00Z", endpointId: "eb", amount: 0.7 },
  ],
  networkVolumes: [
    { time: "2026-11-20T00:00:00Z", networkVolumeId: "va", amount: 0.4, highPerformanceStorageAmount: 0.1 },
    { time: "2026-11-20T00:00:00Z", networkVolumeId: "vb", amount: 0.2 },
  ],
  publicEndpoints: [{ time: "2026-11-20T05:00:00Z", endpointId: "flux", amount: 0.25 }],
  clusters: [
    {
      time: "2026-11-20T06:00:00Z",
      clusterId: "ca",
      amount: 10,
      gpuAmount: 9.5,
      diskAmount: 0.25,
      networkingAmount: 0.25,
    },
  ],
};

beforeAll(async () => {
  const options = {
    clockScale: 0,
    startTime: START,
    rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }],
  };
  emu = await emulatorLib.startEmulator(options);
  custom = await emulatorLib.startEmulator({ ...options, seed: { billing: CUSTOM_BILLING } });
  c = http(emu);
  cc = http(custom);
});
afterAll(async () => {
  await Promise.all([emu.close(), custom.close()]);
});

const DAY_20 = "startTime=2026-11-20T00:00:00Z&endTime=2026-11-21T00:00:00Z";
const day20 = { startTime: "2026-11-20T00:00:00Z", endTime: "2026-11-21T00:00:00Z" };

describe("GET /v2/billing/pods", () => {
  it("answers one record per pod per bucket, split into GPU, CPU and disk, with metadata", async () => {
    expect(await c.ok(c.get("base", `/v2/billing/pods?${DAY_20}`))).toEqual({
      records: [
        {
          ...day20,
          podId: "pod-hist-cpu",
          totalAmount: 2.88,
          gpuAmount: 0,
          cpuAmount: 2.8464,
          diskAmount: 0.0336,
        },
        {
          ...day20,
          podId: "pod-hist-notebook",
          totalAmount: 6.9,
          gpuAmount: 6.873,
          cpuAmount: 0,
          diskAmount: 0.027,
        },
        {
          ...day20,
          podId: "pod-hist-trainer",
          totalAmount: 71.76,
          gpuAmount: 71.496,
          cpuAmount: 0,
          diskAmount: 0.264,
        },
      ],
      metadata: {
        query: { ...day20, bucketSize: "day", podId: null },
        recordCount: 3,
        uniquePodCount: 3,
        totals: { totalAmount: 81.54, gpuAmount: 78.369, cpuAmount: 2.8464, diskAmount: 0.3246 },
      },
    });
  });

  it("narrows to one pod with podId, and gives every bucket a record, zero where it used nothing", async () => {
    const answer = await c.ok(
      c.get(
        "base",
        "/v2/billing/pods?bucketSize=hour&startTime=2026-11-20T08:00:00Z&endTime=2026-11-20T11:00:00Z&podId=pod-hist-notebook",
      ),
    );
    const hour = (h: number) => ({
      startTime: `2026-11-20T${String(h).padStart(2, "0")}:00:00Z`,
      endTime: `2026-11-20T${String(h + 1).padStart(2, "0")}:00:00Z`,
    });
    const used = { totalAmount: 0.69, gpuAmount: 0.6873, cpuAmount: 0, diskAmount: 0.0027 };
    expect(answer).toEqual({
      records: [
        { ...hour(8), podId: "pod-hist-notebook", ...used },
        { ...hour(9), podId: "pod-hist-notebook", ...used },
        {
          ...hour(10),
          podId: "pod-hist-notebook",
          totalAmount: 0,
          gpuAmount: 0,
          cpuAmount: 0,
          diskAmount: 0,
        },
      ],
      metadata: {
        query: {
          startTime: "2026-11-20T08:00:00Z",
          endTime: "2026-11-20T11:00:00Z",
          bucketSize: "hour",
          podId: "pod-hist-notebook",
        },
        recordCount: 3,
        uniquePodCount: 1,
        totals: { totalAmount: 1.38, gpuAmount: 1.3746, cpuAmount: 0, diskAmount: 0.0054 },
      },
    });
  });

  it("answers no records for a pod without usage, echoing the filter", async () => {
    const answer = await c.ok(c.get("base", `/v2/billing/pods?${DAY_20}&podId=nope`));
    expect(answer).toEqual({
      records: [],
      metadata: {
        query: { ...day20, bucketSize: "day", podId: "nope" },
        recordCount: 0,
        uniquePodCount: 0,
        totals: { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0 },
      },
    });
  });
});

describe("the window", () => {
  const query = async (qs: string) =>
    (await c.ok(c.get("base", `/v2/billing/endpoints?${qs}`))).metadata.query;

  it.each([
    [
      "snaps startTime down and endTime up to their buckets",
      "startTime=2026-11-20T05:30:00Z&endTime=2026-11-20T18:10:00Z",
      "2026-11-20T00:00:00Z",
      "2026-11-21T00:00:00Z",
      "day",
    ],
    [
      "reads a lowercase t and z, and an offset whose + arrived as a space",
      "startTime=2026-11-20t05:30:00z&endTime=2026-11-21T01:00:00+02:00",
      "2026-11-20T00:00:00Z",
      "2026-11-21T00:00:00Z",
      "day",
    ],
    [
      "keeps an endTime already on a boundary",
      "bucketSize=hour&startTime=2026-11-20T05:00:00Z&endTime=2026-11-20T07:00:00Z",
      "2026-11-20T05:00:00Z",
      "2026-11-20T07:00:00Z",
      "hour",
    ],
    [
      "defaults to 30 days back until now, snapped",
      "",
      "2026-10-22T00:00:00Z",
      "2026-11-22T00:00:00Z",
      "day",
    ],
    [
      "lastN: the last N buckets ending with the current one",
      "lastN=2",
      "2026-11-20T00:00:00Z",
      "2026-11-22T00:00:00Z",
      "day",
    ],
    [
      "lastN with weeks (starting on Monday)",
      "lastN=1&bucketSize=week",
      "2026-11-16T00:00:00Z",
      "2026-11-23T00:00:00Z",
      "week",
    ],
    [
      "lastN with months",
      "lastN=3&bucketSize=month",
      "2026-09-01T00:00:00Z",
      "2026-12-01T00:00:00Z",
      "month",
    ],
    [
      "a year bucket",
      "bucketSize=year&startTime=2026-03-01T00:00:00Z&endTime=2026-04-01T00:00:00Z",
      "2026-01-01T00:00:00Z",
      "2027-01-01T00:00:00Z",
      "year",
    ],
  ])("%s", async (_name, qs, startTime, endTime, bucketSize) => {
    expect(await query(qs)).toEqual({ startTime, endTime, bucketSize });
  });

  it("answers records for every bucket of the default window (31 days, one per bucket)", async () => {
    const answer = await c.ok(c.get("base", "/v2/billing/endpoints"));
    expect([answer.records.length, answer.metadata.recordCount]).toEqual([31, 31]);
  });

  it.each<[string, string, string[]]>([
    [
      "an unknown bucket size",
      "bucketSize=minute",
      ['query.bucketSize: expected one of "hour", "day", "week", "month", "year"'],
    ],
    ["lastN 0", "lastN=0", ["query.lastN: expected an integer >= 1"]],
    ["lastN not a number", "lastN=ten", ["query.lastN: expected an integer >= 1"]],
    [
      "bad times, all reported",
      "startTime=yesterday&endTime=2026-11-20",
      [
        "query.startTime: expected an RFC 3339 date-time such as 2026-11-01T00:00:00Z",
        "query.endTime: expected an RFC 3339 date-time such as 2026-11-01T00:00:00Z",
      ],
    ],
  ])("answers 422 for %s", async (_name, qs, errors) => {
    expect(await problem(c.get("base", `/v2/billing/pods?${qs}`))).toEqual({
      status: 422,
      detail: "Query parameters do not match the contract.",
      errors,
    });
  });

  it.each<[string, string, string]>([
    [
      "lastN with startTime",
      "lastN=2&startTime=2026-11-01T00:00:00Z",
      "lastN cannot be combined with startTime or endTime; send one or the other.",
    ],
    [
      "an end before the start",
      "startTime=2026-11-21T00:00:00Z&endTime=2026-11-20T00:00:00Z",
      "startTime must be before endTime.",
    ],
    [
      "more than 10000 buckets",
      "bucketSize=hour&startTime=2025-01-01T00:00:00Z",
      "The window holds more than 10000 hour buckets; narrow it or use a larger bucketSize.",
    ],
  ])("answers 400 for %s", async (_name, qs, detail) => {
    for (const route of ["", "/pods", "/serverless", "/endpoints", "/network-volumes", "/clusters"]) {
      expect(await problem(c.get("base", `/v2/billing${route}?${qs}`))).toEqual({
        status: 400,
        detail,
        errors: [],
      });
    }
  });
});

describe("the other families", () => {
  it("/serverless: per endpoint, GPU, CPU, disk and platform fee; serverlessId narrows", async () => {
    const all = await cc.ok(cc.get("base", `/v2/billing/serverless?${DAY_20}`));
    expect(all.records).toEqual([
      {
        ...day20,
        serverlessId: "ea",
        totalAmount: 0.3,
        gpuAmount: 0.2,
        cpuAmount: 0,
        diskAmount: 0.05,
        feeAmount: 0.05,
      },
      {
        ...day20,
        serverlessId: "eb",
        totalAmount: 0.7,
        gpuAmount: 0.7,
        cpuAmount: 0,
        diskAmount: 0,
        feeAmount: 0,
      },
    ]);
    const one = await cc.ok(cc.get("base", `/v2/billing/serverless?${DAY_20}&serverlessId=eb`));
    expect(one.metadata).toEqual({
      query: { ...day20, bucketSize: "day", serverlessId: "eb" },
      recordCount: 1,
      uniqueServerlessCount: 1,
      totals: { totalAmount: 0.7, gpuAmount: 0.7, cpuAmount: 0, diskAmount: 0, feeAmount: 0 },
    });
  });

  it("/network-volumes: per volume, standard and high-performance storage", async () => {
    expect(await cc.ok(cc.get("base", `/v2/billing/network-volumes?${DAY_20}`))).toEqual({
      records: [
        {
          ...day20,
          networkVolumeId: "va",
          totalAmount: 0.4,
          standardAmount: 0.3,
          highPerformanceAmount: 0.1,
        },
        { ...day20, networkVolumeId: "vb", totalAmount: 0.2, standardAmount: 0.2, highPerformanceAmount: 0 },
      ],
      metadata: {
        query: { ...day20, bucketSize: "day", networkVolumeId: null },
        recordCount: 2,
        uniqueNetworkVolumeCount: 2,
        totals: { totalAmount: 0.6, standardAmount: 0.5, highPerformanceAmount: 0.1 },
      },
    });
  });

  it("/clusters: per cluster, GPU, disk and networking (no CPU)", async () => {
    expect(await c.ok(c.get("base", `/v2/billing/clusters?${DAY_20}&clusterId=clu-demo-ray`))).toEqual({
      records: [
        {
          ...day20,
          clusterId: "clu-demo-ray",
          totalAmount: 1149.6888,
          gpuAmount: 1148.16,
          diskAmount: 0.3288,
          networkingAmount: 1.2,
        },
      ],
      metadata: {
        query: { ...day20, bucketSize: "day", clusterId: "clu-demo-ray" },
        recordCount: 1,
        uniqueClusterCount: 1,
        totals: { totalAmount: 1149.6888, gpuAmount: 1148.16, diskAmount: 0.3288, networkingAmount: 1.2 },
      },
    });
  });

  it("/endpoints: public (hosted model) endpoints, one total per bucket, no filter", async () => {
    expect(await cc.ok(cc.get("base", `/v2/billing/endpoints?${DAY_20}`))).toEqual({
      records: [{ ...day20, totalAmount: 0.25 }],
      metadata: { query: { ...day20, bucketSize: "day" }, recordCount: 1, totals: { totalAmount: 0.25 } },
    });
  });

  it("/v2/billing: every family's components per bucket, fully prefixed, and their totals", async () => {
    const zero = {
      podGpuAmount: 0,
      podCpuAmount: 0,
      podDiskAmount: 0,
      serverlessGpuAmount: 0,
      serverlessCpuAmount: 0,
      serverlessDiskAmount: 0,
      serverlessFeeAmount: 0,
      storageStandardAmount: 0,
      storageHighPerformanceAmount: 0,
      endpointAmount: 0,
      clusterGpuAmount: 0,
      clusterDiskAmount: 0,
      clusterNetworkingAmount: 0,
    };
    const day20Amounts = {
      podGpuAmount: 0.9,
      podCpuAmount: 0.5,
      podDiskAmount: 0.1,
      serverlessGpuAmount: 0.9,
      serverlessCpuAmount: 0,
      serverlessDiskAmount: 0.05,
      serverlessFeeAmount: 0.05,
      storageStandardAmount: 0.5,
      storageHighPerformanceAmount: 0.1,
      endpointAmount: 0.25,
      clusterGpuAmount: 9.5,
      clusterDiskAmount: 0.25,
      clusterNetworkingAmount: 0.25,
    };
    expect(
      await cc.ok(cc.get("base", "/v2/billing?startTime=2026-11-19T00:00:00Z&endTime=2026-11-21T00:00:00Z")),
    ).toEqual({
      records: [
        {
          startTime: "2026-11-19T00:00:00Z",
          endTime: "2026-11-20T00:00:00Z",
          totalAmount: 2,
          ...zero,
          podGpuAmount: 2,
        },
        { ...day20, totalAmount: 13.35, ...day20Amounts },
      ],
      metadata: {
        query: { startTime: "2026-11-19T00:00:00Z", endTime: "2026-11-21T00:00:00Z", bucketSize: "day" },
        recordCount: 2,
        totals: { totalAmount: 15.35, ...day20Amounts, podGpuAmount: 2.9 },
      },
    });
  });
});
