/** The Template provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { byName, checkResult, diffResult, missingObject, readResult, unlessGone } from "../common.js";
import { adopt } from "../create-outcomes.js";
import { createTemplateBody, templatePatchBody } from "./body.js";
import { checkTemplate } from "./check.js";
import { diffTemplate } from "./diff.js";
import { TEMPLATE } from "./fields.js";
import { inputsFromOutputs, templateOutputs } from "./outputs.js";
import type { TemplateInputs, TemplateOutputs } from "./types.js";

const label = byName("Template");

/**
 * What a change does to what was made from the template, said at diff time: preview has no other
 * channel from a dynamic provider (the host's stderr reaches the terminal).
 */
function templateDiffNote(olds: TemplateOutputs, news: TemplateInputs): string | undefined {
  const d = diffTemplate(olds, news);
  if (d.replaces.length > 0) {
    return `replacing it (${d.replaces.join(", ")}) gives it a new id: pods that take their templateId from it are replaced, endpoints are updated to the new id${d.replaces.includes("serverless") ? "; a serverless template cannot back a pod, and a pod template cannot back an endpoint" : ""}`;
  }
  if (d.changes) {
    return `changing ${d.updates.join(", ")} edits the template only: pods and endpoints already created from it keep the settings they were created with (a template is applied once, at create)`;
  }
  return undefined;
}

/** @internal The provider host's side of Template; programs reach it only through the thin provider. */
export class TemplateProvider {
  async check(_olds: TemplateInputs, news: TemplateInputs) {
    return checkResult(news, checkTemplate(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: TemplateOutputs, news: TemplateInputs): Promise<pulumi.dynamic.DiffResult> {
    return diffResult(diffTemplate(olds, news), news);
  }

  async create(
    ctx: HostContext,
    inputs: TemplateInputs,
  ): Promise<pulumi.dynamic.CreateResult<TemplateOutputs>> {
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);
    const body = createTemplateBody(inputs);
    // Never doubled: an unanswered create is resolved by looking among the account's templates for
    // one with the same name and image that was not there before (provider/client/create-once.ts).
    const t = await createOnce({
      what: `a template named ${body.name}`,
      create: () => ctx.api.templates.create(body),
      list: () => ctx.api.templates.list(),
      matches: (x) => x.name === body.name && x.image === body.image,
      claimed: ctx.claims.templates,
      clock: ctx.clock,
    });
    ctx.progress(label(inputs), `created ${t.id}`);
    return { id: t.id, outs: templateOutputs(t) };
  }

  /** `adoptId`: take over one of the account's templates, then apply what differs in place. */
  private adopt(ctx: HostContext, id: string, inputs: TemplateInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "template",
      id,
      read: () => ctx.api.templates.get(id),
      plan: (t) => {
        const current = templateOutputs(t);
        const { replaces, updates } = diffTemplate(current, inputs);
        if (replaces.length > 0) {
          return {
            refused: `it differs from the inputs in ${replaces.join(", ")}, which cannot change in place`,
          };
        }
        if (updates.length === 0) return {};
        return {
          write: () =>
            ctx.api.templates
              .update(id, templatePatchBody(updates, current, inputs))
              .catch((err: unknown) => {
                if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
                throw new Error(
                  `${label(inputs)}: adoptId ${id} is not one of your templates (public catalog templates can be read but not changed); create your own instead.`,
                );
              }),
        };
      },
      claims: ctx.claims.templates,
      outputs: templateOutputs,
    });
  }

  async read(
    ctx: HostContext,
    id: string,
    props?: TemplateOutputs,
  ): Promise<pulumi.dynamic.ReadResult<TemplateOutputs>> {
    const t = await unlessGone(ctx.api.templates.get(id));
    if (!t) return missingObject("template", id, props);
    const outs = templateOutputs(t);
    return readResult(id, outs, inputsFromOutputs(outs, (props ?? {}) as Partial<TemplateInputs>));
  }

  async update(
    ctx: HostContext,
    id: string,
    olds: TemplateOutputs,
    news: TemplateInputs,
  ): Promise<pulumi.dynamic.UpdateResult<TemplateOutputs>> {
    const d = diffTemplate(olds, news);
    const body = templatePatchBody(d.updates, olds, news);
    const t =
      Object.keys(body).length > 0
        ? await ctx.api.templates.update(id, body)
        : await ctx.api.templates.get(id);
    return { outs: templateOutputs(t) };
  }

  /** DELETE; 404 is success. A template an endpoint is bound to is refused (400): say what to do. */
  async delete(ctx: HostContext, id: string, props: TemplateOutputs): Promise<void> {
    const what = label(props, id);
    try {
      await ctx.api.templates.delete(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      if (isRunpodApiError(err, ERROR_CODES.BAD_REQUEST)) {
        throw new Error(
          `${what}: template ${id} cannot be deleted while it is in use: ${err.detail ?? err.message}. ` +
            "Delete that endpoint or point it at another template first. In a Pulumi program, give the endpoint " +
            "the template's id as an Output (templateId: template.id) so that destroy deletes the endpoint first.",
        );
      }
      throw err;
    }
    ctx.progress(what, `deleted ${id} (pods created from it keep their settings)`);
  }
}

/** @internal */
export const templateProvider = bindToHost(TEMPLATE, new TemplateProvider(), label, {
  note: templateDiffNote,
});
