/**
 * `runpod-dynamic billing all|pods|serverless|network-volume` against the emulator's v2 billing
 * routes (`/v2/billing`, `/pods`, `/serverless`, `/network-volumes`), with the usage history
 * replaced by a small hand-made one about pods and endpoints created here, plus a pod and an
 * endpoint that no longer exist. Emulator time is frozen at 2026-11-21T12:00:00Z.
 *
 * 2026-11-20, hour by hour (amount = the components; the emulator sums them per resource and day):
 * - pods: trainer (H100) $3 twice (GPU 2.9 + disk 0.1); notebook (RTX 4090) $1 (0.9 + 0.1);
 *   scratch (RTX 4090) $0.5 (0.45 + 0.05); cpu (cpu3c) $0.25 (CPU 0.24 + disk 0.01); pod-gone
 *   (no such pod) $2 (1.9 + 0.1). On 2026-11-21 the trainer once more: $3.
 * - endpoints: vllm (AMPERE_80 = A100) $1 (GPU 0.8, disk 0.1, fee 0.1); sdxl (ADA_24 = RTX 4090 and
 *   L4) $0.5 (0.4, 0.05, 0.05); only4090 (ADA_24 without L4) $0.2 (0.16, 0.02, 0.02); tts (cpu3c)
 *   $0.1 (CPU 0.08, 0.01, 0.01); ep-gone (no such endpoint) $0.3 (0.24, 0.03, 0.03).
 * - network volumes va $0.4 (0.1 of it high-performance), vb $0.2; public endpoints $0.25;
 *   a cluster $6 (GPU 5, disk 0.5, networking 0.5).
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { errorText, queryOf } from "../support/cli.js";
import { cliHarnessForAllTests, runCommand } from "../support/cli-in-process.js";
import { START } from "../support/emulator.js";

const H100 = "NVIDIA H100 80GB HBM3";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const A100 = "NVIDIA A100 80GB PCIe";
const L4 = "NVIDIA L4";
const DAY1 = ["--start-time", "2026-11-20T00:00:00Z", "--end-time", "2026-11-21T00:00:00Z"];
const WINDOW1 = [
  ["startTime", "2026-11-20T00:00:00Z"],
  ["endTime", "2026-11-21T00:00:00Z"],
  ["bucketSize", "day"],
];
const BUCKET1 = { startTime: "2026-11-20T00:00:00Z", endTime: "2026-11-21T00:00:00Z" };
const BUCKET2 = { startTime: "2026-11-21T00:00:00Z", endTime: "2026-11-22T00:00:00Z" };

const h = cliHarnessForAllTests({ clockScale: 0, startTime: START });
const pod = { trainer: "", notebook: "", scratch: "", cpu: "" };
const ep = { vllm: "", sdxl: "", only4090: "", tts: "" };

const at = (hour: number) => `2026-11-20T${String(hour).padStart(2, "0")}:00:00Z`;
const podRow = (time: string, podId: string, gpu: number, cpu: number, disk: number) => ({
  time,
  podId,
  amount: gpu + cpu + disk,
  gpuAmount: gpu,
  cpuAmount: cpu,
  diskAmount: disk,
});
const endpointRow = (
  time: string,
  endpointId: string,
  gpu: number,
  cpu: number,
  disk: number,
  fee: number,
) => ({
  time,
  endpointId,
  amount: gpu + cpu + disk + fee,
  gpuAmount: gpu,
  cpuAmount: cpu,
  diskAmount: disk,
  feeAmount: fee,
});

beforeAll(async () => {
  const { api } = h;
  const container = { image: "acme/app:1" };
  pod.trainer = (await api.pods.create({ name: "trainer", ...container, gpu: { id: H100 } })).id;
  pod.notebook = (await api.pods.create({ name: "notebook", ...container, gpu: { id: RTX4090 } })).id;
  pod.scratch = (await api.pods.create({ name: "scratch", ...container, gpu: { id: RTX4090 } })).id;
  pod.cpu = (await api.pods.create({ name: "cpu", ...container, cpu: { id: "cpu3c", vcpuCount: 4 } })).id;
  const endpoint = async (name: string, compute: Record<string, unknown>) =>
    (
      await api.endpoints.create({
        name,
        type: "QUEUE",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        ...container,
        ...compute,
      })
    ).id;
  ep.vllm = await endpoint("vllm", { gpu: { pools: ["AMPERE_80"] } });
  ep.sdxl = await endpoint("sdxl", { gpu: { pools: ["ADA_24"] } });
  ep.only4090 = await endpoint("only4090", { gpu: { pools: ["ADA_24"], excludedTypes: [L4] } });
  ep.tts = await endpoint("tts", { cpu: [{ id: "cpu3c", vcpuCount: 4 }] });

  h.emu.state.seed.billing = {
    pods: [
      podRow(at(0), pod.trainer, 2.9, 0, 0.1),
      podRow(at(1), pod.trainer, 2.9, 0, 0.1),
      podRow(at(2), pod.notebook, 0.9, 0, 0.1),
      podRow(at(3), pod.scratch, 0.45, 0, 0.05),
      podRow(at(4), pod.cpu, 0, 0.24, 0.01),
      podRow(at(5), "pod-gone", 1.9, 0, 0.1),
      podRow("2026-11-21T01:00:00Z", pod.trainer, 2.9, 0, 0.1),
    ],
    endpoints: [
      endpointRow(at(0), ep.vllm, 0.8, 0, 0.1, 0.1),
      endpointRow(at(1), ep.sdxl, 0.4, 0, 0.05, 0.05),
      endpointRow(at(2), ep.only4090, 0.16, 0, 0.02, 0.02),
      endpointRow(at(3), ep.tts, 0, 0.08, 0.01, 0.01),
      endpointRow(at(4), "ep-gone", 0.24, 0, 0.03, 0.03),
    ],
    networkVolumes: [
      { time: at(0), networkVolumeId: "va", amount: 0.4, highPerformanceStorageAmount: 0.1 },
      { time: at(0), networkVolumeId: "vb", amount: 0.2 },
    ],
    publicEndpoints: [{ time: at(5), endpointId: "flux", amount: 0.25 }],
    clusters: [
      { time: at(6), clusterId: "ca", amount: 6, gpuAmount: 5, diskAmount: 0.5, networkingAmount: 0.5 },
    ],
  };
});
beforeEach(() => {
  h.emu.control.clearFaults();
});

/** The query of the first request sent. */
const firstQuery = () => queryOf(h.recorder.requests[0]?.url ?? "");
const byId =
  <T extends Record<string, unknown>>(key: string) =>
  (a: T, b: T) =>
    String(a[key]) < String(b[key]) ? -1 : 1;

