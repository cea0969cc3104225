/** Instant clusters: `{base_url}/v2/clusters`. */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  Cluster,
  CreateClusterRequest,
  ListClusterPodsResponse,
  ListClustersResponse,
  UpdateClusterRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

/** Instant clusters: `{base_url}/v2/clusters` (`api.clusters`). */
export class ClustersApi {
  constructor(private readonly client: RunpodClient) {}

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  create(body: z.input<typeof CreateClusterRequest>, opts: CallOptions = {}) {
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

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/clusters/${segment(id)}`,
      responseSchema: Cluster,
      ...opts,
    });
  }

  async list(opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/clusters",
      responseSchema: ListClustersResponse,
      ...opts,
    });
    return res.clusters;
  }

  async pods(id: string, opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/clusters/${segment(id)}/pods`,
      responseSchema: ListClusterPodsResponse,
      ...opts,
    });
    return res.pods;
  }

  rename(id: string, name: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/clusters/${segment(id)}`,
      body: { name },
      requestSchema: UpdateClusterRequest,
      responseSchema: Cluster,
      idempotent: true,
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/clusters/${segment(id)}`,
      ...opts,
    });
  }
}
