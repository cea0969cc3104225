/**
 * The program the workflow previews on pull requests and deploys from main: one GPU pod for
 * notebooks, with its Hugging Face token taken from encrypted stack config.
 *
 *   pulumi config set --secret hfToken hf_...
 *
 * The workflow parks the pod every weekday evening and wakes it every weekday morning by running
 * `pulumi up` with `parked` set (see .github/workflows/runpod.yml).
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
  // Parked at night by the workflow's schedule: stopped, the disk kept, the GPU not billed.
  desiredStatus: config.getBoolean("parked") ? "STOPPED" : "RUNNING",
});

export const podId = notebook.id;
export const status = notebook.status;
export const desiredStatus = notebook.desiredStatus;
export const jupyterPassword = notebook.jupyterPassword;
