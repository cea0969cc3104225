/**
 * The endpoint of examples/serverless-endpoint as its program reads after the move to v2 inputs:
 * the same endpoint that test/fixtures/serverless-endpoint-v1-stack.json holds in v1 state.
 */
import { ServerlessEndpoint } from "runpod-dynamic";

export const endpointId = new ServerlessEndpoint("worker", {
  name: "vllm-worker",
  templateId: "vllm-worker",
  gpu: { pools: ["AMPERE_80", "ADA_80_PRO"] },
  workers: { min: 0, max: 2, idleTimeout: 60 },
  timeout: 300_000,
  flashboot: "FLASHBOOT",
  env: { MAX_MODEL_LEN: "8192" },
}).id;
