/**
 * Scenario 3: micro figures. Serialized provider size per resource type; provider host cold start
 * to the first Create; check and diff time per resource over 1000 resources; memory of the host
 * with 200 pods in flight.
 */
import { readFileSync } from "node:fs";
import { startEmulator } from "../emulator/index.js";
import { message, provproto, rpc } from "../harness/grpc.js";
import { checkPod } from "../provider/resources/pod/check.js";
import { diffPod } from "../provider/resources/pod/diff.js";
import { podOutputs } from "../provider/resources/pod/translate.js";
import type { PodInputs } from "../provider/resources/pod/types.js";
import { FLEET_DC, FLEET_GPU, freshEmulator } from "./fleet.js";
import { providerText, startHost } from "./host-fleet.js";

export const TYPES = [
  "Pod",
  "ServerlessEndpoint",
  "ServerlessJob",
  "SshKey",
  "NetworkVolume",
  "Template",
] as const;

export async function serializedSizes(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TYPES) out[t] = Buffer.byteLength(await providerText(t));
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Milliseconds from spawning a host to the answer of its first Create (a pod not waited for). */
export async function coldStart(runs = 5): Promise<{ medianMs: number; runsMs: number[] }> {
  const emu = await startEmulator({ clockScale: 1 });
  const text = await providerText("Pod");
  const runsMs: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      const host = await startHost(emu.pulumiConfig());
      const type = "pulumi-nodejs:dynamic/runpod:Pod";
      await rpc(
        host.client,
        "create",
        message(provproto.CreateRequest, {
          urn: `urn:pulumi:b::b::${type}::p${i}`,
          type,
          properties: {
            name: `p${i}`,
            image: "img",
            gpu: { id: "NVIDIA A40" },
            waitFor: "NONE",
            __provider: text,
          },
        }),
      );
      runsMs.push(performance.now() - t0);
      host.close();
    }
  } finally {
    await emu.close();
  }
  return { medianMs: median(runsMs), runsMs };
}

function podInputs(i: number): PodInputs {
  return {
    name: `pod-${i}`,
    image: `repo/image:${i % 7}`,
    gpu: { id: i % 2 === 0 ? "NVIDIA A40" : "NVIDIA L40S", count: 1 + (i % 3), minCudaVersion: "12.4" },
    env: { INDEX: String(i), MODE: i % 2 === 0 ? "train" : "serve" },
    ports: ["22/tcp", "8888/http"],
    mounts: { network: [{ volumeId: `vol-${i % 5}`, path: "/workspace" }] },
    placement: { regions: ["EUROPE", "NORTH_AMERICA"], gpuTypeIds: ["NVIDIA A100 80GB PCIe"] },
  };
}

/** Microseconds per resource for check and for diff, in-process and through the host over gRPC. */
export interface CheckDiffFigures {
  readonly checkUs: number;
  readonly diffUs: number;
  readonly checkPlusDiffUs: number;
  readonly hostCheckUs: number;
  readonly hostDiffUs: number;
  readonly failures: number;
  readonly changes: number;
}

export async function checkAndDiff(count = 1000): Promise<CheckDiffFigures> {
  const inputs = Array.from({ length: count }, (_, i) => podInputs(i));
  const olds = inputs.map((p, i) =>
    podOutputs(
      {
        id: `id${i}`,
        name: p.name,
        status: "RUNNING",
        actions: [],
        image: "repo/image:0",
        args: "",
        disk: 20,
        mounts: p.mounts ?? {},
        ports: p.ports ?? [],
        env: p.env ?? {},
        registry: null,
        gpu: { id: p.gpu?.id ?? "", count: p.gpu?.count ?? 1, vcpuCount: 8, memory: 64 },
        cloud: "SECURE",
        dataCenterId: "EU-RO-1",
        cudaVersion: "12.4",
        ssh: { proxy: null, direct: null },
        template: null,
        cost: 1,
        locked: false,
        globalNetworking: { enabled: false },
        runtime: null,
        createdAt: "2026-11-21T00:00:00Z",
        startedAt: null,
      },
      p,
    ),
  );
  let t = performance.now();
  let failures = 0;
  for (const p of inputs) failures += checkPod(p as unknown as Record<string, unknown>).length;
  const checkUs = ((performance.now() - t) * 1000) / count;
  t = performance.now();
  let changes = 0;
  inputs.forEach((p, i) => {
    if (diffPod(olds[i] ?? {}, p).changes) changes += 1;
  });
  const diffUs = ((performance.now() - t) * 1000) / count;

  const host = await startHost({});
  const text = await providerText("Pod");
  const type = "pulumi-nodejs:dynamic/runpod:Pod";
  try {
    t = performance.now();
    for (const [i, p] of inputs.entries()) {
      await rpc(
        host.client,
        "check",
        message(provproto.CheckRequest, {
          urn: `urn:pulumi:b::b::${type}::p${i}`,
          type,
          olds: {},
          news: { ...p, __provider: text },
        }),
      );
    }
    const hostCheckUs = ((performance.now() - t) * 1000) / count;
    t = performance.now();
    for (const [i, p] of inputs.entries()) {
      await rpc(
        host.client,
        "diff",
        message(provproto.DiffRequest, {
          id: `id${i}`,
          urn: `urn:pulumi:b::b::${type}::p${i}`,
          type,
          olds: { ...olds[i], __provider: text },
          news: { ...p, __provider: text },
        }),
      );
    }
    const hostDiffUs = ((performance.now() - t) * 1000) / count;
    return { checkUs, diffUs, checkPlusDiffUs: checkUs + diffUs, hostCheckUs, hostDiffUs, failures, changes };
  } finally {
    host.close();
  }
}

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0");
}

/** Resident memory of a provider host before and while `n` pods are being created and waited for. */
export async function hostMemory(n = 200): Promise<{ idleMb: number; peakMb: number; n: number }> {
  // A quota high enough that every pod is in flight at once, and pods that take 20 s to run.
  const emu = await freshEmulator(
    { scale: 1, tSeconds: 20 },
    { rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }] },
  );
  const host = await startHost(emu.pulumiConfig());
  const text = await providerText("Pod");
  const type = "pulumi-nodejs:dynamic/runpod:Pod";
  try {
    const pid = host.proc.pid ?? 0;
    const idle = rssKb(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb(pid));
    }, 50);
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        rpc(
          host.client,
          "create",
          message(provproto.CreateRequest, {
            urn: `urn:pulumi:b::b::${type}::m${i}`,
            type,
            properties: {
              name: `m${i}`,
              image: "img",
              gpu: { id: FLEET_GPU },
              dataCenterIds: [FLEET_DC],
              __provider: text,
            },
          }),
        ),
      ),
    );
    clearInterval(sampler);
    return { idleMb: idle / 1024, peakMb: peak / 1024, n };
  } finally {
    host.close();
    await emu.close();
  }
}
