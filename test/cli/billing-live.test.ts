/**
 * `runpod-dynamic billing` against the emulator's default seed, whose billing history bills pods
 * and endpoints the seed holds (so `--grouping gpuId` and `--gpu-id` attribute all of it), and
 * which bills what runs: the seed's running pods from the load on, and a pod and a volume created
 * here. Emulator time is frozen at 2026-11-21T12:00:00Z and moved only by `advance`.
 *
 * The history (emulator/seed/history.ts), per hour: pod-hist-trainer (H100) $2.979 GPU + $0.011
 * disk; pod-hist-notebook (RTX 4090) $0.6873 + $0.0027 in the first 10 hours of a day;
 * pod-hist-cpu (cpu3c) $0.1186 CPU + $0.0014 disk from 2026-11-11.
 */
import { describe, expect, it } from "vitest";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { START } from "../support/emulator.js";
import { HISTORY_ENDPOINTS, HISTORY_PODS } from "../support/seed-facts.js";

const H100 = "NVIDIA H100 80GB HBM3";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const A100 = "NVIDIA A100 80GB PCIe";
const L4 = "NVIDIA L4";
const HOUR = 3_600_000;
const [TRAINER, NOTEBOOK, CPU] = HISTORY_PODS as [string, string, string];
const [SDXL, VLLM] = HISTORY_ENDPOINTS as [string, string];
const NOV11 = ["--start-time", "2026-11-11T00:00:00Z", "--end-time", "2026-11-12T00:00:00Z"];
const DAY = { startTime: "2026-11-11T00:00:00Z", endTime: "2026-11-12T00:00:00Z" };
const at = (hours: number) => new Date(START + hours * HOUR).toISOString().replace(".000Z", "Z");

const h = cliHarnessForAllTests({ clockScale: 0, startTime: START });
type Json = Record<string, unknown>;

describe("the seeded history is attributed to the pods and endpoints the seed holds", () => {
  it("billing pods groups every history pod under its GPU type or CPU flavor, none unattributed", async () => {
    const out = await h.json<Json>(["billing", "pods", ...NOV11]);
    expect([out.records, out.unattributed]).toEqual([
      [
        {
          ...DAY,
          gpuId: RTX4090,
          podIds: [NOTEBOOK],
          totalAmount: 6.9,
          gpuAmount: 6.873,
          cpuAmount: 0,
          diskAmount: 0.027,
        },
        {
          ...DAY,
          gpuId: H100,
          podIds: [TRAINER],
          totalAmount: 71.76,
          gpuAmount: 71.496,
          cpuAmount: 0,
          diskAmount: 0.264,
        },
        {
          ...DAY,
          gpuId: "cpu3c",
          podIds: [CPU],
          totalAmount: 2.88,
          gpuAmount: 0,
          cpuAmount: 2.8464,
          diskAmount: 0.0336,
        },
      ],
      { recordCount: 0, totalAmount: 0, podIds: [] },
    ]);
  });

  it("--gpu-id keeps the history pods on that GPU type, and the table names no unattributed record", async () => {
    const json = await h.json<Json>(["billing", "pods", "--gpu-id", H100, "--grouping", "podId", ...NOV11]);
    const table = await h.run(["billing", "pods", "--gpu-id", "cpu3c", ...NOV11]);
    expect([(json.records as Json[]).map((r) => [r.podId, r.totalAmount]), json.unattributed]).toEqual([
      [[TRAINER, 71.76]],
      { recordCount: 0, totalAmount: 0, podIds: [] },
    ]);
    expect([table.code, table.stdout]).toEqual([
      0,
      [
        "TIME                  GPU TYPE  PODS    TOTAL      GPU      CPU     DISK",
        "2026-11-11 00:00 UTC  cpu3c        1  $2.8800  $0.0000  $2.8464  $0.0336",
        "",
        "Total $2.8800 over 1 record from 2026-11-11 00:00 UTC to 2026-11-12 00:00 UTC.",
        "",
      ].join("\n"),
    ]);
  });

  it("billing serverless groups each history endpoint under every GPU type its pools allow", async () => {
    const grouped = await h.json<Json>(["billing", "serverless", "--grouping", "gpuId", ...NOV11]);
    const perEndpoint = await h.json<Json>(["billing", "serverless", ...NOV11]);
    const total = (id: string) =>
      (perEndpoint.records as Json[]).find((r) => r.endpointId === id)?.totalAmount;
    expect((grouped.records as Json[]).map((r) => [r.gpuIds, r.endpointIds, r.totalAmount])).toEqual([
      [[A100], [VLLM], total(VLLM)],
      // The ADA_24 pool holds the RTX 4090 and the L4: the history's SDXL rows ran on 4090s, but
      // v2 billing does not say which type a worker ran on, so the endpoint is grouped under both.
      [[RTX4090, L4], [SDXL], total(SDXL)],
    ]);
    expect(grouped.unattributed).toEqual({ recordCount: 0, totalAmount: 0, endpointIds: [] });
  });
});

