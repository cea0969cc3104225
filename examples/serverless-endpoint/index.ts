/**
 * A serverless endpoint from a serverless template, smoke-tested during `pulumi up`, plus a job on
 * a hosted image model. Deleting an endpoint removes its logs and job history: production stacks
 * should `protect` it.
 */
import * as pulumi from "@pulumi/pulumi";
import { ServerlessEndpoint, ServerlessJob } from "runpod-dynamic";

const config = new pulumi.Config();

const endpoint = new ServerlessEndpoint("worker", {
  name: "vllm-worker",
  templateId: config.get("templateId") ?? "vllm-worker",
  gpuTypeIds: config.getObject<string[]>("gpuTypeIds") ?? ["NVIDIA A100 80GB PCIe", "NVIDIA H100 80GB HBM3"],
  workersMin: 0,
  workersMax: config.getNumber("workersMax") ?? 2,
  idleTimeout: 60,
  executionTimeoutMs: 300_000,
  flashboot: true,
  env: { MAX_MODEL_LEN: "8192" },
});

// Runs once at create, and again whenever the input changes.
const smoke = new ServerlessJob("smoke", {
  endpointId: endpoint.id,
  input: { prompt: config.get("smokePrompt") ?? "Say hello in one word." },
});

const picture = new ServerlessJob("picture", {
  endpointId: "black-forest-labs-flux-1-schnell",
  input: { prompt: "a lighthouse at dawn", width: 768, height: 512, num_inference_steps: 4, guidance: 3.5 },
});

export const endpointId = endpoint.id;
export const jobUrl = endpoint.jobUrl;
export const workersMax = endpoint.workersMax;
export const smokeStatus = smoke.status;
/** Image URLs expire after 7 days. */
export const imageUrl = picture.output.apply((o) => (o as { image_url?: string } | null)?.image_url ?? null);
