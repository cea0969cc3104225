/**
 * A fleet of `count` GPU pods (benchmark scenarios 4 and 5). `settle` sets `readiness.settle`
 * (left out: the default). With RUNPOD_BENCH_DONE_FILE set, each pod's line `<name> <epoch ms>` is
 * appended to that file when the engine hands the program its RUNNING status, so the bench can tell
 * when a user's program learned each pod was up.
 */
import { appendFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import { Pod } from "runpod-dynamic";

const config = new pulumi.Config();
const count = config.requireNumber("count");
const settle = config.getNumber("settle");
/** Several stacks on one emulator need pod names of their own. */
const prefix = config.get("prefix") ?? "fleet";
const doneFile = process.env.RUNPOD_BENCH_DONE_FILE;

const pods = Array.from(
  { length: count },
  (_, i) =>
    new Pod(`pod-${i}`, {
      name: `${prefix}-${i}`,
      image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      gpu: { id: "NVIDIA A40" },
      dataCenterIds: ["US-KS-2"],
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
