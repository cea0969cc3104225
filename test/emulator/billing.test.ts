/**
 * The legacy billing history under rest_url (`/v1/billing/pods|endpoints|networkvolumes`), kept for
 * old clients, over raw HTTP (the provider's client speaks v2 only). Expected figures are worked out by hand from the default seed's hourly rows
 * (2026-11-01T00:00Z to 2026-11-20T23:00Z, a Sunday to a Friday):
 * - pods: pod-hist-trainer (H100) $2.99 every hour, 80 GB; pod-hist-notebook (RTX 4090) $0.69 in
 *   hours 0-9 of each day, 20 GB; pod-hist-cpu (cpu3c) $0.12 every hour from 2026-11-11, 10 GB;
 *   each row bills 3 600 000 ms.
 * - endpoints: ep-hist-sdxl every hour on workers 0-2 (RTX 4090), ep-hist-vllm every even hour on
 *   worker-9 (A100), with amounts varying by hour.
 * - network volumes: $0.0146 every hour for 150 GB, no high-performance storage.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";

const H100 = "NVIDIA H100 80GB HBM3";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const A100 = "NVIDIA A100 80GB PCIe";
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const h = frozenEmulatorForAllTests();

type V1Kind = "pods" | "endpoints" | "networkvolumes";
/** GET {rest_url}/v1/billing/{kind}?query, as runpodctl sends it. */
const v1Billing = (kind: V1Kind, query: Readonly<Record<string, string>>) => {
  const c = http(h.emu);
  return c.get(
    "rest",
    `/v1/billing/${kind}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ""}`,
  );
};
const records = async (kind: V1Kind, query: Readonly<Record<string, string>>) =>
  (await http(h.emu).ok(v1Billing(kind, query))) as Record<string, unknown>[];
const pods = (query: Record<string, string> = {}) => records("pods", query);
const endpoints = (query: Record<string, string> = {}) => records("endpoints", query);
const volumes = (query: Record<string, string> = {}) => records("networkvolumes", query);

