/** The account's templates: `{base_url}/v2/templates`. */
import type { z } from "zod";
import type { RunpodClient } from "../request.js";
import {
  CreateTemplateRequest,
  ListTemplatesResponse,
  Template,
  UpdateTemplateRequest,
} from "../schemas/index.js";
import { type CallOptions, segment } from "./call-options.js";

/** Templates: `{base_url}/v2/templates` (`api.templates`). */
export class TemplatesApi {
  constructor(private readonly client: RunpodClient) {}

  create(body: z.input<typeof CreateTemplateRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "POST",
      base: "v2",
      path: "/v2/templates",
      body,
      requestSchema: CreateTemplateRequest,
      responseSchema: Template,
      ...opts,
    });
  }

  get(id: string, opts: CallOptions = {}) {
    return this.client.request({
      method: "GET",
      base: "v2",
      path: `/v2/templates/${segment(id)}`,
      responseSchema: Template,
      ...opts,
    });
  }

  async list(opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/templates",
        responseSchema: ListTemplatesResponse,
        ...opts,
      })
    ).templates;
  }

  update(id: string, body: z.input<typeof UpdateTemplateRequest>, opts: CallOptions = {}) {
    return this.client.request({
      method: "PATCH",
      base: "v2",
      path: `/v2/templates/${segment(id)}`,
      body,
      requestSchema: UpdateTemplateRequest,
      responseSchema: Template,
      ...opts,
    });
  }

  delete(id: string, opts: CallOptions = {}): Promise<undefined> {
    return this.client.request<undefined>({
      method: "DELETE",
      base: "v2",
      path: `/v2/templates/${segment(id)}`,
      ...opts,
    });
  }
}
