/** The SshKey provider: check, diff, create, read, update and delete, as the provider host runs them. */
import { isUnknown } from "../../both/unknown.js";
import { named } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { diffResult, missingObject, readResult } from "../common.js";
import { checkSshKey, type ParsedKey, parsePublicKey } from "./check.js";
import { modifyKeys, sameKey } from "./key-set.js";
import type { SshKeyInputs, SshKeyOutputs } from "./types.js";

/** A key is named by its comment, else its fingerprint (from outputs, or parsed from the inputs). */
function label(props: Record<string, unknown> | undefined, id?: string): string {
  const key = typeof props?.publicKey === "string" ? parsePublicKey(props.publicKey) : undefined;
  return `SshKey ${key?.comment ?? key?.fingerprint ?? id ?? "?"}`;
}

function outputs(key: ParsedKey): SshKeyOutputs {
  return { publicKey: key.line, fingerprint: key.fingerprint, keyType: key.type, comment: key.comment };
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
    // The same key material with another comment is rewritten in place.
    return diffResult({ replaces: [], updates: next.line !== old.line ? ["publicKey"] : [] }, news);
  }

  async create(ctx: HostContext, inputs: SshKeyInputs) {
    const key = parsePublicKey(inputs.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    await modifyKeys(
      ctx,
      (keys) => (keys.some((k) => sameKey(k, key)) ? keys : [...keys, key.line]),
      (keys) => keys.some((k) => sameKey(k, key)),
    );
    ctx.progress(`SshKey ${key.comment ?? key.type}`, `registered ${key.fingerprint}`);
    return { id: key.fingerprint, outs: outputs(key) };
  }

  async read(ctx: HostContext, id: string, props?: SshKeyOutputs) {
    const key = props?.publicKey ? parsePublicKey(props.publicKey) : undefined;
    const keys = await ctx.api.getSshKeys();
    const found = keys.find((k) => (key ? sameKey(k, key) : parsePublicKey(k)?.fingerprint === id));
    const parsed = found ? parsePublicKey(found) : undefined;
    if (!parsed) return missingObject<SshKeyOutputs>("SSH key", id, props);
    return readResult(id, outputs(parsed), { publicKey: parsed.line });
  }

  async update(ctx: HostContext, _id: string, _olds: SshKeyOutputs, news: SshKeyInputs) {
    const key = parsePublicKey(news.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    await modifyKeys(
      ctx,
      (keys) => keys.map((k) => (sameKey(k, key) ? key.line : k)),
      (keys) => keys.includes(key.line),
    );
    return { outs: outputs(key) };
  }

  async delete(ctx: HostContext, _id: string, props: SshKeyOutputs): Promise<void> {
    const key = parsePublicKey(props.publicKey);
    if (!key) return;
    await modifyKeys(
      ctx,
      (keys) => keys.filter((k) => !sameKey(k, key)),
      (keys) => !keys.some((k) => sameKey(k, key)),
    );
    ctx.progress(`SshKey ${key.comment ?? key.type}`, `removed ${key.fingerprint}`);
  }
}

/** @internal */
export const sshKeyProvider = named(new SshKeyProvider(), label);
