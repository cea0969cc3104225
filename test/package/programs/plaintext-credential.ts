/** A pod the API accepts, with a credential in plain env: only advisories apply. */
import { Pod } from "runpod-dynamic";

export const pod = new Pod("notebook", {
  name: "notebook",
  image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: "NVIDIA A40" },
  env: { WANDB_API_KEY: "plain-text-key" },
  placement: { gpuTypeIds: ["NVIDIA L40S"] },
}).id;
