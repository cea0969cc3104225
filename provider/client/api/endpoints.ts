/**
 * Serverless endpoints: `{base_url}/v2/serverless`, their workers and releases. Their jobs are in
 * jobs.ts, their workers' logs in logs.ts.
 */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateEndpointRequest,
  Endpoint,
  ListEndpointReleasesResponse,
  ListEndpointsResponse,
  ListEndpointWorkersResponse,
  UpdateEndpointRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

/** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
export function createEndpoint(
  client: RunpodClient,
  body: z.input<typeof CreateEndpointRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/serverless",
    body,
    requestSchema: CreateEndpointRequest,
    responseSchema: Endpoint,
    ...opts,
  });
}

export function getEndpoint(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/serverless/${segment(id)}`,
    responseSchema: Endpoint,
    ...opts,
  });
}

export async function listEndpoints(client: RunpodClient, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: "/v2/serverless",
    responseSchema: ListEndpointsResponse,
    ...opts,
  });
  return res.endpoints;
}

export function updateEndpoint(
  client: RunpodClient,
  id: string,
  body: z.input<typeof UpdateEndpointRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "PATCH",
    base: "v2",
    path: `/v2/serverless/${segment(id)}`,
    body,
    requestSchema: UpdateEndpointRequest,
    responseSchema: Endpoint,
    ...opts,
  });
}

export function deleteEndpoint(client: RunpodClient, id: string, opts: CallOptions = {}): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/serverless/${segment(id)}`,
    ...opts,
  });
}

/** The endpoint's active workers (scaled-down ones are not listed) and their count per status. */
export function listEndpointWorkers(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/serverless/${segment(id)}/workers`,
    responseSchema: ListEndpointWorkersResponse,
    ...opts,
  });
}

/** The endpoint's releases, newest first, and how far the current one has rolled out. */
export function listEndpointReleases(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/serverless/${segment(id)}/releases`,
    responseSchema: ListEndpointReleasesResponse,
    ...opts,
  });
}