describe("what runs is billed", () => {
  it("a pod run for 3 hours, stopped for 2 and terminated: its exact amounts per hour, then unattributed once it is gone", async () => {
    const pod = await h.api.pods.create({
      name: "live",
      image: "acme/app:1",
      gpu: { id: H100 },
      disk: 20,
      mounts: { persistent: { size: 50, path: "/workspace" } },
    });
    h.emu.control.advance(3 * HOUR);
    await h.api.pods.action(pod.id, "stop");
    h.emu.control.advance(2 * HOUR);
    await h.api.pods.delete(pod.id);
    h.emu.control.advance(2 * HOUR);
    const window = ["--start-time", at(0), "--end-time", at(7), "--bucket-size", "hour"];
    const perPod = await h.json<Json>([
      "billing",
      "pods",
      "--pod-id",
      pod.id,
      "--grouping",
      "podId",
      ...window,
    ]);
    const hour = (n: number, gpu: number, disk: number) => ({
      startTime: at(n),
      endTime: at(n + 1),
      podId: pod.id,
      totalAmount: Math.round((gpu + disk) * 10_000) / 10_000,
      gpuAmount: gpu,
      cpuAmount: 0,
      diskAmount: disk,
    });
    // Running: $2.99 and 70 GB of disks ($0.0097); stopped: the 50 GB volume disk ($0.0139).
    expect([perPod.records, perPod.totals]).toEqual([
      [
        hour(0, 2.99, 0.0097),
        hour(1, 2.99, 0.0097),
        hour(2, 2.99, 0.0097),
        hour(3, 0, 0.0139),
        hour(4, 0, 0.0139),
        hour(5, 0, 0),
        hour(6, 0, 0),
      ],
      { totalAmount: 9.0269, gpuAmount: 8.97, cpuAmount: 0, diskAmount: 0.0569 },
    ]);
    // The day so far: the seed's running trainer and CPU pod since the load, and the terminated pod.
    const today = await h.json<Json>(["billing", "pods", "--last-n", "1"]);
    const bucket = { startTime: "2026-11-21T00:00:00Z", endTime: "2026-11-22T00:00:00Z" };
    expect([today.records, today.unattributed]).toEqual([
      [
        {
          ...bucket,
          gpuId: H100,
          podIds: [TRAINER],
          totalAmount: 21.0077,
          gpuAmount: 20.93,
          cpuAmount: 0,
          diskAmount: 0.0777,
        },
        {
          ...bucket,
          gpuId: "cpu3c",
          podIds: [CPU],
          totalAmount: 0.8498,
          gpuAmount: 0,
          cpuAmount: 0.84,
          diskAmount: 0.0098,
        },
        {
          ...bucket,
          gpuId: null,
          podIds: [pod.id],
          totalAmount: 9.0269,
          gpuAmount: 8.97,
          cpuAmount: 0,
          diskAmount: 0.0569,
        },
      ],
      { recordCount: 1, totalAmount: 9.0269, podIds: [pod.id] },
    ]);
  });

  it("a network volume of 1,500 GB for 2 hours, then deleted: $0.1319 an hour, and nothing after", async () => {
    const from = h.emu.control.now();
    const volume = await h.api.networkVolumes.create({ name: "big", size: 1500, dataCenter: "US-KS-2" });
    h.emu.control.advance(2 * HOUR);
    await h.api.networkVolumes.delete(volume.id);
    h.emu.control.advance(HOUR);
    const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
    const out = await h.json<Json>([
      "billing",
      "network-volume",
      "--bucket-size",
      "hour",
      "--start-time",
      iso(from),
      "--end-time",
      iso(from + 3 * HOUR),
    ]);
    const mine = (out.records as Json[]).filter((r) => r.networkVolumeId === volume.id);
    expect(mine.map((r) => [r.startTime, r.totalAmount, r.standardAmount, r.highPerformanceAmount])).toEqual([
      [iso(from), 0.1319, 0.1319, 0],
      [iso(from + HOUR), 0.1319, 0.1319, 0],
      [iso(from + 2 * HOUR), 0, 0, 0],
    ]);
  });
});
