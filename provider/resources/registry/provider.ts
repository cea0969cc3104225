/** The Registry provider: check, diff, create, read, update and delete, as the provider host runs them. */
import { randomBytes } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { Registry as ApiRegistry } from "../../client/schemas/registries.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { deleteWhenReleased } from "../../host/release-wait.js";
import { byName, checkResult, diffResult, missingObject, unlessGone } from "../common.js";
import { adopt } from "../create-outcomes.js";
import { checkRegistry } from "./check.js";
import { credentialsDigest, diffRegistry } from "./diff.js";
import { REGISTRY } from "./fields.js";
import type { RegistryInputs, RegistryOutputs } from "./types.js";

const label = byName("Registry");

function registryOutputs(r: ApiRegistry, inputs: RegistryInputs, salt: string): RegistryOutputs {
  return {
    registryId: r.id,
    name: r.name,
    credentialsDigest: credentialsDigest(inputs.username, inputs.password, salt),
    credentialsSalt: salt,
  };
}

/** @internal The provider host's side of Registry; programs reach it only through the thin provider. */
export class RegistryProvider {
  async check(_olds: RegistryInputs, news: RegistryInputs) {
    return checkResult(news, checkRegistry(news as unknown as Record<string, unknown>));
  }

  async diff(_id: string, olds: RegistryOutputs, news: RegistryInputs) {
    return diffResult(diffRegistry(olds, news), news);
  }

  async create(
    ctx: HostContext,
    inputs: RegistryInputs,
  ): Promise<pulumi.dynamic.CreateResult<RegistryOutputs>> {
    const salt = randomBytes(16).toString("hex");
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs, salt);
    const r = await createOnce({
      what: `a registry credential named ${inputs.name}`,
      create: () =>
        ctx.api.registries.create({
          name: inputs.name,
          username: inputs.username,
          password: inputs.password,
        }),
      list: () => ctx.api.registries.list(),
      matches: (x) => x.name === inputs.name,
      claimed: ctx.claims.registries,
      clock: ctx.clock,
    });
    ctx.progress(label(inputs), `created ${r.id}`);
    return { id: r.id, outs: registryOutputs(r, inputs, salt) };
  }

  private adopt(ctx: HostContext, id: string, inputs: RegistryInputs, salt: string) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "registry credential",
      id,
      read: () => ctx.api.registries.get(id),
      plan: (r) =>
        r.name === inputs.name
          ? {}
          : {
              refused: `it is named "${r.name}", the inputs say "${inputs.name}", and a credential cannot be renamed`,
            },
      claims: ctx.claims.registries,
      outputs: (r) => registryOutputs(r, inputs, salt),
    });
  }

  async read(
    ctx: HostContext,
    id: string,
    props?: RegistryOutputs,
  ): Promise<pulumi.dynamic.ReadResult<RegistryOutputs>> {
    const r = await unlessGone(ctx.api.registries.get(id));
    if (!r) return missingObject("registry credential", id, props);
    // The API never shows the credentials: what was recorded stays.
    const outs: RegistryOutputs = {
      registryId: r.id,
      name: r.name,
      credentialsDigest: props?.credentialsDigest ?? "",
      credentialsSalt: props?.credentialsSalt ?? "",
    };
    return { id, props: outs };
  }

  /** Never called with a change (everything replaces); answers the credential as it is. */
  async update(
    ctx: HostContext,
    id: string,
    olds: RegistryOutputs,
  ): Promise<pulumi.dynamic.UpdateResult<RegistryOutputs>> {
    const r = await ctx.api.registries.get(id);
    return { outs: { ...olds, registryId: r.id, name: r.name } };
  }

  /**
   * DELETE; 404 is success. A 400 means a pod still pulls with it: retried while a pod deleted in
   * the same destroy lets go, then a clear error.
   */
  async delete(ctx: HostContext, id: string, props: RegistryOutputs): Promise<void> {
    const what = label(props, id);
    const gone = await deleteWhenReleased(ctx, {
      what,
      noun: "registry credential",
      id,
      remove: () => ctx.api.registries.delete(id),
      inUse: (err) => isRunpodApiError(err, ERROR_CODES.BAD_REQUEST),
      advice:
        "Terminate the pod that pulls its image with it, then run destroy again. In a Pulumi program, give the pod " +
        "`registry: registry.id` (an Output) so that destroy deletes the pod before the credential.",
    });
    if (gone) ctx.progress(what, `deleted ${id}`);
  }
}

/** @internal */
export const registryProvider = bindToHost(REGISTRY, new RegistryProvider(), label);
