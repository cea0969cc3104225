/**
 * A serverless endpoint from a serverless template it creates, smoke-tested during `pulumi up`, plus
 * a job on one of RunPod's hosted image models. Deleting an endpoint removes its logs and job history: production stacks
 * should `protect` it.
 */
import * as pulumi from "@pulumi/pulumi";
import { ServerlessEndpoint, ServerlessJob, Template } from "runpod-dynamic";

const config = new pulumi.Config();

// The worker's container settings, kept as a serverless template of the account (created here,
// so the program needs nothing that is not in it).
const template = new Template("vllm", {
  name: "vllm-worker",
  image: config.get("image") ?? "runpod/worker-v1-vllm:v2.4.0",
  serverless: true,
  disk: 30,
  env: { MODEL_NAME: config.get("model") ?? "Qwen/Qwen2.5-7B-Instruct" },
});

const endpoint = new ServerlessEndpoint("worker", {
  name: "vllm-worker",
  templateId: template.id,
  // Serverless GPU pools, in order: A100 80 GB, then the H100 pool.
  gpu: { pools: config.getObject<string[]>("gpuPools") ?? ["AMPERE_80", "ADA_80_PRO"] },
  workers: { min: 0, max: config.getNumber("workersMax") ?? 2, idleTimeout: 60 },
  timeout: 300_000,
  flashboot: "FLASHBOOT",
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
export const runUrl = endpoint.requestUrls.apply((u) => u.run ?? null);
export const workersMax = endpoint.workers.apply((w) => w.max);
export const smokeStatus = smoke.status;
/** Image URLs expire after 7 days. */
export const imageUrl = picture.output.apply((o) => (o as { image_url?: string } | null)?.image_url ?? null);
