/**
 * Typed calls, one per API operation, each a thin wrapper over `RunpodClient.request`.
 * Paths and bodies follow the contract; where it is silent, the public OpenAPI descriptions.
 *
 * `RunpodApi` is the one surface callers hold. Each call is built in the module of its resource
 * family under `api/` (where its behaviour is documented); the class binds them to one client.
 */
import type { z } from "zod";
import * as account from "./api/account.js";
import * as billing from "./api/billing.js";
import type { CallOptions } from "./api/call-options.js";
import * as catalog from "./api/catalog.js";
import * as clusters from "./api/clusters.js";
import * as endpoints from "./api/endpoints.js";
import * as hub from "./api/hub.js";
import * as jobs from "./api/jobs.js";
import * as logs from "./api/logs.js";
import * as networkVolumes from "./api/network-volumes.js";
import * as pods from "./api/pods.js";
import * as registries from "./api/registries.js";
import * as secrets from "./api/secrets.js";
import * as templates from "./api/templates.js";
import type { RunpodClient } from "./request.js";
import type {
  BillingQuery,
  CreateClusterRequest,
  CreateDelegationRequest,
  CreateEndpointRequest,
  CreateNetworkVolumeRequest,
  CreatePodRequest,
  CreateRegistryRequest,
  CreateSecretRequest,
  CreateTemplateRequest,
  Job,
  PodAction,
  UpdateEndpointRequest,
  UpdateNetworkVolumeRequest,
  UpdatePodRequest,
  UpdateSecretRequest,
  UpdateTemplateRequest,
} from "./schemas/index.js";

export {
  isJobWaitTimeout,
  isTerminalJobStatus,
  JobWaitTimeoutError,
  type PollJobOptions,
} from "./api/jobs.js";

export class RunpodApi {
  constructor(readonly client: RunpodClient) {}

  // ---- pods ({base_url}/v2/pods): api/pods.ts ----

  createPod(body: z.input<typeof CreatePodRequest>, opts: CallOptions = {}) {
    return pods.createPod(this.client, body, opts);
  }

  getPod(id: string, opts: CallOptions = {}) {
    return pods.getPod(this.client, id, opts);
  }

  listPods(query: pods.ListPodsQuery = {}, opts: CallOptions = {}) {
    return pods.listPods(this.client, query, opts);
  }

  updatePod(id: string, body: z.input<typeof UpdatePodRequest>, opts: CallOptions = {}) {
    return pods.updatePod(this.client, id, body, opts);
  }

  deletePod(id: string, opts: CallOptions = {}): Promise<undefined> {
    return pods.deletePod(this.client, id, opts);
  }

  podAction(id: string, action: PodAction, opts: CallOptions = {}) {
    return pods.podAction(this.client, id, action, opts);
  }

  podLogs(id: string, query: logs.LogQuery = {}, opts: logs.LogCallOptions = {}) {
    return pods.podLogs(this.client, id, query, opts);
  }

  /** The pod's log with each line's resume cursor (api/logs.ts). */
  podLogEvents(id: string, query: logs.LogQuery = {}, opts: logs.LogCallOptions = {}) {
    return logs.podLogEvents(this.client, id, query, opts);
  }

  // ---- account SSH keys: api/account.ts ----

  getSshKeys(opts: CallOptions = {}) {
    return account.getSshKeys(this.client, opts);
  }

  putSshKeys(keys: readonly string[], opts: CallOptions = {}) {
    return account.putSshKeys(this.client, keys, opts);
  }

  // ---- catalog: api/catalog.ts ----

  listGpuTypes(query: catalog.GpuTypesQuery = {}, opts: CallOptions = {}) {
    return catalog.listGpuTypes(this.client, query, opts);
  }

  listCpuFlavors(query: catalog.CpuFlavorsQuery = {}, opts: CallOptions = {}) {
    return catalog.listCpuFlavors(this.client, query, opts);
  }

  listDataCenters(query: catalog.DataCentersQuery = {}, opts: CallOptions = {}) {
    return catalog.listDataCenters(this.client, query, opts);
  }

  listPublicTemplates(query: catalog.PublicTemplatesQuery = {}, opts: CallOptions = {}) {
    return catalog.listPublicTemplates(this.client, query, opts);
  }

