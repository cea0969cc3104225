/** Network volumes: `{base_url}/v2/network-volumes`. */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateNetworkVolumeRequest,
  ListNetworkVolumesResponse,
  NetworkVolume,
  UpdateNetworkVolumeRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

export function createNetworkVolume(
  client: RunpodClient,
  body: z.input<typeof CreateNetworkVolumeRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/network-volumes",
    body,
    requestSchema: CreateNetworkVolumeRequest,
    responseSchema: NetworkVolume,
    ...opts,
  });
}

export function getNetworkVolume(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/network-volumes/${segment(id)}`,
    responseSchema: NetworkVolume,
    ...opts,
  });
}

export async function listNetworkVolumes(client: RunpodClient, opts: CallOptions = {}) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/network-volumes",
      responseSchema: ListNetworkVolumesResponse,
      ...opts,
    })
  ).networkVolumes;
}

export function updateNetworkVolume(
  client: RunpodClient,
  id: string,
  body: z.input<typeof UpdateNetworkVolumeRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "PATCH",
    base: "v2",
    path: `/v2/network-volumes/${segment(id)}`,
    body,
    requestSchema: UpdateNetworkVolumeRequest,
    responseSchema: NetworkVolume,
    ...opts,
  });
}

export function deleteNetworkVolume(
  client: RunpodClient,
  id: string,
  opts: CallOptions = {},
): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/network-volumes/${segment(id)}`,
    ...opts,
  });
}
