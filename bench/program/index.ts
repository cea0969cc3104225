/** A fleet of `count` GPU pods (benchmark scenario 4). */
import * as pulumi from "@pulumi/pulumi";
import { Pod } from "runpod-dynamic";

const config = new pulumi.Config();
const count = config.requireNumber("count");

const pods = Array.from(
  { length: count },
  (_, i) =>
    new Pod(`pod-${i}`, {
      name: `fleet-${i}`,
      image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      gpu: { id: "NVIDIA A40" },
      dataCenterIds: ["US-KS-2"],
      ports: ["22/tcp"],
      env: { INDEX: String(i) },
    }),
);

export const running = pulumi
  .all(pods.map((p) => p.status))
  .apply((s) => s.filter((x) => x === "RUNNING").length);