describe("GET /v1/billing/pods", () => {
  it("defaults to daily buckets grouped by gpuTypeId, sorted by time then group", async () => {
    const records = await pods();
    // 10 days with two GPU types, then 10 days with the CPU pod as well.
    expect(records).toHaveLength(50);
    expect(records.slice(0, 2)).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 6.9,
        gpuTypeId: RTX4090,
        timeBilledMs: 10 * HOUR_MS,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 71.76,
        gpuTypeId: H100,
        timeBilledMs: DAY_MS,
        diskSpaceBilledGb: 80,
      },
    ]);
    expect(records.slice(20, 23)).toEqual([
      {
        time: "2026-11-11T00:00:00Z",
        amount: 6.9,
        gpuTypeId: RTX4090,
        timeBilledMs: 10 * HOUR_MS,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-11T00:00:00Z",
        amount: 71.76,
        gpuTypeId: H100,
        timeBilledMs: DAY_MS,
        diskSpaceBilledGb: 80,
      },
      {
        time: "2026-11-11T00:00:00Z",
        amount: 2.88,
        gpuTypeId: "cpu3c",
        timeBilledMs: DAY_MS,
        diskSpaceBilledGb: 10,
      },
    ]);
    expect(await pods({ bucketSize: "day", grouping: "gpuTypeId" })).toEqual(records);
    expect(await pods({ bucketSize: "", grouping: "" })).toEqual(records);
  });

  it("starts weeks on Monday: 2026-11-01 (a Sunday) falls in the week of 2026-10-26", async () => {
    expect(await pods({ bucketSize: "week" })).toEqual([
      {
        time: "2026-10-26T00:00:00Z",
        amount: 6.9,
        gpuTypeId: RTX4090,
        timeBilledMs: 36_000_000,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-10-26T00:00:00Z",
        amount: 71.76,
        gpuTypeId: H100,
        timeBilledMs: 86_400_000,
        diskSpaceBilledGb: 80,
      },
      {
        time: "2026-11-02T00:00:00Z",
        amount: 48.3,
        gpuTypeId: RTX4090,
        timeBilledMs: 252_000_000,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-02T00:00:00Z",
        amount: 502.32,
        gpuTypeId: H100,
        timeBilledMs: 604_800_000,
        diskSpaceBilledGb: 80,
      },
      {
        time: "2026-11-09T00:00:00Z",
        amount: 48.3,
        gpuTypeId: RTX4090,
        timeBilledMs: 252_000_000,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-09T00:00:00Z",
        amount: 502.32,
        gpuTypeId: H100,
        timeBilledMs: 604_800_000,
        diskSpaceBilledGb: 80,
      },
      {
        time: "2026-11-09T00:00:00Z",
        amount: 14.4,
        gpuTypeId: "cpu3c",
        timeBilledMs: 432_000_000,
        diskSpaceBilledGb: 10,
      },
      {
        time: "2026-11-16T00:00:00Z",
        amount: 34.5,
        gpuTypeId: RTX4090,
        timeBilledMs: 180_000_000,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-16T00:00:00Z",
        amount: 358.8,
        gpuTypeId: H100,
        timeBilledMs: 432_000_000,
        diskSpaceBilledGb: 80,
      },
      {
        time: "2026-11-16T00:00:00Z",
        amount: 14.4,
        gpuTypeId: "cpu3c",
        timeBilledMs: 432_000_000,
        diskSpaceBilledGb: 10,
      },
    ]);
  });

  it.each([
    ["month", "2026-11-01T00:00:00Z"],
    ["year", "2026-01-01T00:00:00Z"],
  ])("folds everything into one %s bucket per pod with grouping podId", async (bucketSize, time) => {
    expect(await pods({ bucketSize, grouping: "podId" })).toEqual([
      { time, amount: 28.8, podId: "pod-hist-cpu", timeBilledMs: 10 * DAY_MS, diskSpaceBilledGb: 10 },
      { time, amount: 138, podId: "pod-hist-notebook", timeBilledMs: 200 * HOUR_MS, diskSpaceBilledGb: 20 },
      { time, amount: 1435.2, podId: "pod-hist-trainer", timeBilledMs: 20 * DAY_MS, diskSpaceBilledGb: 80 },
    ]);
  });

  it("filters by podId and a [startTime, endTime) window, in hourly buckets", async () => {
    expect(
      await pods({
        bucketSize: "hour",
        grouping: "podId",
        podId: "pod-hist-notebook",
        startTime: "2026-11-03T08:00:00Z",
        endTime: "2026-11-03T12:00:00Z",
      }),
    ).toEqual([
      {
        time: "2026-11-03T08:00:00Z",
        amount: 0.69,
        podId: "pod-hist-notebook",
        timeBilledMs: HOUR_MS,
        diskSpaceBilledGb: 20,
      },
      {
        time: "2026-11-03T09:00:00Z",
        amount: 0.69,
        podId: "pod-hist-notebook",
        timeBilledMs: HOUR_MS,
        diskSpaceBilledGb: 20,
      },
    ]);
  });

  it("reads offsets and lowercase t/z in RFC 3339 times", async () => {
    const query = { grouping: "podId", podId: "pod-hist-trainer", endTime: "2026-11-04T00:00:00Z" };
    const expected = [
      {
        time: "2026-11-03T00:00:00Z",
        amount: 71.76,
        podId: "pod-hist-trainer",
        timeBilledMs: DAY_MS,
        diskSpaceBilledGb: 80,
      },
    ];
    expect(await pods({ ...query, startTime: "2026-11-03T02:00:00+02:00" })).toEqual(expected);
    expect(await pods({ ...query, startTime: "2026-11-02t19:00:00.000-05:00" })).toEqual(expected);
    expect(await pods({ ...query, startTime: "2026-11-03t00:00:00z" })).toEqual(expected);
  });

  it("filters by gpuTypeId", async () => {
    expect(await pods({ bucketSize: "month", grouping: "podId", gpuTypeId: "cpu3c" })).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 28.8,
        podId: "pod-hist-cpu",
        timeBilledMs: 10 * DAY_MS,
        diskSpaceBilledGb: 10,
      },
    ]);
    expect(await pods({ gpuTypeId: "NVIDIA B200" })).toEqual([]);
  });

  it("answers an empty array for an empty window", async () => {
    expect(await pods({ startTime: "2026-11-05T00:00:00Z", endTime: "2026-11-05T00:00:00Z" })).toEqual([]);
    expect(await pods({ startTime: "2027-01-01T00:00:00Z" })).toEqual([]);
  });
});

