/** The ServerlessEndpoint provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { CreateEndpointRequest, Endpoint } from "../../client/schemas/endpoints.js";
import { api, configureRuntime } from "../../host/context.js";
import { createOnce } from "../../host/create-once.js";
import { progress } from "../../host/progress.js";
import {
  byName,
  checkResult,
  createdSince,
  diffResult,
  knownFields,
  missingObject,
  named,
  readResult,
  unlessGone,
} from "../common.js";
import { createBody, patchBody } from "./body.js";
import { checkServerlessEndpoint } from "./check.js";
import { currentView, diffServerlessEndpoint } from "./diff.js";
import { endpointOutputs, inputsFromOutputs } from "./outputs.js";
import type { ServerlessEndpointInputs, ServerlessEndpointOutputs } from "./types.js";

const label = byName("ServerlessEndpoint");

/** Endpoints this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

/**
 * POST /v2/serverless, never doubled: an unanswered create is resolved by looking for an endpoint
 * with the same name and type created since the request was sent (provider/host/create-once.ts).
 */
function createEndpointOnce(b: CreateEndpointRequest): Promise<Endpoint> {
  return createOnce({
    what: `an endpoint named ${b.name}`,
    create: () => api().createEndpoint(b),
    list: () => api().listEndpoints(),
    matches: (e, sentAt) =>
      e.name === b.name && (e.type ?? "QUEUE") === b.type && createdSince(e.createdAt, sentAt),
    claimed,
  });
}

/** @internal The provider host's side of ServerlessEndpoint; programs reach it only through the thin provider. */
export class ServerlessEndpointProvider
  implements pulumi.dynamic.ResourceProvider<ServerlessEndpointInputs, ServerlessEndpointOutputs>
{
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

  async check(_olds: ServerlessEndpointInputs, news: ServerlessEndpointInputs) {
    return checkResult(news, checkServerlessEndpoint(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    const d = diffServerlessEndpoint(olds, news);
    if (d.restartsWorkers.length > 0 && d.replaces.length === 0) {
      // Preview has no other channel from a dynamic provider: the host's stderr reaches the terminal.
      progress(label(news), `changing ${d.restartsWorkers.join(", ")} may restart active workers`);
    }
    return diffResult(d, news);
  }

  async create(
    inputs: ServerlessEndpointInputs,
  ): Promise<pulumi.dynamic.CreateResult<ServerlessEndpointOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const created = await createEndpointOnce(createBody(inputs));
    progress(label(inputs), `created ${created.id} (${created.type ?? "QUEUE"})`);
    return { id: created.id, outs: endpointOutputs(created, inputs) };
  }

  private async adopt(id: string, inputs: ServerlessEndpointInputs) {
    const existing = await unlessGone(api().getEndpoint(id));
    if (!existing) throw new Error(`adoptId ${id}: no such endpoint (or this API key cannot see it).`);
    const current = endpointOutputs(existing, inputs);
    const d = diffServerlessEndpoint(current, inputs);
    if (d.replaces.length > 0) {
      throw new Error(
        `adoptId ${id} cannot be adopted: it differs from the inputs in ${d.replaces.join(", ")}, which cannot change in place.`,
      );
    }
    const updated =
      d.updates.length > 0
        ? await api().updateEndpoint(id, patchBody(d.updates, inputs, current, existing.env ?? {}))
        : existing;
    claimed.add(id);
    progress(label(inputs), `adopted existing endpoint ${id}`);
    return { id, outs: endpointOutputs(updated, inputs) };
  }

  async read(id: string, props?: ServerlessEndpointOutputs) {
    const e = await unlessGone(api().getEndpoint(id));
    if (!e) return missingObject<ServerlessEndpointOutputs>("serverless endpoint", id, props);
    // On refresh `props` are the old outputs (v1 or v2 names): their env keys are the declared
    // ones, none included, so env a template added is not drift. On a get they are the program's
    // inputs, and a get without env takes every key the service holds.
    const refresh = props !== undefined && "endpointId" in props;
    const priorInputs = knownFields<ServerlessEndpointInputs>(props ? currentView(props) : undefined);
    if (!refresh && (!priorInputs.env || Object.keys(priorInputs.env).length === 0))
      priorInputs.env = e.env ?? {};
    const outs = endpointOutputs(e, priorInputs);
    return readResult(id, outs, inputsFromOutputs(outs, priorInputs));
  }

  async update(id: string, olds: ServerlessEndpointOutputs, news: ServerlessEndpointInputs) {
    const current = currentView(olds);
    const d = diffServerlessEndpoint(olds, news);
    if (d.updates.length === 0) return { outs: endpointOutputs(await api().getEndpoint(id), news) };
    // PATCH replaces the whole env, so the endpoint's current env is read only when env changes.
    const liveEnv = d.updates.includes("env") ? ((await api().getEndpoint(id)).env ?? {}) : {};
    const updated = await api().updateEndpoint(id, patchBody(d.updates, news, current, liveEnv));
    return { outs: endpointOutputs(updated, news) };
  }

  async delete(id: string, props: ServerlessEndpointOutputs): Promise<void> {
    try {
      await api().deleteEndpoint(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      throw err;
    }
    progress(label(props, id), `deleted ${id} (its logs and job history are gone with it)`);
  }
}

/** @internal */
export const serverlessEndpointProvider = named(new ServerlessEndpointProvider(), label);
