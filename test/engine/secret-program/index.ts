/**
 * An account secret whose value is a secret config value, and a CPU pod whose env references it:
 *
 *   pulumi config set --secret hfToken hf_...
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, Secret } from "runpod-dynamic";

const config = new pulumi.Config();

const token = new Secret("hf", {
  name: "hf-token",
  value: config.requireSecret("hfToken"),
  description: "Hugging Face read token",
});

const pod = new Pod("app", {
  name: "app",
  image: "runpod/base:0.6.2-cpu",
  cpu: { id: "cpu3c", vcpuCount: 2 },
  env: { HF_TOKEN: token.reference },
});

export const secretId = token.id;
export const reference = token.reference;
export const podId = pod.id;
