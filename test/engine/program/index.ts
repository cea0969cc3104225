/**
 * Pods, each with the inputs and Pulumi resource options stack config gives it (CPU pods unless
 * `gpu` is given), and SSH keys:
 *
 *   pulumi config set pods '{"a": {"image": "img:2", "options": {"protect": true}}}'
 *   pulumi config set pods '{"a": {"ports": ["8888/http"], "readiness": {"check": "HTTP", "port": 8888}}}'
 *   pulumi config set pods '{"a": {"gpu": {"id": "NVIDIA A40", "count": 2}}}'
 *   pulumi config set sshKeys '{"laptop": "ssh-ed25519 AAAA... me@laptop"}'
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, type PodArgs, SshKey } from "runpod-dynamic";

interface PodConfig {
  image?: string;
  vcpuCount?: number;
  gpu?: { id: string; count?: number };
  ports?: string[];
  readiness?: PodArgs["readiness"];
  failFast?: PodArgs["failFast"];
  timeouts?: { create?: number; update?: number; delete?: number };
  options?: pulumi.CustomResourceOptions;
}

const config = new pulumi.Config();
const pods = config.getObject<Record<string, PodConfig>>("pods") ?? {};
const sshKeys = config.getObject<Record<string, string>>("sshKeys") ?? {};

export const ids: Record<string, pulumi.Output<string>> = {};
for (const [name, pod] of Object.entries(pods)) {
  ids[name] = new Pod(
    name,
    {
      name,
      image: pod.image ?? "runpod/base:0.6.2-cpu",
      ...(pod.gpu ? { gpu: pod.gpu } : { cpu: { id: "cpu3c", vcpuCount: pod.vcpuCount ?? 2 } }),
      ...(pod.ports ? { ports: pod.ports } : {}),
      ...(pod.readiness ? { readiness: pod.readiness } : {}),
      ...(pod.failFast ? { failFast: pod.failFast } : {}),
      ...(pod.timeouts ? { timeouts: pod.timeouts } : {}),
    },
    pod.options,
  ).id;
}

export const fingerprints: Record<string, pulumi.Output<string>> = {};
for (const [name, publicKey] of Object.entries(sshKeys)) {
  fingerprints[name] = new SshKey(name, { publicKey }).fingerprint;
}
