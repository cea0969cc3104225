/**
 * The implementation the serialized providers load by package name inside the provider host
 * (`require("runpod-dynamic/runtime")`). One entry per resource type.
 */
import { clusterProvider } from "./resources/cluster.js";
import { networkVolumeProvider } from "./resources/network-volume.js";
import { podProvider } from "./resources/pod/provider.js";
import { registryProvider } from "./resources/registry.js";
import { serverlessEndpointProvider } from "./resources/serverless-endpoint.js";
import { serverlessJobProvider } from "./resources/serverless-job.js";
import { sshKeyProvider } from "./resources/ssh-key.js";
import { templateProvider } from "./resources/template.js";

export const providers = {
  Cluster: clusterProvider,
  NetworkVolume: networkVolumeProvider,
  Pod: podProvider,
  Registry: registryProvider,
  ServerlessEndpoint: serverlessEndpointProvider,
  ServerlessJob: serverlessJobProvider,
  SshKey: sshKeyProvider,
  Template: templateProvider,
} as const;

export { setRuntimeOverrides } from "./host/context.js";
export { setProgressSink } from "./host/progress.js";
