/**
 * A Template's outputs from the API's template, and the inputs that would produce them. Kept out
 * of provider/resources/template.ts because the signatures name the API's zod-inferred template
 * type, and the declarations programs compile against must not reach zod.
 */
import type { Template as ApiTemplate } from "../../client/schemas/templates.js";
import { commandOutputs } from "../common.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

/** Outputs from the API's template; JSON-clean (null, never undefined). */
export function templateOutputs(t: ApiTemplate): TemplateOutputs {
  const persistent = t.mounts.persistent;
  return {
    templateId: t.id,
    name: t.name,
    image: t.image,
    args: t.args,
    ...commandOutputs(t.args, t.cmd, t.entrypoint),
    disk: t.disk,
    env: { ...t.env },
    ports: [...t.ports],
    registry: t.registry,
    mounts: { persistent: persistent ? { size: persistent.size, path: persistent.path } : null },
    allowedCudaVersions: [...t.allowedCudaVersions],
    startSsh: t.startSsh,
    startJupyter: t.startJupyter,
    public: t.public,
    serverless: t.serverless,
    category: t.category,
  };
}

/** The inputs that would produce `outputs`: what refresh hands back so the next diff starts from the truth. */
export function inputsFromOutputs(o: TemplateOutputs, prior: Partial<TemplateInputs>): TemplateInputs {
  const inputs: Record<string, unknown> = {
    name: o.name,
    image: o.image,
    args: o.args,
    disk: o.disk,
    env: o.env,
    ports: o.ports,
    ...(o.registry !== null ? { registry: o.registry } : {}),
    ...(o.mounts.persistent ? { mounts: { persistent: o.mounts.persistent } } : {}),
    allowedCudaVersions: o.allowedCudaVersions,
    startSsh: o.startSsh,
    startJupyter: o.startJupyter,
    public: o.public,
    serverless: o.serverless,
    category: o.category,
    ...(prior.adoptId ? { adoptId: prior.adoptId } : {}),
  };
  return inputs as unknown as TemplateInputs;
}
