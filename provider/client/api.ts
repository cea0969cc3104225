/**
 * Typed calls, one per API operation, each a thin wrapper over `RunpodClient.request`.
 * Paths and bodies follow the contract; where it is silent, the public OpenAPI descriptions.
 */
import { z } from "zod";
import { ERROR_CODES, RunpodApiError } from "./errors.js";
import type { RunpodClient } from "./request.js";
import {
  type BillingQuery,
  Cluster,
  CreateClusterRequest,
  CreateEndpointRequest,
  CreateNetworkVolumeRequest,
  CreatePodRequest,
  CreateRegistryRequest,
  CreateTemplateRequest,
  Endpoint,
  GraphqlResponse,
  HubListing,
  HubListingSummary,
  Job,
  LISTING_FROM_REPO_QUERY,
  LISTING_QUERY,
  LISTINGS_QUERY,
  ListBillingResponse,
  ListClusterPodsResponse,
  ListClustersResponse,
  ListCpuFlavorsResponse,
  ListDataCentersResponse,
  ListEndpointsResponse,
  ListGpuTypesResponse,
  ListNetworkVolumeBillingResponse,
  ListNetworkVolumesResponse,
  ListPodBillingResponse,
  ListPodsResponse,
  ListRegistriesResponse,
  ListServerlessBillingResponse,
  ListTemplatesResponse,
  NetworkVolume,
  Pod,
  type PodAction,
  PodActionRequest,
  PodLogLine,
  Registry,
  RunJobRequest,
  SshKeys,
  TERMINAL_JOB_STATUSES,
  Template,
  UpdateClusterRequest,
  UpdateEndpointRequest,
  UpdateNetworkVolumeRequest,
  UpdatePodRequest,
  UpdateSshKeysRequest,
  UpdateTemplateRequest,
} from "./schemas/index.js";

type Opts = {
  readonly signal?: AbortSignal | undefined;
  readonly deadlineMs?: number;
  readonly priority?: "foreground" | "background";
  /** Whether the client may send it again after a 5xx or a broken connection. @default not for POST */
  readonly idempotent?: boolean;
};
const enc = encodeURIComponent;

export interface PollJobOptions {
  /** Give up after this long, in the client's clock (JobWaitTimeoutError). */
  readonly timeoutMs: number;
  /** The first wait between status reads. */
  readonly intervalMs: number;
  /** Each wait is `factor` times the last, up to `maxMs`. @default a fixed interval */
  readonly backoff?: { readonly factor: number; readonly maxMs: number };
  /** Called with every job read from `/status`. */
  readonly onStatus?: (job: Job) => void;
  readonly priority?: "foreground" | "background";
  readonly signal?: AbortSignal | undefined;
  /** The job as already known (the submit's answer): the first read then waits an interval. */
  readonly first?: Job;
}

