/**
 * A fleet of `count` GPU pods (benchmark scenarios 4 and 5). `settle` sets `readiness.settle`
 * (left out: the default). `shape` is how each pod is written: `pinned` (the default) to one data
 * center; `fallbacks` as the README's quick start writes a pod, with `placement.gpuTypeIds` after
 * `gpu.id`; `shared-volume` the same, every pod mounting one network volume the program creates. With RUNPOD_BENCH_DONE_FILE set, each pod's line `<name> <epoch ms>` is
 * appended to that file when the engine hands the program its RUNNING status, so the bench can tell
 * when a user's program learned each pod was up.
 */
import { appendFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, Pod, type PodArgs } from "runpod-dynamic";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const settle = config.getNumber("settle");
/** Several stacks on one emulator need pod names of their own. */
const prefix = config.get("prefix") ?? "fleet";
const doneFile = process.env.RUNPOD_BENCH_DONE_FILE;
const shape = config.get("shape") ?? "pinned";
if (!["pinned", "fallbacks", "shared-volume"].includes(shape)) {
  throw new Error(`runpod-bench-fleet:shape is "${shape}": use pinned, fallbacks or shared-volume`);
}

/** Where each pod goes: one data center, or the catalog's choice among the GPU types asked for. */
function placementOf(): Partial<PodArgs> {
  if (shape === "pinned") return { dataCenterIds: ["US-KS-2"] };
  const placement = { gpuTypeIds: ["NVIDIA L40S", "NVIDIA A100 80GB PCIe"] };
  if (shape === "fallbacks") return { placement };
  const volume = new NetworkVolume("data", { name: `${prefix}-data`, size: 50, dataCenterId: "US-KS-2" });
  return { placement, mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] } };
}
const where = placementOf();

const pods = Array.from(
  { length: count },
  (_, i) =>
    new Pod(`pod-${i}`, {
      name: `${prefix}-${i}`,
      image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      gpu: { id: "NVIDIA A40" },
      ...where,
      ports: ["22/tcp"],
      env: { INDEX: String(i) },
      ...(settle === undefined ? {} : { readiness: { settle } }),
    }),
);

if (doneFile) {
  for (const [i, p] of pods.entries()) {
    p.status.apply((status) => {
      if (status !== undefined) appendFileSync(doneFile, `${prefix}-${i} ${Date.now()}\n`);
    });
  }
}

export const running = pulumi
  .all(pods.map((p) => p.status))
  .apply((s) => s.filter((x) => x === "RUNNING").length);
