/**
 * The program the workflow previews on pull requests and deploys from main: one GPU pod for
 * notebooks, with its Hugging Face token taken from encrypted stack config.
 *
 *   pulumi config set --secret hfToken hf_...
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod } from "runpod-dynamic";

const config = new pulumi.Config();

const notebook = new Pod("notebook", {
  name: "notebook",
  image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: config.get("gpuType") ?? "NVIDIA A40" },
  // A secret input stays encrypted in state and masked in previews (policy env-secrets).
  env: { HF_TOKEN: config.requireSecret("hfToken") },
  ports: ["8888/http"],
  startJupyter: true,
  // Somewhere to go when the first choice has no capacity (policy pod-placement-fallback).
  placement: { regions: ["EUROPE", "NORTH_AMERICA"], gpuTypeIds: ["NVIDIA L40S"] },
});

export const podId = notebook.id;
export const status = notebook.status;
export const jupyterPassword = notebook.jupyterPassword;
