/**
 * The emulator bills what runs (emulator/billing/usage.ts, store/usage-ledger.ts,
 * billing/rates.ts): pods, network volumes and serverless workers accrue usage on the emulator
 * clock, split per hour bucket, and the usage of a terminated pod or a deleted volume or endpoint
 * stays billable after it has left the store. Over raw HTTP, on a frozen clock from 2026-11-21T12:00:00Z moved only by `advance`.
 *
 * Rates (emulator/billing/rates.ts; per GB and 30-day month, 720 h): a running pod's disks $0.10, a
 * stopped pod's volume disk $0.20, a STANDARD volume $0.07 (beyond 1,000 GB $0.05). So, per hour:
 * 70 GB running $0.0097, 50 GB stopped $0.0139, 1,500 GB of volume $0.1319, 2,000 GB $0.1667.
 * An H100 on the secure cloud is $2.99 an hour, 4 vCPU of cpu3c $0.12, an ADA_24 worker $1.10.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForEachTest, type RunningEmulator, START } from "../support/emulator.js";
import { type Answer, http, problem } from "../support/http.js";
import { HISTORY_ENDPOINTS, HISTORY_PODS, WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const H100 = "NVIDIA H100 80GB HBM3";
const HOUR = 3_600_000;
const at = (hours: number) => new Date(START + hours * HOUR).toISOString().replace(".000Z", "Z");
/** The hour bucket `hours` after START. */
const bucket = (hours: number) => ({ startTime: at(hours), endTime: at(hours + 1) });
const window = (from: number, to: number) => `bucketSize=hour&startTime=${at(from)}&endTime=${at(to)}`;
const podHour = (hours: number, podId: string, gpuAmount: number, diskAmount: number, cpuAmount = 0) => ({
  ...bucket(hours),
  totalAmount: Math.round((gpuAmount + cpuAmount + diskAmount) * 10_000) / 10_000,
  gpuAmount,
  cpuAmount,
  diskAmount,
  podId,
});

let emu: RunningEmulator;
let c: ReturnType<typeof http>;
frozenEmulatorForEachTest({ startTime: START, seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  emu = t.emu;
  c = http(t.emu);
});
const ok = async (p: Promise<Answer>) => (await c.ok(p)) as Record<string, unknown>;
const advance = (hours: number) => emu.control.advance(hours * HOUR);

