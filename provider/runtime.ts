/**
 * The implementation the serialized providers load by package name inside the provider host
 * (`require("runpod-dynamic/runtime")`). One entry per resource type.
 */
import { podProvider } from "./resources/pod.js";
import { serverlessEndpointProvider } from "./resources/serverless-endpoint.js";
import { serverlessJobProvider } from "./resources/serverless-job.js";
import { sshKeyProvider } from "./resources/ssh-key.js";

export const providers = {
  Pod: podProvider,
  ServerlessEndpoint: serverlessEndpointProvider,
  ServerlessJob: serverlessJobProvider,
  SshKey: sshKeyProvider,
} as const;

export { setRuntimeOverrides } from "./context.js";
export { setProgressSink } from "./progress.js";
