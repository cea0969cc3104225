/**
 * Credentials written as plain strings, as most programs write them: a pod's, a template's and an
 * endpoint's env, and a registry password. Nothing here is `pulumi.secret`; the resource classes
 * must make each of them a secret before the engine stores it.
 *
 * The value comes from the environment (SECRET_INPUTS_TOKEN) rather than stack config: the engine
 * records plain config in the default provider's inputs, which is the config's business, not the
 * resources'.
 */
import { Pod, Registry, ServerlessEndpoint, Template } from "runpod-dynamic";

const token = process.env.SECRET_INPUTS_TOKEN ?? "";

const registry = new Registry("ghcr", { name: "ghcr", username: "bot", password: `${token}-REGISTRY` });

const template = new Template("worker", {
  name: "secret-inputs-worker",
  image: "runpod/base:0.6.2-cpu",
  env: { HF_TOKEN: `${token}-TEMPLATE`, MODE: "serve" },
});

const pod = new Pod("box", {
  name: "secret-inputs-box",
  image: "runpod/base:0.6.2-cpu",
  cpu: { id: "cpu3c", vcpuCount: 2 },
  env: { HF_TOKEN: `${token}-POD`, MODE: "train" },
});

const endpoint = new ServerlessEndpoint("api", {
  name: "secret-inputs-api",
  image: "runpod/worker-sdxl:3.1.0",
  gpu: { pools: ["ADA_24"] },
  env: { OPENAI_API_KEY: `${token}-ENDPOINT` },
});

export const ids = { registry: registry.id, template: template.id, pod: pod.id, endpoint: endpoint.id };
