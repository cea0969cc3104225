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

export function createTemplate(
  client: RunpodClient,
  body: z.input<typeof CreateTemplateRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "POST",
    base: "v2",
    path: "/v2/templates",
    body,
    requestSchema: CreateTemplateRequest,
    responseSchema: Template,
    ...opts,
  });
}

export function getTemplate(client: RunpodClient, id: string, opts: CallOptions = {}) {
  return client.request({
    method: "GET",
    base: "v2",
    path: `/v2/templates/${segment(id)}`,
    responseSchema: Template,
    ...opts,
  });
}

export async function listTemplates(client: RunpodClient, opts: CallOptions = {}) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/templates",
      responseSchema: ListTemplatesResponse,
      ...opts,
    })
  ).templates;
}

export function updateTemplate(
  client: RunpodClient,
  id: string,
  body: z.input<typeof UpdateTemplateRequest>,
  opts: CallOptions = {},
) {
  return client.request({
    method: "PATCH",
    base: "v2",
    path: `/v2/templates/${segment(id)}`,
    body,
    requestSchema: UpdateTemplateRequest,
    responseSchema: Template,
    ...opts,
  });
}

export function deleteTemplate(client: RunpodClient, id: string, opts: CallOptions = {}): Promise<undefined> {
  return client.request<undefined>({
    method: "DELETE",
    base: "v2",
    path: `/v2/templates/${segment(id)}`,
    ...opts,
  });
}
