/**
 * A Template's request bodies: what create and update send, from the checked inputs.
 */

import {
  type CreateTemplateRequest as CreateBody,
  CreateTemplateRequest,
  type UpdateTemplateRequest,
} from "../../client/schemas/templates.js";
import { applyCommand } from "../container.js";
import { TEMPLATE_API_DEFAULTS } from "./defaults.js";
import { DEFAULTED } from "./diff.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

/**
 * The create body: CreateTemplateRequest's fields only. The command travels as `args` alone (the
 * contract's encoding of `cmd`/`entrypoint`), the one form every implementation of the API stores.
 */
export function createTemplateBody(inputs: TemplateInputs): CreateBody {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(CreateTemplateRequest.shape)) {
    if (key === "args" || key === "cmd" || key === "entrypoint") continue;
    const v = (inputs as unknown as Record<string, unknown>)[key];
    if (v !== undefined) body[key] = v;
  }
  if (inputs.args !== undefined || inputs.cmd !== undefined || inputs.entrypoint !== undefined) {
    const command = applyCommand("", inputs);
    if ("args" in command) body.args = command.args;
  }
  return body as CreateBody;
}

/** The PATCH body for the `updates` of a diff: only what changed, never an empty `mounts`. */
export function templatePatchBody(
  updates: readonly string[],
  olds: Partial<TemplateOutputs>,
  news: TemplateInputs,
): UpdateTemplateRequest {
  const body: Record<string, unknown> = {};
  for (const u of updates) {
    if (u === "args") {
      const command = applyCommand(olds.args ?? "", news);
      if ("args" in command) body.args = command.args;
    } else if (u === "mounts.persistent") {
      if (news.mounts?.persistent) body.mounts = { persistent: news.mounts.persistent };
    } else if (u === "env") {
      body.env = news.env ?? {};
    } else if ((DEFAULTED as readonly string[]).includes(u)) {
      const k = u as (typeof DEFAULTED)[number];
      body[k] = news[k] ?? TEMPLATE_API_DEFAULTS[k];
    } else {
      body[u] = (news as unknown as Record<string, unknown>)[u];
    }
  }
  return body as UpdateTemplateRequest;
}
