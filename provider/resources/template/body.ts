/**
 * A Template's request bodies: what create and update send, from the checked inputs.
 */

import type {
  CreateTemplateRequest as CreateBody,
  UpdateTemplateRequest,
} from "../../client/schemas/templates.js";
import { apiBody } from "../../fields/derive.js";
import { applyCommand } from "../container.js";
import { TEMPLATE, TEMPLATE_BODY } from "./fields.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

/** The command fields: sent as one `args` string, built here. */
const COMMAND = ["args", "cmd", "entrypoint"];

/**
 * The create body: CreateTemplateRequest's fields only. The command travels as `args` alone (the
 * contract's encoding of `cmd`/`entrypoint`), the one form every implementation of the API stores.
 */
export function createTemplateBody(inputs: TemplateInputs): CreateBody {
  const body = apiBody(TEMPLATE, TEMPLATE_BODY, inputs, {
    only: Object.keys(TEMPLATE_BODY).filter((k) => !COMMAND.includes(k)),
  });
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
  // Each field as given, or set back to its declared default; the command and the mount built here.
  const body = apiBody(TEMPLATE, TEMPLATE_BODY, news, {
    only: updates.filter((u) => u !== "args" && u !== "mounts.persistent"),
    defaults: true,
  });
  if (updates.includes("args")) {
    const command = applyCommand(olds.args ?? "", news);
    if ("args" in command) body.args = command.args;
  }
  if (updates.includes("mounts.persistent") && news.mounts?.persistent) {
    body.mounts = { persistent: news.mounts.persistent };
  }
  return body as UpdateTemplateRequest;
}
