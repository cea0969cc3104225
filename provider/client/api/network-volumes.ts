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

/** Network volumes: `{base_url}/v2/network-volumes` (`api.networkVolumes`). */
export class NetworkVolumesApi {
  constructor(private readonly client: RunpodClient) {}

  create(body: z.input<typeof CreateNetworkVolumeRequest>, opts: CallOptions = {}) {
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

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/network-volumes/${segment(id)}`,
      responseSchema: NetworkVolume,
      ...opts,
    });
  }

  async list(opts: CallOptions = {}) {
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

  update(id: string, body: z.input<typeof UpdateNetworkVolumeRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/network-volumes/${segment(id)}`,
      body,
      requestSchema: UpdateNetworkVolumeRequest,
      responseSchema: NetworkVolume,
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/network-volumes/${segment(id)}`,
      ...opts,
    });
  }
}
