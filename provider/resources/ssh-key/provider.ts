/** The SshKey provider: check, diff, create, read, update and delete, as the provider host runs them. */

import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { isUnknown } from "../../validation/unknown.js";
import { diffResult, missingObject, partialFailure, readResult } from "../common.js";
import { checkSshKey, type ParsedKey, parsePublicKey } from "./check.js";
import { SSH_KEY } from "./fields.js";
import { hold, holderIn, isKey, type Released, release, splitHolders, standing } from "./holders.js";
import { KeySetMayHaveChanged, modifyKeys } from "./key-set.js";
import type { SshKeyInputs, SshKeyOutputs } from "./types.js";

/** A key is named by its comment, else its fingerprint (from outputs, or parsed from the inputs). */
function label(props: Record<string, unknown> | undefined, id?: string): string {
  const key = typeof props?.publicKey === "string" ? parsePublicKey(props.publicKey) : undefined;
  return `SshKey ${key?.comment ?? key?.fingerprint ?? id ?? "?"}`;
}

function outputs(key: ParsedKey, holder: string | undefined, marked = true): SshKeyOutputs {
  return {
    publicKey: key.line,
    fingerprint: key.fingerprint,
    keyType: key.type,
    comment: key.comment,
    ...(holder ? { __holder: holder } : {}),
    // Another writer of the set dropped this resource's mark: the next update puts it back.
    ...(marked ? {} : { __unmarked: true }),
  };
}

/** @internal The provider host's side of SshKey; programs reach it only through the thin provider. */
export class SshKeyProvider {
  async check(_olds: SshKeyInputs, news: SshKeyInputs) {
    const failures = checkSshKey(news as unknown as Record<string, unknown>);
    if (failures.length > 0) return { inputs: news, failures };
    return { inputs: isUnknown(news.publicKey) ? news : { ...news, publicKey: news.publicKey.trim() } };
  }

  /** New key material replaces; the same key with another comment is rewritten in place. */
  async diff(_id: string, olds: SshKeyOutputs, news: SshKeyInputs) {
    const next = isUnknown(news.publicKey) ? undefined : parsePublicKey(news.publicKey);
    const old = parsePublicKey(olds.publicKey);
    if (!next || !old || next.fingerprint !== old.fingerprint || next.type !== old.type) {
      return diffResult({ replaces: ["publicKey"], updates: [] }, news);
    }
    // The same key material with another comment is rewritten in place; a lost mark is put back.
    const changed = next.line !== old.line || olds.__unmarked === true;
    return diffResult({ replaces: [], updates: changed ? ["publicKey"] : [] }, news);
  }

  /** Registers the key, or marks this resource as one more holder of a key the account has. */
  async create(ctx: HostContext, inputs: SshKeyInputs) {
    const key = parsePublicKey(inputs.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    const holder = holderIn(inputs);
    try {
      await modifyKeys(ctx, (keys) => hold(keys, key, holder, "create"));
    } catch (err) {
      if (!(err instanceof KeySetMayHaveChanged)) throw err;
      // The key may be on the account: kept in state, so neither it nor its holder mark is lost.
      // The engine updates a resource whose create failed so at the next `up` (a write that holds
      // whatever the set holds), and a destroy lets go of it.
      throw partialFailure(
        key.fingerprint,
        outputs(key, holder),
        `${label({ ...inputs })}: registering ${key.fingerprint} failed after a write of the account's SSH key set that may have landed (${err.message}). It is recorded in state: the next \`pulumi up\` writes it again, \`pulumi destroy\` removes it.`,
      );
    }
    ctx.progress(`SshKey ${key.comment ?? key.type}`, `registered ${key.fingerprint}`);
    return { id: key.fingerprint, outs: outputs(key, holder) };
  }

  /**
   * The key as the account has it. On a line others hold too the comment is not this resource's
   * to judge (it keeps the text it was found with), so the declared line stands for it.
   */
  async read(ctx: HostContext, id: string, props?: SshKeyOutputs) {
    const key = props?.publicKey ? parsePublicKey(props.publicKey) : undefined;
    const keys = await ctx.api.sshKeys.get();
    const found = keys.find((k) => (key ? isKey(k, key) : parsePublicKey(k)?.fingerprint === id));
    const registered = found ? parsePublicKey(splitHolders(found).line) : undefined;
    if (!found || !registered) return missingObject<SshKeyOutputs>("SSH key", id, props);
    const holder = holderIn(props);
    const { shared, marked } = standing(found, holder);
    const parsed = shared && key ? key : registered;
    return readResult(id, outputs(parsed, holder, marked), {
      publicKey: parsed.line,
      ...(holder ? { __holder: holder } : {}),
    });
  }

  /**
   * A new comment, or a mark another writer dropped. The holder is the one in state (a resource
   * renamed with an alias keeps it); one made before keys had holders takes the program's.
   */
  async update(ctx: HostContext, _id: string, olds: SshKeyOutputs, news: SshKeyInputs) {
    const key = parsePublicKey(news.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    const holder = holderIn(olds) ?? holderIn(news);
    await modifyKeys(ctx, (keys) => hold(keys, key, holder, "update"));
    return { outs: outputs(key, holder) };
  }

  /** Takes this resource's mark off the key; the key leaves the account with its last holder. */
  async delete(ctx: HostContext, _id: string, props: SshKeyOutputs): Promise<void> {
    const key = parsePublicKey(props.publicKey);
    if (!key) return;
    const holder = holderIn(props);
    const before = await modifyKeys(ctx, (keys) => release(keys, key, holder).keys).catch((err) => {
      if (!(err instanceof KeySetMayHaveChanged)) throw err;
      throw new Error(
        `letting go of ${key.fingerprint} failed after a write of the account's SSH key set that may have landed (${err.message}); it stays in state, and deleting it again finishes whatever landed.`,
      );
    });
    const { released } = release(before, key, holder);
    ctx.progress(`SshKey ${key.comment ?? key.type}`, releasedLine(key.fingerprint, released));
  }
}

/** What a delete left on the account, as its progress line says it. */
function releasedLine(fingerprint: string, r: Released): string {
  switch (r.kind) {
    case "held":
      return `${fingerprint} stays on the account: ${r.others > 1 ? `${r.others} other stacks declare` : "another stack declares"} it`;
    case "restored":
      return `${fingerprint} stays on the account, which had it before this stack declared it`;
    case "removed":
      return `removed ${fingerprint}`;
    case "absent":
      return `${fingerprint} was no longer on the account`;
  }
}

/** @internal */
export const sshKeyProvider = bindToHost(SSH_KEY, new SshKeyProvider(), label);
