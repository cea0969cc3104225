/**
 * Each resource type's provider, with the engine's call shape, running on a host's context: the one
 * table both doors serve, the dynamic provider (provider/dynamic/runtime.ts) and the provider plugin
 * (provider/plugin/server.ts).
 */
import { clusterProvider } from "../resources/cluster/provider.js";
import { networkVolumeProvider } from "../resources/network-volume/provider.js";
import { podProvider } from "../resources/pod/provider.js";
import { registryProvider } from "../resources/registry/provider.js";
import { secretProvider } from "../resources/secret/provider.js";
import { serverlessEndpointProvider } from "../resources/serverless-endpoint/provider.js";
import { serverlessJobProvider } from "../resources/serverless-job/provider.js";
import { sshKeyProvider } from "../resources/ssh-key/provider.js";
import { stackIdentityProvider } from "../resources/stack-identity/provider.js";
import { templateProvider } from "../resources/template/provider.js";
import type { HostSource } from "./bind.js";

/** @internal Each type's provider on `host`; the doors' own, not an API for programs. */
export function resourceProviders(host: HostSource) {
  return {
    Cluster: clusterProvider(host),
    NetworkVolume: networkVolumeProvider(host),
    Pod: podProvider(host),
    Registry: registryProvider(host),
    Secret: secretProvider(host),
    ServerlessEndpoint: serverlessEndpointProvider(host),
    ServerlessJob: serverlessJobProvider(host),
    SshKey: sshKeyProvider(host),
    StackIdentity: stackIdentityProvider,
    Template: templateProvider(host),
  };
}

/** @internal */
export type ResourceProviders = ReturnType<typeof resourceProviders>;
