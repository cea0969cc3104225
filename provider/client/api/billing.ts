/** Billing history: `{base_url}/v2/billing/...`, one route per billed family. */
import type { RunpodClient } from "../request.js";
import {
  type BillingQuery,
  ListBillingResponse,
  ListClusterBillingResponse,
  ListNetworkVolumeBillingResponse,
  ListPodBillingResponse,
  ListServerlessBillingResponse,
} from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

/** Billing history: `{base_url}/v2/billing/...`, one call per billed family (`api.billing`). */
export class BillingApi {
  constructor(private readonly client: RunpodClient) {}

  /** The whole account's spend per bucket, every cost component (`GET /v2/billing`). */
  account(query: BillingQuery = {}, opts: CallOptions = {}) {
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
  pods(query: BillingQuery & { podId?: string | undefined } = {}, opts: CallOptions = {}) {
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
  serverless(query: BillingQuery & { serverlessId?: string | undefined } = {}, opts: CallOptions = {}) {
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
  networkVolumes(
    query: BillingQuery & { networkVolumeId?: string | undefined } = {},
    opts: CallOptions = {},
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

  /** One record per instant cluster per bucket; `clusterId` narrows it to one cluster. */
  clusters(query: BillingQuery & { clusterId?: string | undefined } = {}, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/billing/clusters",
      query: { ...query },
      responseSchema: ListClusterBillingResponse,
      ...opts,
    });
  }
}
