/** Container registry credentials: `{base_url}/v2/registries`. */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import { CreateRegistryRequest, ListRegistriesResponse, Registry } from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

/** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
export function createRegistry(
  client: RunpodClient,
  body: z.input<typeof CreateRegistryRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/registries",
    body,
    requestSchema: CreateRegistryRequest,
    responseSchema: Registry,
    ...opts,
  });
}

export function getRegistry(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/registries/${segment(id)}`,
    responseSchema: Registry,
    ...opts,
  });
}

export async function listRegistries(client: RunpodClient, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: "/v2/registries",
    responseSchema: ListRegistriesResponse,
    ...opts,
  });
  return res.registries;
}

export function deleteRegistry(client: RunpodClient, id: string, opts: CallOptions = {}): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/registries/${segment(id)}`,
    ...opts,
  });
}
