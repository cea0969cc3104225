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

/** Registry credentials: `{base_url}/v2/registries` (`api.registries`). */
export class RegistriesApi {
  constructor(private readonly client: RunpodClient) {}

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  create(body: z.input<typeof CreateRegistryRequest>, opts: CallOptions = {}) {
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

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/registries/${segment(id)}`,
      responseSchema: Registry,
      ...opts,
    });
  }

  async list(opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/registries",
      responseSchema: ListRegistriesResponse,
      ...opts,
    });
    return res.registries;
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/registries/${segment(id)}`,
      ...opts,
    });
  }
}

/** ECR delegations: `{base_url}/v2/registries/delegations` (`api.delegations`). */
export class DelegationsApi {
  constructor(private readonly client: RunpodClient) {}

  async list(opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/registries/delegations",
      responseSchema: ListDelegationsResponse,
      ...opts,
    });
    return res.delegations;
  }

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. */
  create(body: z.input<typeof CreateDelegationRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/registries/delegations",
      body,
      requestSchema: CreateDelegationRequest,
      responseSchema: EcrDelegation,
      ...opts,
    });
  }

  revoke(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/registries/delegations/${segment(id)}`,
      ...opts,
    });
  }
}
