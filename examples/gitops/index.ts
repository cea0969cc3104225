/**
 * The program the workflow previews on pull requests and deploys from main: one GPU pod for
 * notebooks on a network volume, with its Hugging Face token taken from encrypted stack config,
 * stopped by the workflow's autostop job when its GPU has been idle for an hour.
 *
 *   pulumi config set --secret hfToken hf_...
 *
 * The workflow parks the pod every weekday evening and wakes it every weekday morning by running
 * `pulumi up` with `parked` set (see .github/workflows/runpod.yml).
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, Pod } from "runpod-dynamic";

const config = new pulumi.Config();

// The notebooks live here: a stop (by the park or by autostop) keeps them, and so does a replacement.
const workspace = new NetworkVolume("workspace", {
  name: "notebook-workspace",
  size: 20,
  dataCenterId: config.get("dataCenter") ?? "US-KS-2",
});

const notebook = new Pod("notebook", {
  name: "notebook",
  image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
  gpu: { id: config.get("gpuType") ?? "NVIDIA A40" },
  // A secret input stays encrypted in state and masked in previews (policy env-secrets).
  env: { HF_TOKEN: config.requireSecret("hfToken") },
  ports: ["8888/http"],
  startJupyter: true,
  mounts: { network: [{ volumeId: workspace.id, path: "/workspace" }] },
  // Another GPU type in the volume's data center when the first has no capacity
  // (policy pod-placement-fallback).
  placement: { regions: ["NORTH_AMERICA"], gpuTypeIds: ["NVIDIA L40S"] },
  // Stopped by the workflow's autostop job after an hour with its GPU under 5 % (docs/autostop.md);
  // the morning wake leaves a pod autostop stopped alone.
  autostop: { idleMinutes: 60, gpuUtilBelow: 5 },
  // Parked at night by the workflow's schedule: stopped, the disk kept, the GPU not billed.
  desiredStatus: config.getBoolean("parked") ? "STOPPED" : "RUNNING",
});

export const podId = notebook.id;
export const volumeId = workspace.id;
export const status = notebook.status;
export const desiredStatus = notebook.desiredStatus;
export const jupyterPassword = notebook.jupyterPassword;
