/** The Secret provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { Secret as ApiSecret } from "../../client/schemas/secrets.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { byName, checkResult, diffResult, missingObject, readResult, unlessGone } from "../common.js";
import { adopt } from "../create-outcomes.js";
import { createSecretBody, patchBody, secretOutputs } from "./body.js";
import { checkSecret } from "./check.js";
import { diffSecret } from "./diff.js";
import { SECRET } from "./fields.js";
import { markRotation } from "./rotation.js";
import type { SecretInputs, SecretOutputs } from "./types.js";

const label = byName("Secret");

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A name the account already uses, with the id to adopt it by. */
function nameTaken(name: string, id: string | undefined): Error {
  return new Error(
    `a secret named "${name}" already exists in the account${id ? ` (id ${id})` : ""}, and names are unique regardless of case. ` +
      `Choose another name, or adopt it with adoptId${id ? `: "${id}"` : ""} (its value is then set from the program).`,
  );
}

/** @internal The provider host's side of Secret; programs reach it only through the thin provider. */
export class SecretProvider {
  /** The schema, and whether the value changed: check alone sees the old value (rotation.ts). */
  async check(olds: SecretInputs, news: SecretInputs) {
    const before = (olds ?? {}) as unknown as Record<string, unknown>;
    const inputs = markRotation(before, news as unknown as Record<string, unknown>);
    return checkResult(inputs as unknown as SecretInputs, checkSecret(inputs));
  }

  async diff(_id: string, olds: SecretOutputs, news: SecretInputs) {
    return diffResult(diffSecret(olds, news), news);
  }

  async create(ctx: HostContext, inputs: SecretInputs): Promise<pulumi.dynamic.CreateResult<SecretOutputs>> {
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);
    let created: ApiSecret;
    try {
      // Names are unique: a secret of this name the account did not have before, found after an
      // unanswered create, is the one it made.
      created = await createOnce({
        what: `a secret named ${inputs.name}`,
        create: () => ctx.api.secrets.create(createSecretBody(inputs)),
        list: () => ctx.api.secrets.list({ name: inputs.name }),
        matches: (s) => sameName(s.name, inputs.name),
        refuse: (existing) => {
          const taken = existing.find((s) => sameName(s.name, inputs.name));
          return taken ? nameTaken(inputs.name, taken.id) : undefined;
        },
        claimed: new Set(),
        clock: ctx.clock,
      });
    } catch (err) {
      if (!isRunpodApiError(err, ERROR_CODES.CONFLICT)) throw err;
      const taken = (await ctx.api.secrets.list({ name: inputs.name })).find((s) =>
        sameName(s.name, inputs.name),
      );
      throw nameTaken(inputs.name, taken?.id);
    }
    ctx.progress(
      label(inputs),
      `created ${created.id}; reference it in env as ${secretOutputs(created).reference}`,
    );
    return { id: created.id, outs: secretOutputs(created) };
  }

  /** `adoptId`: take over an existing secret of the same name and write the program's value to it. */
  private adopt(ctx: HostContext, id: string, inputs: SecretInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "secret",
      id,
      read: () => ctx.api.secrets.get(id),
      plan: (s) =>
        s.name !== inputs.name
          ? {
              refused: `it is named "${s.name}", the inputs say "${inputs.name}", and a secret's name cannot change`,
            }
          : // The API never shows the value, so only writing it makes the secret hold what state records.
            { write: () => ctx.api.secrets.update(id, patchBody(["value", "description"], inputs)) },
      outputs: secretOutputs,
      note: "; its value was set from the program",
    });
  }

  /**
   * GET; 404 is gone. A value rotated outside Pulumi shows as a new `valueLastUpdatedAt`: the inputs
   * recorded then lack the value, so the next `up` writes the program's back (rotation.ts).
   */
  async read(
    ctx: HostContext,
    id: string,
    props?: SecretOutputs,
  ): Promise<pulumi.dynamic.ReadResult<SecretOutputs>> {
    const s = await unlessGone(ctx.api.secrets.get(id));
    if (!s) return missingObject("secret", id, props);
    const outs = secretOutputs(s);
    const recorded = props?.valueLastUpdatedAt;
    if (recorded === undefined || recorded === null || recorded === outs.valueLastUpdatedAt) {
      return { id, props: outs };
    }
    ctx.progress(
      label(outs),
      `its value was set outside Pulumi at ${outs.valueLastUpdatedAt}; the next up sets it back`,
    );
    const inputs: Partial<SecretInputs> = {
      name: outs.name,
      ...(outs.description !== null ? { description: outs.description } : {}),
    };
    return readResult(id, outs, inputs);
  }

  /** PATCH with only what changed (a rotation, a description); nothing changed (only adoptId moved): a read. */
  async update(
    ctx: HostContext,
    id: string,
    olds: SecretOutputs,
    news: SecretInputs,
  ): Promise<pulumi.dynamic.UpdateResult<SecretOutputs>> {
    const body = patchBody(diffSecret(olds, news).updates, news);
    const s =
      Object.keys(body).length > 0 ? await ctx.api.secrets.update(id, body) : await ctx.api.secrets.get(id);
    if (body.value !== undefined) {
      ctx.progress(
        label(news),
        `rotated the value of ${id}; pods and workers that reference it get it at their next boot, running ones keep the old value`,
      );
    }
    return { outs: secretOutputs(s) };
  }

  /** DELETE; 404 is success. References to it no longer resolve when a pod or worker next boots. */
  async delete(ctx: HostContext, id: string, props: SecretOutputs): Promise<void> {
    const what = label(props, id);
    try {
      await ctx.api.secrets.delete(id);
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return;
      throw err;
    }
    ctx.progress(what, `deleted ${id}`);
  }
}

/** @internal */
export const secretProvider = bindToHost(SECRET, new SecretProvider(), label);
