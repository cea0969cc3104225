/**
 * Quickstart: a GPU pod on a network volume, reachable over SSH and JupyterLab, and a serverless
 * endpoint whose first job runs as a smoke test during `pulumi up`.
 *
 * Runs unchanged against the local emulator (`npx runpod-dynamic emulator`, then export the
 * variables it prints) or the real service (`pulumi config set --secret runpod:apiKey ...`).
 */
import * as pulumi from "@pulumi/pulumi";
import { NetworkVolume, Pod, ServerlessEndpoint, ServerlessJob, SshKey } from "runpod-dynamic";

const config = new pulumi.Config();

// A demo key so the program runs as is; set your own: pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"
const DEMO_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRlbW9kZW1vZGVtb2RlbW9kZW1vZGVtb2RlbW9kZW1v quickstart-demo";

const sshKey = new SshKey("my-key", { publicKey: config.get("sshPublicKey") ?? DEMO_KEY });

// Network storage outlives the pod; it can only grow.
const volume = new NetworkVolume("workspace", {
  name: "quickstart-workspace",
  size: config.getNumber("volumeSize") ?? 50,
  dataCenterId: config.get("dataCenterId") ?? "US-TX-3",
  // The tier RunPod publishes a rate for, so `runpod-dynamic cost` prices it before it exists.
  type: "STANDARD",
});

const pod = new Pod(
  "trainer",
  {
    name: "quickstart-trainer",
    image: config.get("image") ?? "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu: { id: config.get("gpuType") ?? "NVIDIA H100 80GB HBM3" },
    disk: 40,
    ports: ["22/tcp", "8888/http"],
    startSsh: true,
    startJupyter: true,
    // Done once the SSH port has its public address (it comes some seconds after RUNNING).
    readiness: { check: "PORTS" },
    // On the volume created above: the pod is placed in the volume's data center automatically.
    mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] },
    env: { HF_HOME: "/workspace/hf", HF_TOKEN: config.getSecret("hfToken") ?? "" },
  },
  // startSsh injects the keys registered when the pod is created: register them first.
  { dependsOn: [sshKey] },
);

const endpoint = new ServerlessEndpoint("sdxl", {
  name: "quickstart-sdxl",
  // RunPod's public SDXL worker image (check the tag you want on Docker Hub: it is one config value).
  image: config.get("endpointImage") ?? "runpod/worker-sdxl:3.1.0",
  disk: 15,
  // Serverless GPU pools, in order (getGpuTypes() shows each GPU type's pool).
  gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
  workers: { min: 0, max: config.getNumber("workersMax") ?? 2, idleTimeout: 30 },
});

const smokeTest = new ServerlessJob("smoke-test", {
  endpointId: endpoint.id,
  input: { prompt: "a lighthouse at dawn, watercolor" },
});

export const podId = pod.id;
export const podStatus = pod.status;
export const dataCenter = pod.dataCenterId;
export const volumeId = volume.id;
export const sshProxy = pod.ssh.apply((s) => s.proxy?.command ?? null);
export const sshDirect = pod.ssh.apply((s) => s.direct?.command ?? null);
export const jupyterUrl = pulumi.interpolate`https://${pod.id}-8888.proxy.runpod.net`;
export const jupyterPassword = pod.jupyterPassword;
export const endpointUrl = endpoint.jobUrl;
export const smokeTestStatus = smokeTest.status;
/** Output URLs expire after 7 days. */
export const smokeTestOutput = smokeTest.output;
