/**
 * A RunPod GPU pod with SSH and JupyterLab.
 *
 * RunPod places one GPU type in one data center per create and never falls back on its own, so the
 * pod is given an ordered list of places to try: the data center and GPU type you chose first,
 * then what the catalog has in stock for that GPU type and the fallbacks, in any data center.
 * `pulumi up` returns once the pod is RUNNING with its SSH port reachable, and the container has
 * stayed up for 30 seconds (a crash-looping image fails the create instead of billing).
 *
 * SSH takes the public keys registered with your RunPod account (console: Settings > SSH Public Keys).
 *
 * Config (`pulumi config set <key> <value>`): gpuType, dataCenter, fallbackGpuTypes (a JSON list:
 * '["NVIDIA L40S"]'), image; the API key is `runpod:apiKey` (a secret).
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, placementCandidates } from "runpod-dynamic";

export = async () => {
  const config = new pulumi.Config();
  const gpuType = config.get("gpuType") ?? "NVIDIA GeForce RTX 4090";
  const dataCenter = config.get("dataCenter") ?? "EU-RO-1";
  const fallbackGpuTypes = config.getObject<string[]>("fallbackGpuTypes") ?? ["NVIDIA L40S", "NVIDIA A40"];

  // The catalog is not a reservation: a candidate can still answer "no capacity", and the pod
  // goes on to the next one.
  const fromCatalog = await placementCandidates({
    gpuTypeIds: [gpuType, ...fallbackGpuTypes],
    minAvailability: "LOW",
    maxCandidates: 8,
  });
  const candidates = [
    { dataCenterId: dataCenter, gpuTypeId: gpuType },
    ...fromCatalog.filter((c) => !(c.dataCenterId === dataCenter && c.gpuTypeId === gpuType)),
  ];

  const pod = new Pod("gpu-pod", {
    name: `${pulumi.getProject()}-${pulumi.getStack()}`,
    image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu: { id: gpuType },
    disk: 40,
    ports: ["22/tcp", "8888/http"],
    startSsh: true,
    startJupyter: true,
    // Placement is create-time only: a later change of the catalog never replaces the pod.
    placement: { candidates, anyDataCenter: true },
    // Done once the SSH port has its public address (it comes some seconds after RUNNING).
    readiness: { check: "PORTS" },
  });

  return {
    podId: pod.id,
    status: pod.status,
    dataCenter: pod.dataCenterId,
    gpu: pod.gpu.apply((g) => g?.id ?? null),
    costPerHour: pod.cost,
    ssh: pod.ssh.apply((s) => s.direct?.command ?? s.proxy?.command ?? null),
    jupyterUrl: pulumi.interpolate`https://${pod.id}-8888.proxy.runpod.net`,
    jupyterPassword: pod.jupyterPassword,
  };
};
