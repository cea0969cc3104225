/**
 * CPU pods, each with the inputs and Pulumi resource options stack config gives it:
 *
 *   pulumi config set pods '{"a": {"image": "img:2", "options": {"protect": true}}}'
 *   pulumi config set pods '{"a": {"ports": ["8888/http"], "readiness": {"check": "HTTP", "port": 8888}}}'
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, type PodArgs } from "runpod-dynamic";

interface PodConfig {
  image?: string;
  vcpuCount?: number;
  ports?: string[];
  readiness?: PodArgs["readiness"];
  failFast?: PodArgs["failFast"];
  timeouts?: { create?: number; update?: number; delete?: number };
  options?: pulumi.CustomResourceOptions;
}

const pods = new pulumi.Config().requireObject<Record<string, PodConfig>>("pods");

export const ids: Record<string, pulumi.Output<string>> = {};
for (const [name, pod] of Object.entries(pods)) {
  ids[name] = new Pod(
    name,
    {
      name,
      image: pod.image ?? "runpod/base:0.6.2-cpu",
      cpu: { id: "cpu3c", vcpuCount: pod.vcpuCount ?? 2 },
      ...(pod.ports ? { ports: pod.ports } : {}),
      ...(pod.readiness ? { readiness: pod.readiness } : {}),
      ...(pod.failFast ? { failFast: pod.failFast } : {}),
      ...(pod.timeouts ? { timeouts: pod.timeouts } : {}),
    },
    pod.options,
  ).id;
}