  // ---- templates: api/templates.ts ----

  createTemplate(body: z.input<typeof CreateTemplateRequest>, opts: CallOptions = {}) {
    return templates.createTemplate(this.client, body, opts);
  }

  getTemplate(id: string, opts: CallOptions = {}) {
    return templates.getTemplate(this.client, id, opts);
  }

  listTemplates(opts: CallOptions = {}) {
    return templates.listTemplates(this.client, opts);
  }

  updateTemplate(id: string, body: z.input<typeof UpdateTemplateRequest>, opts: CallOptions = {}) {
    return templates.updateTemplate(this.client, id, body, opts);
  }

  deleteTemplate(id: string, opts: CallOptions = {}): Promise<undefined> {
    return templates.deleteTemplate(this.client, id, opts);
  }

  // ---- network volumes: api/network-volumes.ts ----

  createNetworkVolume(body: z.input<typeof CreateNetworkVolumeRequest>, opts: CallOptions = {}) {
    return networkVolumes.createNetworkVolume(this.client, body, opts);
  }

  getNetworkVolume(id: string, opts: CallOptions = {}) {
    return networkVolumes.getNetworkVolume(this.client, id, opts);
  }

  listNetworkVolumes(opts: CallOptions = {}) {
    return networkVolumes.listNetworkVolumes(this.client, opts);
  }

  updateNetworkVolume(id: string, body: z.input<typeof UpdateNetworkVolumeRequest>, opts: CallOptions = {}) {
    return networkVolumes.updateNetworkVolume(this.client, id, body, opts);
  }

  deleteNetworkVolume(id: string, opts: CallOptions = {}): Promise<undefined> {
    return networkVolumes.deleteNetworkVolume(this.client, id, opts);
  }

  // ---- serverless endpoints ({base_url}/v2/serverless): api/endpoints.ts ----

  createEndpoint(body: z.input<typeof CreateEndpointRequest>, opts: CallOptions = {}) {
    return endpoints.createEndpoint(this.client, body, opts);
  }

  getEndpoint(id: string, opts: CallOptions = {}) {
    return endpoints.getEndpoint(this.client, id, opts);
  }

  listEndpoints(opts: CallOptions = {}) {
    return endpoints.listEndpoints(this.client, opts);
  }

  updateEndpoint(id: string, body: z.input<typeof UpdateEndpointRequest>, opts: CallOptions = {}) {
    return endpoints.updateEndpoint(this.client, id, body, opts);
  }

  deleteEndpoint(id: string, opts: CallOptions = {}): Promise<undefined> {
    return endpoints.deleteEndpoint(this.client, id, opts);
  }

  listEndpointWorkers(id: string, opts: CallOptions = {}) {
    return endpoints.listEndpointWorkers(this.client, id, opts);
  }

  listEndpointReleases(id: string, opts: CallOptions = {}) {
    return endpoints.listEndpointReleases(this.client, id, opts);
  }

  /** A worker's log with each line's resume cursor (api/logs.ts). */
  workerLogEvents(
    endpointId: string,
    workerId: string,
    query: logs.LogQuery = {},
    opts: logs.LogCallOptions = {},
  ) {
    return logs.workerLogEvents(this.client, endpointId, workerId, query, opts);
  }

  // ---- registry credentials and ECR delegations ({base_url}/v2/registries): api/registries.ts ----

  createRegistry(body: z.input<typeof CreateRegistryRequest>, opts: CallOptions = {}) {
    return registries.createRegistry(this.client, body, opts);
  }

  getRegistry(id: string, opts: CallOptions = {}) {
    return registries.getRegistry(this.client, id, opts);
  }

  listRegistries(opts: CallOptions = {}) {
    return registries.listRegistries(this.client, opts);
  }

  deleteRegistry(id: string, opts: CallOptions = {}): Promise<undefined> {
    return registries.deleteRegistry(this.client, id, opts);
  }

  listDelegations(opts: CallOptions = {}) {
    return registries.listDelegations(this.client, opts);
  }

  createDelegation(body: z.input<typeof CreateDelegationRequest>, opts: CallOptions = {}) {
    return registries.createDelegation(this.client, body, opts);
  }