/** Whether a job status is final (TERMINAL_JOB_STATUSES). */
export function isTerminalJobStatus(status: string): boolean {
  return (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/**
 * `pollJob` ran out of time before the job ended. A RunpodApiError with code RUNPOD_TIMEOUT and an
 * unknown outcome (the job may still finish), carrying the last job read.
 */
export class JobWaitTimeoutError extends RunpodApiError {
  constructor(
    readonly endpointId: string,
    /** The job as last read: its status is not terminal. */
    readonly job: Job,
    readonly timeoutMs: number,
  ) {
    super({
      code: ERROR_CODES.TIMEOUT,
      message: `Job ${job.id} on endpoint ${endpointId} did not finish in time (last status ${job.status}).`,
      outcome: "unknown",
    });
  }
}

export class RunpodApi {
  constructor(readonly client: RunpodClient) {}

  // ---- pods ({base_url}/v2/pods) ----

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome by name. */
  createPod(body: z.input<typeof CreatePodRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/pods",
      body,
      requestSchema: CreatePodRequest,
      responseSchema: Pod,
      ...opts,
    });
  }

  getPod(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/pods/${enc(id)}`,
      responseSchema: Pod,
      ...opts,
    });
  }

  async listPods(query: { includeClusterPods?: boolean } = {}, opts: Opts = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/pods",
      query,
      responseSchema: ListPodsResponse,
      ...opts,
    });
    return res.pods;
  }

  updatePod(id: string, body: z.input<typeof UpdatePodRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/pods/${enc(id)}`,
      body,
      requestSchema: UpdatePodRequest,
      responseSchema: Pod,
      ...opts,
    });
  }

  deletePod(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/pods/${enc(id)}`,
      ...opts,
    });
  }

  /** `terminate` answers 204 (no pod); the other actions answer the updated pod. */
  podAction(id: string, action: PodAction, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: `/v2/pods/${enc(id)}/action`,
      body: { action },
      requestSchema: PodActionRequest,
      responseSchema: Pod.optional(),
      idempotent: action !== "terminate",
      ...opts,
    });
  }

  /**
   * Follows a pod's log (server-sent events): the last `tail` lines first, then each new line
   * until the pod is gone or `signal` aborts. An event whose data is not a log line ends the
   * stream with RUNPOD_INVALID_RESPONSE.
   */
  async *podLogs(
    id: string,
    query: { source?: "container" | "system"; tail?: number; since?: string } = {},
    opts: Opts & { lastEventId?: string } = {},
  ): AsyncGenerator<PodLogLine> {
    const path = `/v2/pods/${enc(id)}/logs`;
    for await (const event of this.client.events({
      base: "v2",
      path,
      query,
      lastEventId: opts.lastEventId,
      signal: opts.signal,
      priority: opts.priority,
    })) {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        data = undefined;
      }
      const line = PodLogLine.safeParse(data);
      if (!line.success) {
        throw new RunpodApiError({
          code: ERROR_CODES.INVALID_RESPONSE,
          message: `GET ${path}: an event of the log stream is not a log line ({source, line, ts}).`,
          method: "GET",
          url: path,
          outcome: "rejected",
        });
      }
      yield line.data;
    }
  }

  // ---- account SSH keys ----

  async getSshKeys(opts: Opts = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/account/ssh-keys",
        responseSchema: SshKeys,
        ...opts,
      })
    ).keys;
  }

  /** Replaces the whole set. */
  async putSshKeys(keys: readonly string[], opts: Opts = {}) {
    return (
      await this.client.request({
        method: "PUT",
        base: "v2",
        path: "/v2/account/ssh-keys",
        body: { keys },
        requestSchema: UpdateSshKeysRequest,
        responseSchema: SshKeys,
        ...opts,
      })
    ).keys;
  }

  // ---- catalog ----

  async listGpuTypes(
    query: {
      include?: readonly "AVAILABILITY"[];
      product?: readonly ("POD" | "CLUSTER" | "SERVERLESS")[];
      count?: number;
      cloud?: "SECURE" | "COMMUNITY";
      countryCodes?: readonly string[];
      cudaVersions?: readonly string[];
      minCudaVersion?: string;
    } = {},
    opts: Opts = {},
  ) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/gpus",
        query,
        responseSchema: ListGpuTypesResponse,
        ...opts,
      })
    ).gpus;
  }

  async listCpuFlavors(
    query: { include?: readonly "AVAILABILITY"[]; product?: readonly string[] } = {},
    opts: Opts = {},
  ) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/cpus",
        query,
        responseSchema: ListCpuFlavorsResponse,
        ...opts,
      })
    ).cpus;
  }

  async listDataCenters(
    query: {
      include?: readonly ("GPU_AVAILABILITY" | "CPU_AVAILABILITY")[];
      regions?: readonly string[];
      globalNetwork?: boolean;
    } = {},
    opts: Opts = {},
  ) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/datacenters",
        query,
        responseSchema: ListDataCentersResponse,
        ...opts,
      })
    ).dataCenters;
  }

  async listPublicTemplates(query: { source?: "official" | "verified" | "community" } = {}, opts: Opts = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/catalog/templates",
        query,
        responseSchema: ListTemplatesResponse,
        ...opts,
      })
    ).templates;
  }

  // ---- templates ----

  createTemplate(body: z.input<typeof CreateTemplateRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/templates",
      body,
      requestSchema: CreateTemplateRequest,
      responseSchema: Template,
      ...opts,
    });
  }

  getTemplate(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/templates/${enc(id)}`,
      responseSchema: Template,
      ...opts,
    });
  }

  async listTemplates(opts: Opts = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/templates",
        responseSchema: ListTemplatesResponse,
        ...opts,
      })
    ).templates;
  }

  updateTemplate(id: string, body: z.input<typeof UpdateTemplateRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/templates/${enc(id)}`,
      body,
      requestSchema: UpdateTemplateRequest,
      responseSchema: Template,
      ...opts,
    });
  }

  deleteTemplate(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/templates/${enc(id)}`,
      ...opts,
    });
  }

  // ---- network volumes ----

  createNetworkVolume(body: z.input<typeof CreateNetworkVolumeRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/network-volumes",
      body,
      requestSchema: CreateNetworkVolumeRequest,
      responseSchema: NetworkVolume,
      ...opts,
    });
  }

  getNetworkVolume(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/network-volumes/${enc(id)}`,
      responseSchema: NetworkVolume,
      ...opts,
    });
  }

  async listNetworkVolumes(opts: Opts = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/network-volumes",
        responseSchema: ListNetworkVolumesResponse,
        ...opts,
      })
    ).networkVolumes;
  }

  updateNetworkVolume(id: string, body: z.input<typeof UpdateNetworkVolumeRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/network-volumes/${enc(id)}`,
      body,
      requestSchema: UpdateNetworkVolumeRequest,
      responseSchema: NetworkVolume,
      ...opts,
    });
  }

  deleteNetworkVolume(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/network-volumes/${enc(id)}`,
      ...opts,
    });
  }

  // ---- serverless endpoints ({base_url}/v2/serverless) ----

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  createEndpoint(body: z.input<typeof CreateEndpointRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/serverless",
      body,
      requestSchema: CreateEndpointRequest,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  getEndpoint(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/serverless/${enc(id)}`,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  async listEndpoints(opts: Opts = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/serverless",
      responseSchema: ListEndpointsResponse,
      ...opts,
    });
    return res.endpoints;
  }

  updateEndpoint(id: string, body: z.input<typeof UpdateEndpointRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/serverless/${enc(id)}`,
      body,
      requestSchema: UpdateEndpointRequest,
      responseSchema: Endpoint,
      ...opts,
    });
  }

  deleteEndpoint(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/serverless/${enc(id)}`,
      ...opts,
    });
  }

  // ---- registry credentials ({base_url}/v2/registries) ----

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  createRegistry(body: z.input<typeof CreateRegistryRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/registries",
      body,
      requestSchema: CreateRegistryRequest,
      responseSchema: Registry,
      ...opts,
    });
  }

  getRegistry(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/registries/${enc(id)}`,
      responseSchema: Registry,
      ...opts,
    });
  }

  async listRegistries(opts: Opts = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/registries",
      responseSchema: ListRegistriesResponse,
      ...opts,
    });
    return res.registries;
  }

  deleteRegistry(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/registries/${enc(id)}`,
      ...opts,
    });
  }

  // ---- instant clusters ({base_url}/v2/clusters) ----

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  createCluster(body: z.input<typeof CreateClusterRequest>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/clusters",
      body,
      requestSchema: CreateClusterRequest,
      responseSchema: Cluster,
      ...opts,
    });
  }

  getCluster(id: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/clusters/${enc(id)}`,
      responseSchema: Cluster,
      ...opts,
    });
  }

  async listClusters(opts: Opts = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/clusters",
      responseSchema: ListClustersResponse,
      ...opts,
    });
    return res.clusters;
  }

  async listClusterPods(id: string, opts: Opts = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/clusters/${enc(id)}/pods`,
      responseSchema: ListClusterPodsResponse,
      ...opts,
    });
    return res.pods;
  }

  renameCluster(id: string, name: string, opts: Opts = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/clusters/${enc(id)}`,
      body: { name },
      requestSchema: UpdateClusterRequest,
      responseSchema: Cluster,
      idempotent: true,
      ...opts,
    });
  }

  deleteCluster(id: string, opts: Opts = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/clusters/${enc(id)}`,
      ...opts,
    });
  }

  // ---- jobs ({serverless_url}/v2/{endpoint_id}/...) ----

  /** Submits a job and returns at once with its id. Not retried on 5xx: a retry could run it twice. */
  runJob(endpointId: string, input: Record<string, unknown>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "serverless",
      path: `/v2/${enc(endpointId)}/run`,
      body: { input },
      requestSchema: RunJobRequest,
      responseSchema: Job,
      ...opts,
    });
  }

  /** Runs a job and waits for it server-side. */
  runJobSync(endpointId: string, input: Record<string, unknown>, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "serverless",
      path: `/v2/${enc(endpointId)}/runsync`,
      body: { input },
      requestSchema: RunJobRequest,
      responseSchema: Job,
      ...opts,
      deadlineMs: opts.deadlineMs ?? 120_000,
    });
  }

  /** Cancels a queued or running job; a job that already ended is answered as it is. */
  cancelJob(endpointId: string, jobId: string, opts: Opts = {}) {
    return this.client.request({
      method: "POST",
      base: "serverless",
      path: `/v2/${enc(endpointId)}/cancel/${enc(jobId)}`,
      responseSchema: Job,
      idempotent: true,
      ...opts,
    });
  }

  getJobStatus(endpointId: string, jobId: string, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "serverless",
      path: `/v2/${enc(endpointId)}/status/${enc(jobId)}`,
      responseSchema: Job,
      ...opts,
    });
  }

  /**
   * Reads `/status` until the job is in a terminal state (TERMINAL_JOB_STATUSES) and returns it,
   * whatever that state is: what a job that did not complete means is the caller's to decide.
   * Waits follow the client's clock and the rate-limit budget. When `timeoutMs` passes first, it
   * throws a JobWaitTimeoutError carrying the last job read.
   */
  async pollJob(endpointId: string, jobId: string, options: PollJobOptions): Promise<Job> {
    const clock = this.client.clock;
    const deadline = clock.now() + options.timeoutMs;
    const backoff = options.backoff ?? { factor: 1, maxMs: options.intervalMs };
    const read = { signal: options.signal, ...(options.priority ? { priority: options.priority } : {}) };
    let interval = options.intervalMs;
    let job = options.first;
    for (;;) {
      if (job === undefined) {
        job = await this.getJobStatus(endpointId, jobId, read);
        options.onStatus?.(job);
      }
      if (isTerminalJobStatus(job.status)) return job;
      const left = deadline - clock.now();
      if (left <= 0) throw new JobWaitTimeoutError(endpointId, job, options.timeoutMs);
      await clock.sleep(Math.min(interval, left), options.signal);
      interval = Math.min(backoff.maxMs, interval * backoff.factor);
      job = undefined;
    }
  }

  // ---- billing history ({base_url}/v2/billing/...) ----

  /** The whole account's spend per bucket, every cost component (`GET /v2/billing`). */
  listBilling(query: BillingQuery = {}, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/billing",
      query: { ...query },
      responseSchema: ListBillingResponse,
      ...opts,
    });
  }

  /** One record per pod per bucket; `podId` narrows it to one pod. */
  listPodBilling(query: BillingQuery & { podId?: string | undefined } = {}, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/billing/pods",
      query: { ...query },
      responseSchema: ListPodBillingResponse,
      ...opts,
    });
  }

  /**
   * One record per serverless endpoint per bucket; `serverlessId` narrows it to one endpoint.
   * (`/v2/billing/endpoints` is the public hosted-model endpoints' billing, not this.)
   */
  listServerlessBilling(query: BillingQuery & { serverlessId?: string | undefined } = {}, opts: Opts = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/billing/serverless",
      query: { ...query },
      responseSchema: ListServerlessBillingResponse,
      ...opts,
    });
  }

  /** One record per network volume per bucket; `networkVolumeId` narrows it to one volume. */
  listNetworkVolumeBilling(
    query: BillingQuery & { networkVolumeId?: string | undefined } = {},
    opts: Opts = {},
  ) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/billing/network-volumes",
      query: { ...query },
      responseSchema: ListNetworkVolumeBillingResponse,
      ...opts,
    });
  }

  // ---- hub ({base_url}/graphql, the queries runpodctl sends) ----

  async hubListings(
    input: {
      searchQuery?: string;
      category?: string;
      owner?: string;
      orderBy?: string;
      orderDirection?: string;
      limit?: number;
      offset?: number;
    },
    opts: Opts = {},
  ) {
    const data = await this.graphql(
      LISTINGS_QUERY,
      { input },
      z.looseObject({ listings: z.array(HubListingSummary) }),
      opts,
    );
    return data.listings;
  }

  /** One listing by id, or by `owner/name`. Null when the hub has no such listing. */
  async hubListing(ref: { id: string } | { owner: string; name: string }, opts: Opts = {}) {
    if ("id" in ref) {
      const data = await this.graphql(
        LISTING_QUERY,
        { id: ref.id },
        z.looseObject({ listing: HubListing.nullable() }),
        opts,
      );
      return data.listing;
    }
    const data = await this.graphql(
      LISTING_FROM_REPO_QUERY,
      { repoOwner: ref.owner, repoName: ref.name },
      z.looseObject({ listingFromRepo: HubListing.nullable() }),
      opts,
    );
    return data.listingFromRepo;
  }

  private async graphql<T extends z.ZodType>(
    query: string,
    variables: Record<string, unknown>,
    data: T,
    opts: Opts,
  ): Promise<z.infer<T>> {
    const res = await this.client.request({
      method: "POST",
      base: "v2",
      path: "/graphql",
      body: { query, variables },
      responseSchema: GraphqlResponse(data),
      idempotent: true, // these are queries
      ...opts,
    });
    const first = res.errors?.[0];
    if (first || res.data === undefined || res.data === null) {
      throw new RunpodApiError({
        code: ERROR_CODES.BAD_REQUEST,
        message: `POST /graphql: the hub query failed: ${first?.message ?? "no data in the response"}.`,
        detail: first?.message,
        method: "POST",
        url: "/graphql",
      });
    }
    return res.data as z.infer<T>;
  }
}
