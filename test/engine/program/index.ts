/**
 * CPU pods, each with the inputs and Pulumi resource options stack config gives it:
 *
 *   pulumi config set pods '{"a": {"image": "img:2", "options": {"protect": true}}}'
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod } from "runpod-dynamic";

interface PodConfig {
  image?: string;
  vcpuCount?: number;
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
      ...(pod.timeouts ? { timeouts: pod.timeouts } : {}),
    },
    pod.options,
  ).id;
}
