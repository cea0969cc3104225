/**
 * Account secrets: `{base_url}/v2/account/secrets`. Every body that carries a value names it as a
 * secret of the request, so no error built from an answer can repeat it.
 */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateSecretRequest,
  ListSecretsResponse,
  SECRET_REQUEST_MAX_BYTES,
  Secret,
  UpdateSecretRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

/** Account secrets: `{base_url}/v2/account/secrets` (`api.secrets`). */
export class SecretsApi {
  constructor(private readonly client: RunpodClient) {}

  /** Never retried on 5xx or a broken connection: the caller resolves an unknown outcome. `409`: the name is taken. */
  create(body: z.input<typeof CreateSecretRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/account/secrets",
      body,
      requestSchema: CreateSecretRequest,
      responseSchema: Secret,
      maxBodyBytes: SECRET_REQUEST_MAX_BYTES,
      secretValues: [body.value],
      ...opts,
    });
  }

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/account/secrets/${segment(id)}`,
      responseSchema: Secret,
      ...opts,
    });
  }

  /** `name` narrows the list to the secret of that name (the service compares names case-insensitively). */
  async list(query: { name?: string } = {}, opts: CallOptions = {}) {
    const res = await this.client.request({
      method: "GET",
      base: "v2",
      path: "/v2/account/secrets",
      query,
      responseSchema: ListSecretsResponse,
      ...opts,
    });
    return res.secrets;
  }

  /**
   * Rotates the value and/or changes the description. The new value reaches pods and workers at their
   * next boot; running ones keep the value they started with.
   */
  update(id: string, body: z.input<typeof UpdateSecretRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/account/secrets/${segment(id)}`,
      body,
      requestSchema: UpdateSecretRequest,
      responseSchema: Secret,
      maxBodyBytes: SECRET_REQUEST_MAX_BYTES,
      secretValues: body.value === undefined ? [] : [body.value],
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/account/secrets/${segment(id)}`,
      ...opts,
    });
  }
}
