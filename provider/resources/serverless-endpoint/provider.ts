/** The ServerlessEndpoint provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { CreateEndpointRequest, Endpoint } from "../../client/schemas/endpoints.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import {
  byName,
  checkResult,
  diffResult,
  knownFields,
  missingObject,
  readResult,
  unlessGone,
} from "../common.js";
import { adopt } from "../create-outcomes.js";
import { createBody, patchBody } from "./body.js";
import { checkServerlessEndpoint } from "./check.js";
import { currentView, diffServerlessEndpoint } from "./diff.js";
import { SERVERLESS_ENDPOINT } from "./fields.js";
import { endpointOutputs, inputsFromOutputs } from "./outputs.js";
import type { ServerlessEndpointInputs, ServerlessEndpointOutputs } from "./types.js";

const label = byName("ServerlessEndpoint");

/**
 * POST /v2/serverless, never doubled: an unanswered create is resolved by looking for an endpoint
 * with the same name and type that the account did not have before (provider/client/create-once.ts).
 */
function createEndpointOnce(ctx: HostContext, b: CreateEndpointRequest): Promise<Endpoint> {
  return createOnce({
    what: `an endpoint named ${b.name}`,
    create: () => ctx.api.endpoints.create(b),
    list: () => ctx.api.endpoints.list(),
    matches: (e) => e.name === b.name && (e.type ?? "QUEUE") === b.type,
    claimed: ctx.claims.endpoints,
    clock: ctx.clock,
  });
}

/** Said at diff time: preview has no other channel from a dynamic provider (the host's stderr reaches the terminal). */
function endpointDiffNote(
  olds: ServerlessEndpointOutputs,
  news: ServerlessEndpointInputs,
): string | undefined {
  const d = diffServerlessEndpoint(olds, news);
  return d.restartsWorkers.length > 0 && d.replaces.length === 0
    ? `changing ${d.restartsWorkers.join(", ")} may restart active workers`
    : undefined;
}

/** @internal The provider host's side of ServerlessEndpoint; programs reach it only through the thin provider. */
export class ServerlessEndpointProvider {
  async check(_olds: ServerlessEndpointInputs, news: ServerlessEndpointInputs) {
    return checkResult(news, checkServerlessEndpoint(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    return diffResult(diffServerlessEndpoint(olds, news), news);
  }

  async create(
    ctx: HostContext,
    inputs: ServerlessEndpointInputs,
  ): Promise<pulumi.dynamic.CreateResult<ServerlessEndpointOutputs>> {
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);
    const created = await createEndpointOnce(ctx, createBody(inputs));
    ctx.progress(label(inputs), `created ${created.id} (${created.type ?? "QUEUE"})`);
    return { id: created.id, outs: endpointOutputs(ctx.settings, created, inputs) };
  }

  private adopt(ctx: HostContext, id: string, inputs: ServerlessEndpointInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "endpoint",
      id,
      read: () => ctx.api.endpoints.get(id),
      plan: (e) => {
        const current = endpointOutputs(ctx.settings, e, inputs);
        const { replaces, updates } = diffServerlessEndpoint(current, inputs);
        if (replaces.length > 0) {
          return {
            refused: `it differs from the inputs in ${replaces.join(", ")}, which cannot change in place`,
          };
        }
        if (updates.length === 0) return {};
        return {
          write: () => ctx.api.endpoints.update(id, patchBody(updates, inputs, current, e.env ?? {})),
        };
      },
      claims: ctx.claims.endpoints,
      outputs: (e) => endpointOutputs(ctx.settings, e, inputs),
    });
  }

  async read(ctx: HostContext, id: string, props?: ServerlessEndpointOutputs) {
    const e = await unlessGone(ctx.api.endpoints.get(id));
    if (!e) return missingObject<ServerlessEndpointOutputs>("serverless endpoint", id, props);
    // On refresh `props` are the old outputs (v1 or v2 names): their env keys are the declared
    // ones, none included, so env a template added is not drift. On a get they are the program's
    // inputs, and a get without env takes every key the service holds.
    const refresh = props !== undefined && "endpointId" in props;
    const priorInputs = knownFields<ServerlessEndpointInputs>(props ? currentView(props) : undefined);
    if (!refresh && (!priorInputs.env || Object.keys(priorInputs.env).length === 0))
      priorInputs.env = e.env ?? {};
    const outs = endpointOutputs(ctx.settings, e, priorInputs);
    return readResult(id, outs, inputsFromOutputs(outs, priorInputs));
  }

  async update(
    ctx: HostContext,
    id: string,
    olds: ServerlessEndpointOutputs,
    news: ServerlessEndpointInputs,
  ) {
    const current = currentView(olds);
    const d = diffServerlessEndpoint(olds, news);
    if (d.updates.length === 0)
      return { outs: endpointOutputs(ctx.settings, await ctx.api.endpoints.get(id), news) };
    // PATCH replaces the whole env, so the endpoint's current env is read only when env changes.
    const liveEnv = d.updates.includes("env") ? ((await ctx.api.endpoints.get(id)).env ?? {}) : {};
    const updated = await ctx.api.endpoints.update(id, patchBody(d.updates, news, current, liveEnv));
    return { outs: endpointOutputs(ctx.settings, updated, news) };
  }

  async delete(ctx: HostContext, id: string, props: ServerlessEndpointOutputs): Promise<void> {
    try {
      await ctx.api.endpoints.delete(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      throw err;
    }
    ctx.progress(label(props, id), `deleted ${id} (its logs and job history are gone with it)`);
  }
}

/** @internal */
export const serverlessEndpointProvider = bindToHost(
  SERVERLESS_ENDPOINT,
  new ServerlessEndpointProvider(),
  label,
  {
    note: endpointDiffNote,
  },
);