  revokeDelegation(id: string, opts: CallOptions = {}): Promise<undefined> {
    return registries.revokeDelegation(this.client, id, opts);
  }

  // ---- account secrets ({base_url}/v2/account/secrets): api/secrets.ts ----

  createSecret(body: z.input<typeof CreateSecretRequest>, opts: CallOptions = {}) {
    return secrets.createSecret(this.client, body, opts);
  }

  getSecret(id: string, opts: CallOptions = {}) {
    return secrets.getSecret(this.client, id, opts);
  }

  listSecrets(query: { name?: string } = {}, opts: CallOptions = {}) {
    return secrets.listSecrets(this.client, query, opts);
  }

  updateSecret(id: string, body: z.input<typeof UpdateSecretRequest>, opts: CallOptions = {}) {
    return secrets.updateSecret(this.client, id, body, opts);
  }

  deleteSecret(id: string, opts: CallOptions = {}): Promise<undefined> {
    return secrets.deleteSecret(this.client, id, opts);
  }

  // ---- instant clusters ({base_url}/v2/clusters): api/clusters.ts ----

  createCluster(body: z.input<typeof CreateClusterRequest>, opts: CallOptions = {}) {
    return clusters.createCluster(this.client, body, opts);
  }

  getCluster(id: string, opts: CallOptions = {}) {
    return clusters.getCluster(this.client, id, opts);
  }

  listClusters(opts: CallOptions = {}) {
    return clusters.listClusters(this.client, opts);
  }

  listClusterPods(id: string, opts: CallOptions = {}) {
    return clusters.listClusterPods(this.client, id, opts);
  }

  renameCluster(id: string, name: string, opts: CallOptions = {}) {
    return clusters.renameCluster(this.client, id, name, opts);
  }

  deleteCluster(id: string, opts: CallOptions = {}): Promise<undefined> {
    return clusters.deleteCluster(this.client, id, opts);
  }

  // ---- jobs ({serverless_url}/v2/{endpoint_id}/...): api/jobs.ts ----

  runJob(endpointId: string, input: Record<string, unknown>, opts: CallOptions = {}) {
    return jobs.runJob(this.client, endpointId, input, opts);
  }

  runJobSync(endpointId: string, input: Record<string, unknown>, opts: CallOptions = {}) {
    return jobs.runJobSync(this.client, endpointId, input, opts);
  }

  cancelJob(endpointId: string, jobId: string, opts: CallOptions = {}) {
    return jobs.cancelJob(this.client, endpointId, jobId, opts);
  }

  getJobStatus(endpointId: string, jobId: string, opts: CallOptions = {}) {
    return jobs.getJobStatus(this.client, endpointId, jobId, opts);
  }

  pollJob(endpointId: string, jobId: string, options: jobs.PollJobOptions): Promise<Job> {
    return jobs.pollJob(this.client, endpointId, jobId, options);
  }

  // ---- billing history ({base_url}/v2/billing/...): api/billing.ts ----

  listBilling(query: BillingQuery = {}, opts: CallOptions = {}) {
    return billing.listBilling(this.client, query, opts);
  }

  listPodBilling(query: BillingQuery & { podId?: string | undefined } = {}, opts: CallOptions = {}) {
    return billing.listPodBilling(this.client, query, opts);
  }

  listServerlessBilling(
    query: BillingQuery & { serverlessId?: string | undefined } = {},
    opts: CallOptions = {},
  ) {
    return billing.listServerlessBilling(this.client, query, opts);
  }

  listNetworkVolumeBilling(
    query: BillingQuery & { networkVolumeId?: string | undefined } = {},
    opts: CallOptions = {},
  ) {
    return billing.listNetworkVolumeBilling(this.client, query, opts);
  }

  listClusterBilling(query: BillingQuery & { clusterId?: string | undefined } = {}, opts: CallOptions = {}) {
    return billing.listClusterBilling(this.client, query, opts);
  }

  // ---- hub ({base_url}/graphql, the queries runpodctl sends): api/hub.ts ----

  hubListings(input: hub.HubListingsInput, opts: CallOptions = {}) {
    return hub.hubListings(this.client, input, opts);
  }

  hubListing(ref: hub.HubListingRef, opts: CallOptions = {}) {
    return hub.hubListing(this.client, ref, opts);
  }
}
