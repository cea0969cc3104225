/**
 * Placement across regions and GPU types. The service places exactly one GPU type in one data
 * center per create and never falls back; this program reads the catalog, builds an ordered list
 * of (data center, GPU type) candidates, and the Pod walks it until one accepts.
 *
 * Placement is a create-time strategy: a later change of the catalog never replaces the pod.
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, placementCandidates } from "runpod-dynamic";

export = async () => {
  const config = new pulumi.Config();
  const preferred = config.get("gpuType") ?? "NVIDIA A40";
  const fallbacks = config.getObject<string[]>("fallbackGpuTypes") ?? [
    "NVIDIA L40S",
    "NVIDIA GeForce RTX 4090",
  ];

  // The catalog is not a reservation: a candidate can still say "no capacity", and the walk goes on.
  const candidates = await placementCandidates({
    gpuTypeIds: [preferred, ...fallbacks],
    regions: ["EUROPE", "NORTH_AMERICA"],
    minAvailability: "LOW",
    maxCandidates: 8,
  });

  const pod = new Pod("inference", {
    name: "inference",
    image: config.get("image") ?? "vllm/vllm-openai:v0.6.3",
    gpu: { id: preferred },
    ports: ["8000/http"],
    placement: { candidates },
  });

  return {
    candidates,
    podId: pod.id,
    placedIn: pod.dataCenterId,
    placedGpu: pod.gpu.apply((g) => g?.id ?? null),
    status: pod.status,
  };
};
