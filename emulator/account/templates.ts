/**
 * Templates under base_url (`/v2/templates`): the acting account's own (accounts.ts), plus reads
 * of public catalog templates.
 */

import { badRequest, notFound } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { nextArgs } from "../pods/command.js";
import { CreateTemplateRequest, UpdateTemplateRequest } from "../schemas/templates.js";
import { readableTemplate, requireRegistry } from "../store/lookups.js";
import type { TemplateRecord } from "../store/records.js";

/** The Template response object (v2 description), without the emulator's bookkeeping. */
export function templateView(t: TemplateRecord): Record<string, unknown> {
  const { source: _source, account: _account, ...view } = t;
  return view;
}

function own(ctx: RouteContext): TemplateRecord {
  const t = ctx.state.templates.get(ctx.params.id ?? "");
  // Public catalog templates are readable but not yours: 404 for changes, as the service answers.
  if (t?.source !== "user" || t.account !== ctx.account)
    throw notFound(`Template '${ctx.params.id}' was not found among your templates.`);
  return t;
}

function createTemplate(ctx: RouteContext) {
  const body = validateBody(CreateTemplateRequest, ctx.body);
  const args = nextArgs("", body);
  requireRegistry(ctx.state, ctx.account, body.registry);
  // The defaults of CreateTemplateRequest (v2 description): public, serverless false; SSH and
  // Jupyter on. Seeded templates have their own (seed/default.ts).
  const t: TemplateRecord = {
    id: ctx.state.newId(10),
    source: "user",
    name: body.name,
    image: body.image,
    args,
    disk: body.disk ?? 20,
    mounts: body.mounts?.persistent ? { persistent: { ...body.mounts.persistent } } : {},
    ports: body.ports ?? [],
    env: body.env ?? {},
    registry: body.registry ?? null,
    serverless: body.serverless ?? false,
    public: body.public ?? false,
    category: body.category ?? "NVIDIA",
    startSsh: body.startSsh ?? true,
    startJupyter: body.startJupyter ?? true,
    allowedCudaVersions: body.allowedCudaVersions ?? [],
    readme: "",
    account: ctx.account,
  };
  if (t.serverless && t.mounts.persistent) {
    throw badRequest(
      "A serverless template cannot have a persistent mount; attach a network volume to the endpoint.",
    );
  }
  ctx.state.templates.set(t.id, t);
  return json(201, templateView(t));
}

function listTemplates(ctx: RouteContext) {
  const templates = [...ctx.state.templates.values()]
    .filter((t) => t.source === "user" && t.account === ctx.account)
    .map(templateView);
  return json(200, { templates });
}

function getTemplate(ctx: RouteContext) {
  const t = readableTemplate(ctx.state, ctx.params.id ?? "", ctx.account);
  if (!t) throw notFound(`Template '${ctx.params.id}' was not found or is not accessible.`);
  return json(200, templateView(t));
}

function updateTemplate(ctx: RouteContext) {
  const t = own(ctx);
  const patch = validateBody(UpdateTemplateRequest, ctx.body);
  requireRegistry(ctx.state, ctx.account, patch.registry);
  const next: TemplateRecord = { ...t, args: nextArgs(t.args, patch) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || k === "args" || k === "cmd" || k === "entrypoint") continue;
    // `mounts: {}` leaves the mount unchanged, as omitting it does (v2 description: UpdateTemplateRequest).
    if (k === "mounts") {
      const persistent = (v as TemplateRecord["mounts"]).persistent;
      if (persistent) next.mounts = { persistent: { ...persistent } };
    } else (next as Record<string, unknown>)[k] = v;
  }
  if (next.serverless && next.mounts.persistent) {
    throw badRequest(
      "A serverless template cannot have a persistent mount; attach a network volume to the endpoint.",
    );
  }
  ctx.state.templates.set(t.id, next);
  return json(200, templateView(next));
}

function deleteTemplate(ctx: RouteContext) {
  const t = own(ctx);
  // An endpoint takes a template's settings once and keeps no link to it: nothing blocks the delete.
  ctx.state.templates.delete(t.id);
  return noContent;
}

export const templateRoutes: RouteTable = {
  v2: [
    { method: "POST", pattern: "/v2/templates", handler: createTemplate },
    { method: "GET", pattern: "/v2/templates", handler: listTemplates },
    { method: "GET", pattern: "/v2/templates/:id", handler: getTemplate },
    { method: "PATCH", pattern: "/v2/templates/:id", handler: updateTemplate },
    { method: "DELETE", pattern: "/v2/templates/:id", handler: deleteTemplate },
  ],
};
