// A GPU pod on a network volume, on the provider plugin's Node.js SDK: the same resources as the
// `runpod-dynamic` package's classes, served by the plugin the engine fetches, so `pulumi import`
// works (docs/languages.md, "Node.js and .NET").
import * as pulumi from "@pulumi/pulumi";
import * as runpod from "@runpod-dynamic/pulumi";

const config = new pulumi.Config();

const volume = new runpod.NetworkVolume("workspace", {
  name: "node-workspace",
  size: 50,
  dataCenterId: "US-TX-3",
  type: "STANDARD",
});

const pod = new runpod.Pod("trainer", {
  name: config.get("podName") ?? "node-trainer",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA H100 80GB HBM3" },
  ports: ["22/tcp", "8888/http"],
  mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] },
});

export const podId = pod.id;
export const status = pod.status;
export const volumeId = volume.id;
export const disk = pod.disk;
