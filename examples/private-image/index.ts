/**
 * A private image: registry credentials, a template that pulls with them, and a GPU pod from the
 * template. The password is a secret in state and never an output; a new password replaces the
 * credential (the API cannot update one).
 *
 *   pulumi config set registryUser my-bot
 *   pulumi config set --secret registryPassword ghp_...
 */
import * as pulumi from "@pulumi/pulumi";
import { Pod, Registry, Template } from "runpod-dynamic";

const config = new pulumi.Config();

const registry = new Registry("ghcr", {
  name: "ghcr-acme",
  username: config.require("registryUser"),
  password: config.requireSecret("registryPassword"),
});

const template = new Template("app-image", {
  name: "acme-app",
  image: config.get("image") ?? "ghcr.io/acme/app:1.4.0",
  registry: registry.id,
  ports: ["8000/http"],
  disk: 20,
  env: { LOG_LEVEL: "info" },
});

// The pod names the registry too, so `pulumi destroy` deletes the pod before the credential.
const pod = new Pod("app", {
  name: "acme-app",
  templateId: template.id,
  registry: registry.id,
  gpu: { id: "NVIDIA A40" },
  placement: { gpuTypeIds: ["NVIDIA L40S"] },
});

export const registryId = registry.id;
export const podId = pod.id;
export const image = pod.image;
export const status = pod.status;