describe("a pod bills what it runs", () => {
  it("compute and both disks while it exists, its volume disk while stopped, nothing once terminated; the usage outlives the pod", async () => {
    const pod = await ok(
      c.post("base", "/v2/pods", {
        name: "trainer",
        image: "acme/app:1",
        gpu: { id: H100 },
        disk: 20,
        mounts: { persistent: { size: 50, path: "/workspace" } },
      }),
    );
    const id = String(pod.id);
    advance(3);
    await ok(c.post("base", `/v2/pods/${id}/action`, { action: "stop" }));
    advance(2);
    await c.ok(c.del("base", `/v2/pods/${id}`));
    advance(2);
    const gone = await problem(c.get("base", `/v2/pods/${id}`));
    const v2 = await ok(c.get("base", `/v2/billing/pods?${window(0, 7)}&podId=${id}`));
    expect(gone.status).toBe(404);
    expect(v2).toEqual({
      records: [
        podHour(0, id, 2.99, 0.0097),
        podHour(1, id, 2.99, 0.0097),
        podHour(2, id, 2.99, 0.0097),
        podHour(3, id, 0, 0.0139),
        podHour(4, id, 0, 0.0139),
        podHour(5, id, 0, 0),
        podHour(6, id, 0, 0),
      ],
      metadata: {
        query: { startTime: at(0), endTime: at(7), bucketSize: "hour", podId: id },
        recordCount: 7,
        uniquePodCount: 1,
        totals: { totalAmount: 9.0269, gpuAmount: 8.97, cpuAmount: 0, diskAmount: 0.0569 },
      },
    });
  });

  it("a CPU pod bills CPU compute; a partial hour bills its part; a restarted pod bills again from its start", async () => {
    const pod = await ok(
      c.post("base", "/v2/pods", {
        name: "etl",
        image: "acme/app:1",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        disk: 10,
      }),
    );
    const id = String(pod.id);
    advance(1.5);
    await ok(c.post("base", `/v2/pods/${id}/action`, { action: "stop" }));
    advance(1.5);
    await ok(c.post("base", `/v2/pods/${id}/action`, { action: "start" }));
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/pods?${window(0, 4)}&podId=${id}`));
    // 10 GB running: $0.0013889 an hour. Half of hour 1 ran; stopped, a CPU pod (no volume disk) bills nothing.
    expect(v2.records).toEqual([
      podHour(0, id, 0, 0.0014, 0.12),
      podHour(1, id, 0, 0.0007, 0.06),
      podHour(2, id, 0, 0, 0),
      podHour(3, id, 0, 0.0014, 0.12),
    ]);
  });

  it("a disk change bills its new size from the change", async () => {
    const pod = await ok(
      c.post("base", "/v2/pods", { name: "p", image: "acme/app:1", gpu: { id: H100 }, disk: 20 }),
    );
    const id = String(pod.id);
    advance(1);
    await ok(c.patch("base", `/v2/pods/${id}`, { disk: 92 }));
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/pods?${window(0, 2)}&podId=${id}`));
    expect(v2.records).toEqual([podHour(0, id, 2.99, 0.0028), podHour(1, id, 2.99, 0.0128)]);
  });

  it("a pod forced out of band bills as its new status says", async () => {
    const pod = await ok(
      c.post("base", "/v2/pods", { name: "p", image: "acme/app:1", gpu: { id: H100 }, disk: 72 }),
    );
    const id = String(pod.id);
    advance(1);
    emu.control.setPodStatus(id, "EXITED");
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/pods?${window(0, 2)}&podId=${id}`));
    expect(v2.records).toEqual([podHour(0, id, 2.99, 0.01), podHour(1, id, 0, 0)]);
  });
});

describe("a network volume bills its size while it exists", () => {
  it("STANDARD, tiered at 1,000 GB; a resize bills from the resize; a deleted volume's usage stays", async () => {
    const v = await ok(
      c.post("base", "/v2/network-volumes", { name: "big", size: 1500, dataCenter: "US-KS-2" }),
    );
    const id = String(v.id);
    advance(2);
    await ok(c.patch("base", `/v2/network-volumes/${id}`, { size: 2000 }));
    advance(1);
    await c.ok(c.del("base", `/v2/network-volumes/${id}`));
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/network-volumes?${window(0, 4)}&networkVolumeId=${id}`));
    const hour = (h: number, amount: number) => ({
      ...bucket(h),
      totalAmount: amount,
      standardAmount: amount,
      highPerformanceAmount: 0,
      networkVolumeId: id,
    });
    expect(v2.records).toEqual([hour(0, 0.1319), hour(1, 0.1319), hour(2, 0.1667), hour(3, 0)]);
  });

  it("a HIGH_PERFORMANCE volume bills nothing: RunPod publishes no rate for it", async () => {
    const v = await ok(
      c.post("base", "/v2/network-volumes", {
        name: "fast",
        size: 100,
        dataCenter: "US-TX-3",
        type: "HIGH_PERFORMANCE",
      }),
    );
    advance(2);
    const v2 = await ok(c.get("base", `/v2/billing/network-volumes?${window(0, 2)}&networkVolumeId=${v.id}`));
    expect([v2.records, (v2.metadata as Record<string, unknown>).uniqueNetworkVolumeCount]).toEqual([[], 0]);
  });
});

