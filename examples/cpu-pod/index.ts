/**
 * A CPU pod: flavor and a power-of-two vCPU count (memory follows the flavor's RAM per vCPU),
 * placed in the first data center of the given regions that has the flavor in stock.
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod } from "runpod-dynamic";

const config = new pulumi.Config();

const pod = new Pod("worker", {
  name: "cpu-worker",
  image: config.get("image") ?? "runpod/base:0.6.2-cpu",
  cpu: { id: config.get("cpuFlavor") ?? "cpu3c", vcpuCount: config.getNumber("vcpuCount") ?? 4 },
  disk: 10,
  ports: ["22/tcp"],
  env: { ROLE: "batch" },
  // CPU pods take data-center candidates; the catalog orders them by stock.
  placement: { regions: ["NORTH_AMERICA", "EUROPE"] },
});

export const podId = pod.id;
export const status = pod.status;
export const dataCenter = pod.dataCenterId;
export const vcpus = pod.cpu.apply((c) => c?.vcpuCount ?? null);
export const memoryGb = pod.cpu.apply((c) => c?.memory ?? null);
export const ssh = pod.ssh.apply((s) => s.proxy?.command ?? null);
