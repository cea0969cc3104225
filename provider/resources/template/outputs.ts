/** A Template's outputs from the API's template, and the inputs that would produce them. */
import type { Template as ApiTemplate } from "../../client/schemas/templates.js";
import { mirroredInputs, mirroredOutputs } from "../../fields/derive.js";
import { commandOutputs } from "../common.js";
import { TEMPLATE } from "./fields.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

/** Outputs from the API's template; JSON-clean (null, never undefined). */
export function templateOutputs(t: ApiTemplate): TemplateOutputs {
  const persistent = t.mounts.persistent;
  const built = {
    templateId: t.id,
    ...commandOutputs(t.args, t.cmd, t.entrypoint),
    mounts: { persistent: persistent ? { size: persistent.size, path: persistent.path } : null },
  };
  // The rest repeat a field as the API has it (fields.ts, `mirror`).
  const mirrored = mirroredOutputs(TEMPLATE, t, {}) as Omit<TemplateOutputs, keyof typeof built>;
  return JSON.parse(JSON.stringify({ ...mirrored, ...built })) as TemplateOutputs;
}

/** The inputs that would produce `outputs`: what refresh hands back so the next diff starts from the truth. */
export function inputsFromOutputs(o: TemplateOutputs, prior: Partial<TemplateInputs>): TemplateInputs {
  const inputs: Record<string, unknown> = {
    ...mirroredInputs(TEMPLATE, o, prior),
    ...(o.mounts.persistent ? { mounts: { persistent: o.mounts.persistent } } : {}),
    ...(prior.adoptId ? { adoptId: prior.adoptId } : {}),
  };
  return inputs as unknown as TemplateInputs;
}