describe("a serverless endpoint bills its workers' time", () => {
  it("an always-on worker while workers.min keeps it, a job's worker from the job until its idle timeout; a deleted endpoint's usage stays", async () => {
    const e = await ok(
      c.post("base", "/v2/serverless", {
        name: "sdxl",
        type: "QUEUE",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        image: "acme/worker:1",
        gpu: { pools: ["ADA_24"] },
        workers: { min: 1, max: 2, idleTimeout: 60 },
      }),
    );
    const id = String(e.id);
    advance(1);
    // Two jobs: the first to the always-on slot 0, the second to slot 1, which starts for it.
    await c.ok(c.post("serverless", `/v2/${id}/run`, { input: { n: 1 } }));
    await c.ok(c.post("serverless", `/v2/${id}/run`, { input: { n: 2 } }));
    advance(1);
    await ok(c.patch("base", `/v2/serverless/${id}`, { workers: { min: 0 } }));
    advance(1);
    await c.ok(c.del("base", `/v2/serverless/${id}`));
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/serverless?${window(0, 4)}&serverlessId=${id}`));
    const hour = (h: number, amount: number) => ({
      ...bucket(h),
      totalAmount: amount,
      gpuAmount: amount,
      cpuAmount: 0,
      diskAmount: 0,
      feeAmount: 0,
      serverlessId: id,
    });
    // Slot 1: queued 0.5 s, ran 1.5 s, idle 60 s: 62 s at $1.10 an hour is $0.0189.
    expect(v2.records).toEqual([hour(0, 1.1), hour(1, 1.1189), hour(2, 0), hour(3, 0)]);
  });

  it("a retried job bills the worker time of both runs once each", async () => {
    emu.control.setSettings({ jobFailureShare: 1 });
    const e = await ok(
      c.post("base", "/v2/serverless", {
        name: "cpu",
        type: "QUEUE",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        image: "acme/worker:1",
        cpu: [{ id: "cpu3c", vcpuCount: 4 }],
        workers: { min: 0, max: 1, idleTimeout: 10 },
      }),
    );
    const id = String(e.id);
    const job = await c.ok(c.post("serverless", `/v2/${id}/run`, { input: {} }));
    advance(1);
    emu.control.setSettings({ jobFailureShare: 0 });
    await c.ok(c.post("serverless", `/v2/${id}/retry/${job.id}`));
    advance(1);
    const v2 = await ok(c.get("base", `/v2/billing/serverless?${window(0, 2)}&serverlessId=${id}`));
    // Each run: 2 s queued and running plus 10 s idle, at cpu3c's serverless rate ($0.042 per
    // vCPU-hour) for 4 vCPU: 12 s of $0.168 an hour is $0.00056.
    expect((v2.records as Record<string, unknown>[]).map((r) => [r.startTime, r.cpuAmount])).toEqual([
      [at(0), 0.0006],
      [at(1), 0.0006],
    ]);
  });
});

describe("the default seed", () => {
  it("holds the pods and endpoints its history bills, and its running pods bill from the load", async () => {
    emu.control.reset();
    advance(2);
    const pods = (await ok(c.get("base", "/v2/pods"))).pods as { id: string; status: string }[];
    const endpoints = (await ok(c.get("base", "/v2/serverless"))).endpoints as { id: string }[];
    const v2 = await ok(c.get("base", `/v2/billing/pods?${window(0, 2)}`));
    expect([pods.map((p) => [p.id, p.status]), endpoints.map((e) => e.id)]).toEqual([
      [
        [HISTORY_PODS[0], "RUNNING"],
        [HISTORY_PODS[1], "EXITED"],
        [HISTORY_PODS[2], "RUNNING"],
      ],
      HISTORY_ENDPOINTS,
    ]);
    // The trainer: an H100 and 80 GB; the CPU pod: 4 vCPU of cpu3c and 10 GB; the notebook is stopped.
    expect(v2.records).toEqual([
      podHour(0, HISTORY_PODS[2] as string, 0, 0.0014, 0.12),
      podHour(0, HISTORY_PODS[0] as string, 2.99, 0.0111),
      podHour(1, HISTORY_PODS[2] as string, 0, 0.0014, 0.12),
      podHour(1, HISTORY_PODS[0] as string, 2.99, 0.0111),
    ]);
  });
});
