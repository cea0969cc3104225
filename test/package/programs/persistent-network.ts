/** A pod the API would refuse: a persistent volume and a network volume together. */
import { Pod } from "runpod-dynamic";

export const pod = new Pod("notebook", {
  name: "notebook",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  mounts: {
    persistent: { size: 20, path: "/data" },
    network: [{ volumeId: "nv-tx3-datasets", path: "/workspace" }],
  },
}).id;