type Json = Record<string, unknown>;
const POD_ZERO = { totalAmount: 0, gpuAmount: 0, cpuAmount: 0, diskAmount: 0 };
/** What each pod cost on 2026-11-20, as the API sums the rows above. */
const DAY1_COST = {
  trainer: { totalAmount: 6, gpuAmount: 5.8, cpuAmount: 0, diskAmount: 0.2 },
  notebook: { totalAmount: 1, gpuAmount: 0.9, cpuAmount: 0, diskAmount: 0.1 },
  scratch: { totalAmount: 0.5, gpuAmount: 0.45, cpuAmount: 0, diskAmount: 0.05 },
  cpu: { totalAmount: 0.25, gpuAmount: 0, cpuAmount: 0.24, diskAmount: 0.01 },
  gone: { totalAmount: 2, gpuAmount: 1.9, cpuAmount: 0, diskAmount: 0.1 },
};
const NONE_LOST = { recordCount: 0, totalAmount: 0, podIds: [] };

describe("billing pods", () => {
  it("--grouping podId prints the API's records per pod, and sends only the billing request", async () => {
    const out = await h.json<Json>(["billing", "pods", "--grouping", "podId", ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([["base GET /v2/billing/pods"], WINDOW1]);
    const records = [
      { ...BUCKET1, podId: pod.trainer, ...DAY1_COST.trainer },
      { ...BUCKET1, podId: pod.notebook, ...DAY1_COST.notebook },
      { ...BUCKET1, podId: pod.scratch, ...DAY1_COST.scratch },
      { ...BUCKET1, podId: pod.cpu, ...DAY1_COST.cpu },
      { ...BUCKET1, podId: "pod-gone", ...DAY1_COST.gone },
    ].sort(byId("podId"));
    expect(out).toEqual({
      query: {
        ...BUCKET1,
        bucketSize: "day",
        lastN: null,
        grouping: "podId",
        podId: null,
        gpuId: null,
      },
      records,
      totals: { totalAmount: 9.75, gpuAmount: 9.05, cpuAmount: 0.24, diskAmount: 0.46 },
      unattributed: NONE_LOST,
    });
    for (const r of out.records as Json[]) {
      expect(Object.keys(r)).toEqual([
        "startTime",
        "endTime",
        "podId",
        "totalAmount",
        "gpuAmount",
        "cpuAmount",
        "diskAmount",
      ]);
    }
  });

  it("groups by GPU type by default, from GET /v2/pods; a pod that no longer exists is unattributed", async () => {
    const out = await h.json<Json>(["billing", "pods", ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([["base GET /v2/billing/pods", "base GET /v2/pods"], WINDOW1]);
    expect(out).toEqual({
      query: { ...BUCKET1, bucketSize: "day", lastN: null, grouping: "gpuId", podId: null, gpuId: null },
      records: [
        {
          ...BUCKET1,
          gpuId: RTX4090,
          podIds: [pod.notebook, pod.scratch].sort(),
          totalAmount: 1.5,
          gpuAmount: 1.35,
          cpuAmount: 0,
          diskAmount: 0.15,
        },
        { ...BUCKET1, gpuId: H100, podIds: [pod.trainer], ...DAY1_COST.trainer },
        { ...BUCKET1, gpuId: "cpu3c", podIds: [pod.cpu], ...DAY1_COST.cpu },
        { ...BUCKET1, gpuId: null, podIds: ["pod-gone"], ...DAY1_COST.gone },
      ],
      totals: { totalAmount: 9.75, gpuAmount: 9.05, cpuAmount: 0.24, diskAmount: 0.46 },
      unattributed: { recordCount: 1, totalAmount: 2, podIds: ["pod-gone"] },
    });
  });

  it.each([
    ["nvidia geforce rtx 4090", ["notebook", "scratch"], 1.5],
    ["cpu3c", ["cpu"], 0.25],
    ["NVIDIA B200", [], 0],
  ] as const)(
    "--gpu-id %s keeps the pods on it and leaves out the pod that no longer exists",
    async (gpuId, names, total) => {
      const out = await h.json<Json>(["billing", "pods", "--gpu-id", gpuId, "--grouping", "podId", ...DAY1]);
      expect([h.routes(), firstQuery()]).toEqual([
        ["base GET /v2/billing/pods", "base GET /v2/pods"],
        WINDOW1,
      ]);
      expect([(out.records as Json[]).map((r) => r.podId), (out.totals as Json).totalAmount]).toEqual([
        names.map((n) => pod[n]).sort(),
        total,
      ]);
      expect([out.query, out.unattributed]).toEqual([
        expect.objectContaining({ grouping: "podId", gpuId }),
        { recordCount: 1, totalAmount: 2, podIds: ["pod-gone"] },
      ]);
    },
  );

  it("--gpu-id with --grouping gpuId gives that one group", async () => {
    const out = await h.json<Json>(["billing", "pods", "--gpu-id", H100, ...DAY1]);
    expect(out.records).toEqual([{ ...BUCKET1, gpuId: H100, podIds: [pod.trainer], ...DAY1_COST.trainer }]);
  });

  it("--pod-id is sent as podId, after the window", async () => {
    const out = await h.json<Json>([
      "billing",
      "pods",
      "--pod-id",
      pod.cpu,
      "--bucket-size",
      "week",
      ...DAY1,
    ]);
    expect([h.routes(), firstQuery()]).toEqual([
      ["base GET /v2/billing/pods", "base GET /v2/pods"],
      [
        ["startTime", "2026-11-20T00:00:00Z"],
        ["endTime", "2026-11-21T00:00:00Z"],
        ["bucketSize", "week"],
        ["podId", pod.cpu],
      ],
    ]);
    // the week of Monday 2026-11-16, as the emulator widened the window
    const week = { startTime: "2026-11-16T00:00:00Z", endTime: "2026-11-23T00:00:00Z" };
    expect(out).toEqual({
      query: { ...week, bucketSize: "week", lastN: null, grouping: "gpuId", podId: pod.cpu, gpuId: null },
      records: [{ ...week, gpuId: "cpu3c", podIds: [pod.cpu], ...DAY1_COST.cpu }],
      totals: DAY1_COST.cpu,
      unattributed: NONE_LOST,
    });
  });

  it("a table whose first bucket starts before --start-time says that RunPod bills whole buckets", async () => {
    const res = await h.run(["billing", "pods", "--pod-id", pod.cpu, "--bucket-size", "week", ...DAY1], {
      TZ: "UTC",
    });
    expect(res.stdout.trim().split("\n").at(-1)).toBe(
      "Total $0.2500 over 1 record from 2026-11-16 00:00 UTC to 2026-11-23 00:00 UTC. RunPod bills whole weeks, so the first bucket starts before --start-time (2026-11-20 00:00 UTC).",
    );
  });

  it("--last-n is sent as lastN, and the JSON shows the window the API resolved", async () => {
    const out = await h.json<Json>([
      "billing",
      "pods",
      "--last-n",
      "2",
      "--grouping",
      "podId",
      "--pod-id",
      pod.trainer,
    ]);
    expect(firstQuery()).toEqual([
      ["bucketSize", "day"],
      ["lastN", "2"],
      ["podId", pod.trainer],
    ]);
    expect([out.query, out.records]).toEqual([
      {
        startTime: "2026-11-20T00:00:00Z",
        endTime: "2026-11-22T00:00:00Z",
        bucketSize: "day",
        lastN: 2,
        grouping: "podId",
        podId: pod.trainer,
        gpuId: null,
      },
      [
        { ...BUCKET1, podId: pod.trainer, ...DAY1_COST.trainer },
        { ...BUCKET2, podId: pod.trainer, totalAmount: 3, gpuAmount: 2.9, cpuAmount: 0, diskAmount: 0.1 },
      ],
    ]);
  });

  it("an empty window needs no look-up of the pods", async () => {
    const out = await h.json<Json>([
      "billing",
      "pods",
      "--start-time",
      "2026-10-01T00:00:00Z",
      "--end-time",
      "2026-10-02T00:00:00Z",
    ]);
    expect([h.routes(), out.records, out.totals, out.unattributed]).toEqual([
      ["base GET /v2/billing/pods"],
      [],
      POD_ZERO,
      NONE_LOST,
    ]);
  });
});

describe("billing serverless", () => {
  const SERVERLESS_WINDOW = { ...BUCKET1, bucketSize: "day", lastN: null };

  it("per endpoint by default, from /v2/billing/serverless, with --endpoint-id sent as serverlessId", async () => {
    const all = await h.json<Json>(["billing", "serverless", ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([["base GET /v2/billing/serverless"], WINDOW1]);
    const one = await h.json<Json>(["billing", "sls", "--endpoint-id", ep.vllm, ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([
      ["base GET /v2/billing/serverless"],
      [...WINDOW1, ["serverlessId", ep.vllm]],
    ]);
    const vllm = {
      ...BUCKET1,
      endpointId: ep.vllm,
      totalAmount: 1,
      gpuAmount: 0.8,
      cpuAmount: 0,
      diskAmount: 0.1,
      feeAmount: 0.1,
    };
    expect(one).toEqual({
      query: { ...SERVERLESS_WINDOW, grouping: "endpointId", endpointId: ep.vllm, gpuId: null },
      records: [vllm],
      totals: { totalAmount: 1, gpuAmount: 0.8, cpuAmount: 0, diskAmount: 0.1, feeAmount: 0.1 },
      unattributed: { recordCount: 0, totalAmount: 0, endpointIds: [] },
    });
    expect([(all.records as Json[]).length, all.totals]).toEqual([
      5,
      { totalAmount: 2.1, gpuAmount: 1.6, cpuAmount: 0.08, diskAmount: 0.21, feeAmount: 0.21 },
    ]);
  });

  it("--grouping gpuId groups each endpoint under every GPU type its pools allow, from GET /v2/serverless and the catalog", async () => {
    const out = await h.json<Json>(["billing", "endpoints", "--grouping", "gpuId", ...DAY1]);
    expect(h.routes()).toEqual([
      "base GET /v2/billing/serverless",
      "base GET /v2/serverless",
      "base GET /v2/catalog/gpus",
    ]);
    expect(out).toEqual({
      query: { ...SERVERLESS_WINDOW, grouping: "gpuId", endpointId: null, gpuId: null },
      records: [
        {
          ...BUCKET1,
          gpuIds: [A100],
          endpointIds: [ep.vllm],
          totalAmount: 1,
          gpuAmount: 0.8,
          cpuAmount: 0,
          diskAmount: 0.1,
          feeAmount: 0.1,
        },
        {
          ...BUCKET1,
          gpuIds: [RTX4090],
          endpointIds: [ep.only4090],
          totalAmount: 0.2,
          gpuAmount: 0.16,
          cpuAmount: 0,
          diskAmount: 0.02,
          feeAmount: 0.02,
        },
        {
          ...BUCKET1,
          gpuIds: [RTX4090, L4],
          endpointIds: [ep.sdxl],
          totalAmount: 0.5,
          gpuAmount: 0.4,
          cpuAmount: 0,
          diskAmount: 0.05,
          feeAmount: 0.05,
        },
        {
          ...BUCKET1,
          gpuIds: ["cpu3c"],
          endpointIds: [ep.tts],
          totalAmount: 0.1,
          gpuAmount: 0,
          cpuAmount: 0.08,
          diskAmount: 0.01,
          feeAmount: 0.01,
        },
        {
          ...BUCKET1,
          gpuIds: null,
          endpointIds: ["ep-gone"],
          totalAmount: 0.3,
          gpuAmount: 0.24,
          cpuAmount: 0,
          diskAmount: 0.03,
          feeAmount: 0.03,
        },
      ],
      totals: { totalAmount: 2.1, gpuAmount: 1.6, cpuAmount: 0.08, diskAmount: 0.21, feeAmount: 0.21 },
      unattributed: { recordCount: 1, totalAmount: 0.3, endpointIds: ["ep-gone"] },
    });
  });

  it.each([
    [RTX4090, ["sdxl", "only4090"]],
    ["nvidia l4", ["sdxl"]],
    ["ADA_24", ["sdxl", "only4090"]],
    [A100, ["vllm"]],
    ["cpu3c", ["tts"]],
  ] as const)("--gpu-id %s keeps the endpoints that may run on it", async (gpuId, names) => {
    const out = await h.json<Json>(["billing", "serverless", "--gpu-id", gpuId, ...DAY1]);
    expect(h.routes()).toEqual([
      "base GET /v2/billing/serverless",
      "base GET /v2/serverless",
      "base GET /v2/catalog/gpus",
    ]);
    expect([(out.records as Json[]).map((r) => r.endpointId), out.unattributed]).toEqual([
      names.map((n) => ep[n]).sort(),
      { recordCount: 1, totalAmount: 0.3, endpointIds: ["ep-gone"] },
    ]);
  });
});

describe("billing network-volume and all", () => {
  it("network-volume: per volume, --network-volume-id sent as networkVolumeId", async () => {
    const out = await h.json<Json>(["billing", "nv", "--network-volume-id", "va", ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([
      ["base GET /v2/billing/network-volumes"],
      [...WINDOW1, ["networkVolumeId", "va"]],
    ]);
    expect(out).toEqual({
      query: { ...BUCKET1, bucketSize: "day", lastN: null, networkVolumeId: "va" },
      records: [
        {
          ...BUCKET1,
          networkVolumeId: "va",
          totalAmount: 0.4,
          standardAmount: 0.3,
          highPerformanceAmount: 0.1,
        },
      ],
      totals: { totalAmount: 0.4, standardAmount: 0.3, highPerformanceAmount: 0.1 },
    });
  });

  it("all: one record per bucket with every cost component", async () => {
    const out = await h.json<Json>(["billing", "all", ...DAY1]);
    expect([h.routes(), firstQuery()]).toEqual([["base GET /v2/billing"], WINDOW1]);
    const day = {
      totalAmount: 18.7,
      podGpuAmount: 9.05,
      podCpuAmount: 0.24,
      podDiskAmount: 0.46,
      serverlessGpuAmount: 1.6,
      serverlessCpuAmount: 0.08,
      serverlessDiskAmount: 0.21,
      serverlessFeeAmount: 0.21,
      storageStandardAmount: 0.5,
      storageHighPerformanceAmount: 0.1,
      endpointAmount: 0.25,
      clusterGpuAmount: 5,
      clusterDiskAmount: 0.5,
      clusterNetworkingAmount: 0.5,
    };
    expect(out).toEqual({
      query: { ...BUCKET1, bucketSize: "day", lastN: null },
      records: [{ ...BUCKET1, ...day }],
      totals: day,
    });
  });

  it("all --last-n sends lastN with the bucket size", async () => {
    const out = await h.json<Json>(["billing", "all", "--last-n", "3", "--bucket-size", "hour"]);
    expect([firstQuery(), out.query, (out.records as Json[]).length]).toEqual([
      [
        ["bucketSize", "hour"],
        ["lastN", "3"],
      ],
      { startTime: "2026-11-21T10:00:00Z", endTime: "2026-11-21T13:00:00Z", bucketSize: "hour", lastN: 3 },
      3,
    ]);
  });
});

describe("tables", () => {
  it("pods by GPU type: dollars to 4 decimals, times in TZ, the unattributed pod named under the table", async () => {
    const res = await h.run(["billing", "pods", ...DAY1], { TZ: "Asia/Tokyo" });
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toBe(
      [
        "TIME                    GPU TYPE                 PODS    TOTAL      GPU      CPU     DISK",
        "2026-11-20 09:00 GMT+9  NVIDIA GeForce RTX 4090     2  $1.5000  $1.3500  $0.0000  $0.1500",
        "2026-11-20 09:00 GMT+9  NVIDIA H100 80GB HBM3       1  $6.0000  $5.8000  $0.0000  $0.2000",
        "2026-11-20 09:00 GMT+9  cpu3c                       1  $0.2500  $0.0000  $0.2400  $0.0100",
        "2026-11-20 09:00 GMT+9  (unattributed)              1  $2.0000  $1.9000  $0.0000  $0.1000",
        "",
        "Total $9.7500 over 4 records from 2026-11-20 09:00 GMT+9 to 2026-11-21 09:00 GMT+9.",
        "1 record ($2.0000) of 1 pod RunPod no longer lists (pod-gone) could not be attributed to a GPU type: shown as (unattributed).",
        "",
      ].join("\n"),
    );
  });

  it("serverless by GPU types: an endpoint that may run on several types is one group of them all", async () => {
    const res = await h.run(["billing", "serverless", "--grouping", "gpuId", ...DAY1]);
    expect([res.code, res.stdout]).toEqual([
      0,
      [
        "TIME                  GPU TYPES                           ENDPOINTS    TOTAL      GPU      CPU     DISK      FEE",
        "2026-11-20 00:00 UTC  NVIDIA A100 80GB PCIe                       1  $1.0000  $0.8000  $0.0000  $0.1000  $0.1000",
        "2026-11-20 00:00 UTC  NVIDIA GeForce RTX 4090                     1  $0.2000  $0.1600  $0.0000  $0.0200  $0.0200",
        "2026-11-20 00:00 UTC  NVIDIA GeForce RTX 4090, NVIDIA L4          1  $0.5000  $0.4000  $0.0000  $0.0500  $0.0500",
        "2026-11-20 00:00 UTC  cpu3c                                       1  $0.1000  $0.0000  $0.0800  $0.0100  $0.0100",
        "2026-11-20 00:00 UTC  (unattributed)                              1  $0.3000  $0.2400  $0.0000  $0.0300  $0.0300",
        "",
        "Total $2.1000 over 5 records from 2026-11-20 00:00 UTC to 2026-11-21 00:00 UTC.",
        "1 record ($0.3000) of 1 endpoint RunPod no longer lists (ep-gone) could not be attributed to a GPU type: shown as (unattributed).",
        "",
      ].join("\n"),
    ]);
  });

  it("with --gpu-id, the line says the unattributed records are left out", async () => {
    const res = await h.run([
      "billing",
      "pods",
      "--grouping",
      "podid",
      "--pod-id",
      "pod-gone",
      "--gpu-id",
      H100,
      ...DAY1,
    ]);
    expect([res.code, res.stdout]).toEqual([
      0,
      [
        "No billing records in this window.",
        "1 record ($2.0000) of 1 pod RunPod no longer lists (pod-gone) could not be matched against --gpu-id and are left out.",
        "",
      ].join("\n"),
    ]);
  });

  it("serverless per endpoint, network volumes and the account", async () => {
    const sls = await h.run(["billing", "serverless", "--endpoint-id", "ep-gone", ...DAY1]);
    const nv = await h.run(["billing", "network-volume", ...DAY1]);
    const all = await h.run(["billing", "all", ...DAY1]);
    expect([sls.code, nv.code, all.code]).toEqual([0, 0, 0]);
    expect(sls.stdout).toBe(
      [
        "TIME                  ENDPOINT    TOTAL      GPU      CPU     DISK      FEE",
        "2026-11-20 00:00 UTC  ep-gone   $0.3000  $0.2400  $0.0000  $0.0300  $0.0300",
        "",
        "Total $0.3000 over 1 record from 2026-11-20 00:00 UTC to 2026-11-21 00:00 UTC.",
        "",
      ].join("\n"),
    );
    expect(nv.stdout).toBe(
      [
        "TIME                  VOLUME    TOTAL  STANDARD  HIGH-PERF",
        "2026-11-20 00:00 UTC  va      $0.4000   $0.3000    $0.1000",
        "2026-11-20 00:00 UTC  vb      $0.2000   $0.2000    $0.0000",
        "",
        "Total $0.6000 over 2 records from 2026-11-20 00:00 UTC to 2026-11-21 00:00 UTC.",
        "",
      ].join("\n"),
    );
    expect(all.stdout).toBe(
      [
        "TIME                     TOTAL     PODS  SERVERLESS  STORAGE  PUBLIC ENDPOINTS  CLUSTERS",
        "2026-11-20 00:00 UTC  $18.7000  $9.7500     $2.1000  $0.6000           $0.2500   $6.0000",
        "",
        "Total $18.7000 over 1 record from 2026-11-20 00:00 UTC to 2026-11-21 00:00 UTC.",
        "Pods              $9.7500 (GPU $9.0500, CPU $0.2400, disk $0.4600)",
        "Serverless        $2.1000 (GPU $1.6000, CPU $0.0800, disk $0.2100, fee $0.2100)",
        "Storage           $0.6000 (standard $0.5000, high-performance $0.1000)",
        "Public endpoints  $0.2500",
        "Clusters          $6.0000 (GPU $5.0000, disk $0.5000, networking $0.5000)",
        "",
      ].join("\n"),
    );
  });

  it("-o yaml carries the same document as --json, times kept as strings", async () => {
    const args = ["billing", "pods", ...DAY1];
    const asJson = await h.json(args);
    const res = await h.run([...args, "-o", "yaml"]);
    expect(res.stdout).toContain('  startTime: "2026-11-20T00:00:00Z"');
    expect(parseYaml(res.stdout)).toEqual(asJson);
  });

  it("--output json equals --json", async () => {
    const res = await h.run(["billing", "all", "--output", "json", ...DAY1]);
    expect(JSON.parse(res.stdout)).toEqual(await h.json(["billing", "all", ...DAY1]));
  });
});

/** What a time flag that is not an RFC 3339 date-time is told. */
function badTime(flag: string, value: string): string {
  return `error: option '${flag} <time>' argument '${value}' is invalid. ${flag} must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00.`;
}

describe("validation", () => {
  it.each([
    [
      ["billing", "pods", "--bucket-size", "fortnight"],
      "error: option '--bucket-size <size>' argument 'fortnight' is invalid. --bucket-size must be one of hour, day, week, month, year.",
    ],
    [
      ["billing", "pods", "--grouping", "endpointId"],
      "error: option '--grouping <field>' argument 'endpointId' is invalid. --grouping must be one of podId, gpuId.",
    ],
    [
      ["billing", "serverless", "--grouping", "gpuTypeId"],
      "error: option '--grouping <field>' argument 'gpuTypeId' is invalid. --grouping must be one of endpointId, gpuId.",
    ],
    [
      ["billing", "serverless", "--grouping", "podId"],
      "error: option '--grouping <field>' argument 'podId' is invalid. RunPod's v2 billing has no per-worker records, so serverless cannot be grouped by podId any more; --grouping must be one of endpointId, gpuId.",
    ],
    [["billing", "pods", "--start-time", "2026-11-01"], badTime("--start-time", "2026-11-01")],
    [
      ["billing", "serverless", "--end-time", "2026-02-30T00:00:00Z"],
      badTime("--end-time", "2026-02-30T00:00:00Z"),
    ],
    [
      ["billing", "network-volume", "--start-time", "2026-11-01T24:00:00Z"],
      badTime("--start-time", "2026-11-01T24:00:00Z"),
    ],
    [["billing", "all", "--end-time", "2026-11-01T00:00:00"], badTime("--end-time", "2026-11-01T00:00:00")],
    [
      ["billing", "pods", "--start-time", "2026-11-02T00:00:00Z", "--end-time", "2026-11-01T00:00:00Z"],
      "Error: --start-time (2026-11-02T00:00:00Z) must be before --end-time (2026-11-01T00:00:00Z).",
    ],
    [
      ["billing", "all", "--start-time", "2026-11-02T00:00:00Z", "--end-time", "2026-11-02T00:00:00Z"],
      "Error: --start-time (2026-11-02T00:00:00Z) must be before --end-time (2026-11-02T00:00:00Z).",
    ],
    [
      ["billing", "pods", "--last-n", "0"],
      "error: option '--last-n <n>' argument '0' is invalid. --last-n must be between 1 and 10000.",
    ],
    [
      ["billing", "nv", "--last-n", "two"],
      "error: option '--last-n <n>' argument 'two' is invalid. --last-n must be an integer between 1 and 10000.",
    ],
    [
      ["billing", "all", "--last-n", "2", "--start-time", "2026-11-01T00:00:00Z"],
      "error: option '--last-n <n>' cannot be used with option '--start-time <time>'",
    ],
    [
      ["billing", "serverless", "--end-time", "2026-11-01T00:00:00Z", "--last-n", "2"],
      "error: option '--last-n <n>' cannot be used with option '--end-time <time>'",
    ],
    [
      ["billing", "pods", "--gpu-id", "  "],
      "error: option '--gpu-id <id>' argument '  ' is invalid. --gpu-id must be between 1 and 191 characters.",
    ],
    [["billing", "pods", "--gpu-type-id", "x"], "error: unknown option '--gpu-type-id'"],
    [["billing", "network-volume", "--grouping", "podId"], "error: unknown option '--grouping'"],
    [["billing", "all", "--pod-id", "x"], "error: unknown option '--pod-id'"],
    [["billing", "pods", "extra"], "error: too many arguments for 'pods'. Expected 0 arguments but got 1."],
    [["billing", "invoices"], "error: unknown command 'invoices'"],
  ])("%j exits 2 naming the flag, and sends nothing", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), res.stdout, h.recorder.requests]).toEqual([2, message, "", []]);
  });

  it("accepts RFC 3339 offsets, fractions and lower-case separators, sent as given", async () => {
    const res = await h.run([
      "billing",
      "pods",
      "--grouping",
      "podId",
      "--start-time",
      "2026-11-20t09:00:00.250+09:00",
      "--end-time",
      "2026-11-21T00:00:00z",
      "--json",
    ]);
    expect([res.code, firstQuery().slice(0, 2)]).toEqual([
      0,
      [
        ["startTime", "2026-11-20t09:00:00.250+09:00"],
        ["endTime", "2026-11-21T00:00:00z"],
      ],
    ]);
  });
});

describe("API errors exit 1", () => {
  it("a rejected billing request: the problem detail, and in JSON its code and status", async () => {
    h.emu.control.addFault({ method: "GET", path: "^/v2/billing/pods$", status: 400, times: 2 });
    const table = await h.run(["billing", "pods", "--last-n", "1"]);
    const json = await h.run(["billing", "pods", "--last-n", "1", "--json"]);
    expect([table.code, errorText(table)]).toEqual([
      1,
      expect.stringMatching(
        /^Error: GET \/v2\/billing\/pods\?bucketSize=day&lastN=1: 400 Bad Request: Injected upstream failure\./,
      ),
    ]);
    expect([json.code, json.stdout, JSON.parse(json.stderr)]).toEqual([
      1,
      "",
      expect.objectContaining({
        code: "RUNPOD_BAD_REQUEST",
        status: 400,
        detail: "Injected upstream failure.",
      }),
    ]);
  });

  it("a failed look-up of the endpoints fails the command rather than attribute nothing", async () => {
    h.emu.control.addFault({ method: "GET", path: "^/v2/serverless$", status: 403, times: 1 });
    const res = await h.run(["billing", "serverless", "--grouping", "gpuId", ...DAY1]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      expect.stringMatching(/^Error: GET \/v2\/serverless: 403 Forbidden: /),
    ]);
  });
});

describe("help", () => {
  it.each([
    [
      ["billing", "pods"],
      [
        "JSON fields (one object): query, records, totals, unattributed.",
        "  query: startTime, endTime, bucketSize (the window RunPod answered for), lastN, grouping,\n    podId, gpuId",
        "  records, --grouping podId: startTime, endTime, podId, totalAmount, gpuAmount, cpuAmount, diskAmount",
        "  records, --grouping gpuId: startTime, endTime, gpuId, podIds, totalAmount, gpuAmount, cpuAmount, diskAmount",
        "  totals: totalAmount, gpuAmount, cpuAmount, diskAmount (sums over the records printed)",
        "  unattributed: recordCount, totalAmount, podIds",
        "Records of pods RunPod no longer lists (terminated pods) cannot be attributed",
      ],
    ],
    [
      ["billing", "serverless"],
      [
        "  records, --grouping endpointId: startTime, endTime, endpointId, totalAmount, gpuAmount, cpuAmount, diskAmount, feeAmount",
        "  records, --grouping gpuId: startTime, endTime, gpuIds, endpointIds, totalAmount, gpuAmount, cpuAmount, diskAmount, feeAmount",
        "  unattributed: recordCount, totalAmount, endpointIds",
        "so an endpoint is grouped under\nall the types it may run on together (gpuIds), and --gpu-id keeps an endpoint that may run on it.",
      ],
    ],
    [
      ["billing", "network-volume"],
      [
        "JSON fields (one object): query, records, totals.",
        "  records: startTime, endTime, networkVolumeId, totalAmount, standardAmount, highPerformanceAmount",
      ],
    ],
    [
      ["billing", "all"],
      [
        "  records: startTime, endTime, totalAmount, podGpuAmount, podCpuAmount, podDiskAmount, serverlessGpuAmount, serverlessCpuAmount, serverlessDiskAmount, serverlessFeeAmount, storageStandardAmount, storageHighPerformanceAmount, endpointAmount, clusterGpuAmount, clusterDiskAmount, clusterNetworkingAmount",
        "endpointAmount is RunPod's\npublic (hosted model) endpoints",
      ],
    ],
  ])("%j --help lists the JSON fields and what cannot be attributed", async (path, texts) => {
    const res = await runCommand([...path, "--help"]);
    expect(res.code).toBe(0);
    for (const text of texts) expect(res.stdout).toContain(text);
  });

  it("documents --last-n and the bucket sizes", async () => {
    const res = await runCommand(["billing", "pods", "--help"]);
    expect(res.stdout).toMatch(/--last-n <n>\s+the last n buckets, ending with the current one,/);
    expect(res.stdout).toMatch(
      /--bucket-size <size>\s+length of one billing bucket \(choices: hour, day,\s+week,\s+month, year\) \(default: "day"\)/,
    );
  });
});
