/**
 * Container registry credentials (`{base_url}/v2/registries`) and ECR delegations
 * (`{base_url}/v2/registries/delegations`).
 */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateDelegationRequest,
  CreateRegistryRequest,
  EcrDelegation,
  ListDelegationsResponse,
  ListRegistriesResponse,
  Registry,
} from "../schemas/index.js";
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

export async function listDelegations(client: RunpodClient, opts: CallOptions = {}) {
  const res = await client.request({
    method: "GET",
    base: "v2",
    path: "/v2/registries/delegations",
    responseSchema: ListDelegationsResponse,
    ...opts,
  });
  return res.delegations;
}

/** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
export function createDelegation(
  client: RunpodClient,
  body: z.input<typeof CreateDelegationRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/registries/delegations",
    body,
    requestSchema: CreateDelegationRequest,
    responseSchema: EcrDelegation,
    ...opts,
  });
}

export function revokeDelegation(
  client: RunpodClient,
  id: string,
  opts: CallOptions = {},
): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/registries/delegations/${segment(id)}`,
    ...opts,
  });
}
