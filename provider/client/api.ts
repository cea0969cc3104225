/**
 * Typed calls, one per API operation, each a thin wrapper over `RunpodClient.request`, grouped by
 * the API's areas: `api.pods.create(body)`, `api.endpoints.workers(id)`, `api.jobs.poll(...)`.
 * Paths and bodies follow the contract; where it is silent, the public OpenAPI descriptions.
 *
 * `RunpodApi` is the one object callers hold. Each area's calls are built and documented in its
 * module under `api/`; every area shares the one client, so one rate-limit budget and one retry
 * policy cover all of them.
 */
import { BillingApi } from "./api/billing.js";
import { CatalogApi } from "./api/catalog.js";
import { ClustersApi } from "./api/clusters.js";
import { EndpointsApi } from "./api/endpoints.js";
import { HubApi } from "./api/hub.js";
import { JobsApi } from "./api/jobs.js";
import { NetworkVolumesApi } from "./api/network-volumes.js";
import { PodsApi } from "./api/pods.js";
import { DelegationsApi, RegistriesApi } from "./api/registries.js";
import { SecretsApi } from "./api/secrets.js";
import { SshKeysApi } from "./api/ssh-keys.js";
import { TemplatesApi } from "./api/templates.js";
import type { RunpodClient } from "./request.js";

/**
 * The RunPod API, one object per area, over one client.
 * @example
 * // RUNPOD_API_KEY and the other RUNPOD_* variables
 * const api = new RunpodApi(new RunpodClient(resolveSettings()));
 * const pod = await api.pods.get("abc123");
 */
export class RunpodApi {
  /** `{base_url}/v2/pods`, and a pod's log. */
  readonly pods: PodsApi;
  /** The account's SSH keys. */
  readonly sshKeys: SshKeysApi;
  /** GPU types, CPU flavors, data centers and public templates. */
  readonly catalog: CatalogApi;
  /** `{base_url}/v2/templates`. */
  readonly templates: TemplatesApi;
  /** `{base_url}/v2/network-volumes`. */
  readonly networkVolumes: NetworkVolumesApi;
  /** `{base_url}/v2/serverless`: endpoints, their workers, releases and workers' logs. */
  readonly endpoints: EndpointsApi;
  /** `{base_url}/v2/registries`: registry credentials. */
  readonly registries: RegistriesApi;
  /** ECR delegations. */
  readonly delegations: DelegationsApi;
  /** `{base_url}/v2/account/secrets`. */
  readonly secrets: SecretsApi;
  /** `{base_url}/v2/clusters`: instant clusters. */
  readonly clusters: ClustersApi;
  /** `{serverless_url}/v2/{endpoint_id}/...`: an endpoint's jobs. */
  readonly jobs: JobsApi;
  /** `{base_url}/v2/billing/...`: billing history. */
  readonly billing: BillingApi;
  /** The hub's listings (`{base_url}/graphql`, the queries runpodctl sends). */
  readonly hub: HubApi;

  constructor(readonly client: RunpodClient) {
    this.pods = new PodsApi(client);
    this.sshKeys = new SshKeysApi(client);
    this.catalog = new CatalogApi(client);
    this.templates = new TemplatesApi(client);
    this.networkVolumes = new NetworkVolumesApi(client);
    this.endpoints = new EndpointsApi(client);
    this.registries = new RegistriesApi(client);
    this.delegations = new DelegationsApi(client);
    this.secrets = new SecretsApi(client);
    this.clusters = new ClustersApi(client);
    this.jobs = new JobsApi(client);
    this.billing = new BillingApi(client);
    this.hub = new HubApi(client);
  }
}
