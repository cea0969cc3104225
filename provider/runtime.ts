/**
 * The implementation the serialized providers load by package name inside the provider host
 * (`require("runpod-dynamic/runtime")`). One entry per resource type.
 */
import { clusterProvider } from "./resources/cluster/provider.js";
import { networkVolumeProvider } from "./resources/network-volume/provider.js";
import { podProvider } from "./resources/pod/provider.js";
import { registryProvider } from "./resources/registry/provider.js";
import { secretProvider } from "./resources/secret/provider.js";
import { serverlessEndpointProvider } from "./resources/serverless-endpoint/provider.js";
import { serverlessJobProvider } from "./resources/serverless-job/provider.js";
import { sshKeyProvider } from "./resources/ssh-key/provider.js";
import { templateProvider } from "./resources/template/provider.js";

/** @internal Each type name's provider, as the thin provider loads it; not an API for programs. */
export const providers = {
  Cluster: clusterProvider,
  NetworkVolume: networkVolumeProvider,
  Pod: podProvider,
  Registry: registryProvider,
  Secret: secretProvider,
  ServerlessEndpoint: serverlessEndpointProvider,
  ServerlessJob: serverlessJobProvider,
  SshKey: sshKeyProvider,
  Template: templateProvider,
} as const;

export { setRuntimeOverrides } from "./host/context.js";
export { setProgressSink } from "./host/progress.js";