describe("GET /v1/billing/endpoints", () => {
  it("defaults to daily buckets grouped by endpointId", async () => {
    const records = await endpoints();
    expect(records).toHaveLength(40);
    expect(records.slice(0, 4)).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 3.0636,
        endpointId: "ep-hist-sdxl",
        timeBilledMs: 10_212_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 5.317,
        endpointId: "ep-hist-vllm",
        timeBilledMs: 6_996_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-02T00:00:00Z",
        amount: 3.2472,
        endpointId: "ep-hist-sdxl",
        timeBilledMs: 10_824_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-02T00:00:00Z",
        amount: 5.0616,
        endpointId: "ep-hist-vllm",
        timeBilledMs: 6_660_000,
        diskSpaceBilledGb: 0,
      },
    ]);
  });

  it("groups by podId (the workers)", async () => {
    expect(await endpoints({ bucketSize: "month", grouping: "podId" })).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 21.276,
        podId: "worker-0",
        timeBilledMs: 70_920_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 21.162,
        podId: "worker-1",
        timeBilledMs: 70_540_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 21.318,
        podId: "worker-2",
        timeBilledMs: 71_060_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T00:00:00Z",
        amount: 107.9808,
        podId: "worker-9",
        timeBilledMs: 142_080_000,
        diskSpaceBilledGb: 0,
      },
    ]);
  });

  it("groups by gpuTypeId and filters by one or several GPU types", async () => {
    const both = [
      {
        time: "2026-01-01T00:00:00Z",
        amount: 107.9808,
        gpuTypeId: A100,
        timeBilledMs: 142_080_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-01-01T00:00:00Z",
        amount: 63.756,
        gpuTypeId: RTX4090,
        timeBilledMs: 212_520_000,
        diskSpaceBilledGb: 0,
      },
    ];
    expect(await endpoints({ bucketSize: "year", grouping: "gpuTypeId" })).toEqual(both);
    expect(
      await endpoints({ bucketSize: "year", grouping: "gpuTypeId", gpuTypeId: `${A100},${RTX4090}` }),
    ).toEqual(both);
    expect(await endpoints({ bucketSize: "year", grouping: "gpuTypeId", gpuTypeId: RTX4090 })).toEqual([
      both[1],
    ]);
  });

  it("filters by endpointId in hourly buckets", async () => {
    expect(
      await endpoints({ bucketSize: "hour", endpointId: "ep-hist-vllm", endTime: "2026-11-01T05:00:00Z" }),
    ).toEqual([
      {
        time: "2026-11-01T00:00:00Z",
        amount: 0,
        endpointId: "ep-hist-vllm",
        timeBilledMs: 0,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T02:00:00Z",
        amount: 0.0806,
        endpointId: "ep-hist-vllm",
        timeBilledMs: 106_000,
        diskSpaceBilledGb: 0,
      },
      {
        time: "2026-11-01T04:00:00Z",
        amount: 0.1611,
        endpointId: "ep-hist-vllm",
        timeBilledMs: 212_000,
        diskSpaceBilledGb: 0,
      },
    ]);
  });
});

describe("GET /v1/billing/networkvolumes", () => {
  const record = (time: string, amount: number) => ({
    time,
    amount,
    diskSpaceBilledGb: 150,
    highPerformanceStorageAmount: 0,
    highPerformanceStorageDiskSpaceBilledGb: 0,
  });

  it("defaults to one record per day", async () => {
    const records = await volumes();
    expect(records).toHaveLength(20);
    expect(records[0]).toEqual(record("2026-11-01T00:00:00Z", 0.3504));
    expect(records[19]).toEqual(record("2026-11-20T00:00:00Z", 0.3504));
  });

  it("folds weeks and months", async () => {
    expect(await volumes({ bucketSize: "week" })).toEqual([
      record("2026-10-26T00:00:00Z", 0.3504),
      record("2026-11-02T00:00:00Z", 2.4528),
      record("2026-11-09T00:00:00Z", 2.4528),
      record("2026-11-16T00:00:00Z", 1.752),
    ]);
    expect(await volumes({ bucketSize: "month" })).toEqual([record("2026-11-01T00:00:00Z", 7.008)]);
  });

  it("honours the time window", async () => {
    expect(
      await volumes({
        bucketSize: "hour",
        startTime: "2026-11-20T22:00:00Z",
        endTime: "2026-11-21T00:00:00Z",
      }),
    ).toEqual([record("2026-11-20T22:00:00Z", 0.0146), record("2026-11-20T23:00:00Z", 0.0146)]);
  });
});

describe("bad parameters answer 400 naming the parameter", () => {
  const TIME_HINT = "must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z";
  it.each([
    [
      "pods",
      { bucketSize: "fortnight" },
      "bucketSize must be one of hour, day, week, month, year; got 'fortnight'.",
    ],
    [
      "networkvolumes",
      { bucketSize: "Day" },
      "bucketSize must be one of hour, day, week, month, year; got 'Day'.",
    ],
    ["pods", { grouping: "endpointId" }, "grouping must be one of podId, gpuTypeId; got 'endpointId'."],
    ["pods", { grouping: "gpuId" }, "grouping must be one of podId, gpuTypeId; got 'gpuId'."],
    [
      "endpoints",
      { grouping: "dataCenterId" },
      "grouping must be one of endpointId, podId, gpuTypeId; got 'dataCenterId'.",
    ],
    ["pods", { startTime: "yesterday" }, `startTime ${TIME_HINT}; got 'yesterday'.`],
    ["endpoints", { endTime: "2026-11-01" }, `endTime ${TIME_HINT}; got '2026-11-01'.`],
    ["pods", { startTime: "2026-11-01T00:00:00" }, `startTime ${TIME_HINT}; got '2026-11-01T00:00:00'.`],
    [
      "networkvolumes",
      { startTime: "2026-02-30T00:00:00Z" },
      `startTime ${TIME_HINT}; got '2026-02-30T00:00:00Z'.`,
    ],
    ["pods", { endTime: "2026-11-01T24:00:00Z" }, `endTime ${TIME_HINT}; got '2026-11-01T24:00:00Z'.`],
    [
      "pods",
      { startTime: "2026-11-02T00:00:00Z", endTime: "2026-11-01T00:00:00Z" },
      "startTime must not be after endTime.",
    ],
  ] as const)("%s %j", async (kind, query, detail) => {
    expect(await problem(v1Billing(kind, query))).toEqual({ status: 400, detail, errors: [] });
  });
});
