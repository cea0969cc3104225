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

/** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
export function createCluster(
  client: RunpodClient,
  body: z.input<typeof CreateClusterRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/clusters",
    body,
    requestSchema: CreateClusterRequest,
    responseSchema: Cluster,
    ...opts,
  });
}

export function getCluster(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/clusters/${segment(id)}`,
    responseSchema: Cluster,
    ...opts,
  });
}

export async function listClusters(client: RunpodClient, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: "/v2/clusters",
    responseSchema: ListClustersResponse,
    ...opts,
  });
  return res.clusters;
}

export async function listClusterPods(client: RunpodClient, id: string, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: `/v2/clusters/${segment(id)}/pods`,
    responseSchema: ListClusterPodsResponse,
    ...opts,
  });
  return res.pods;
}

export function renameCluster(client: RunpodClient, id: string, name: string, opts: CallOptions = {}) {
  return client.request({
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

export function deleteCluster(client: RunpodClient, id: string, opts: CallOptions = {}): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/clusters/${segment(id)}`,
    ...opts,
  });
}
