/**
 * `SshKey` (type `pulumi-nodejs:dynamic/runpod:SshKey`): one public key in the account's SSH key
 * set. `PUT /v2/account/ssh-keys` replaces the whole set, so every write is read-merge-write under
 * a process-wide lock and is verified afterwards: two keys created in one `pulumi up` both end up
 * registered, and keys the stack does not manage are never removed.
 *
 * Keys reach only pods created afterwards with `startSsh`: make such pods `dependsOn` their keys.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { CheckFailure } from "../both/check-failure.js";
import { isUnknown } from "../both/unknown.js";
import { mayHaveLanded } from "../client/errors.js";
import { SSH_PUBLIC_KEY_PATTERN } from "../client/schemas/account.js";
import { api, configureRuntime } from "../host/context.js";
import { settling, waitUntil } from "../host/create-once.js";
import { progress } from "../host/progress.js";
import { thinProvider } from "../program/thin.js";
import { diffResult, named, optionInputs } from "./common.js";

export const SSH_KEY_TYPE = "pulumi-nodejs:dynamic/runpod:SshKey";

export interface SshKeyArgs {
  /** An authorized_keys line: `<type> <base64> [comment]`, e.g. the contents of `~/.ssh/id_ed25519.pub`. */
  publicKey: pulumi.Input<string>;
}

export interface SshKeyInputs {
  publicKey: string;
}

export interface SshKeyOutputs {
  publicKey: string;
  /** `SHA256:...`, as `ssh-keygen -l` prints it. Also the resource id. */
  fingerprint: string;
  keyType: string;
  comment: string | null;
}

/**
 * An SSH public key registered with the account.
 * @example
 * const key = new SshKey("laptop", { publicKey: fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519.pub`, "utf8") });
 * new Pod("dev", { ..., startSsh: true, ports: ["22/tcp"] }, { dependsOn: [key] });
 */
export class SshKey extends pulumi.dynamic.Resource {
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly fingerprint: pulumi.Output<string>;
  declare readonly keyType: pulumi.Output<string>;
  declare readonly comment: pulumi.Output<string | null>;

  constructor(name: string, args: SshKeyArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("SshKey"),
      name,
      { fingerprint: undefined, keyType: undefined, comment: undefined, ...args, ...optionInputs(opts) },
      opts,
      "runpod",
      "SshKey",
    );
  }
}

// ---------------------------------------------------------------- key parsing

const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----|^PuTTY-User-Key-File/m;

export interface ParsedKey {
  readonly line: string;
  readonly type: string;
  readonly blob: string;
  readonly comment: string | null;
  readonly fingerprint: string;
}

/** The key as registered: one trimmed line. Its identity is type and key material, not the comment. */
export function parsePublicKey(text: string): ParsedKey | undefined {
  const line = text.trim();
  if (line.includes("\n") || !SSH_PUBLIC_KEY_PATTERN.test(line)) return undefined;
  const [type = "", blob = "", ...rest] = line.split(/[ \t]+/);
  const bytes = Buffer.from(blob, "base64");
  if (bytes.length === 0 || bytes.toString("base64").replace(/=+$/, "") !== blob.replace(/=+$/, ""))
    return undefined;
  const fingerprint = `SHA256:${createHash("sha256").update(bytes).digest("base64").replace(/=+$/, "")}`;
  return { line, type, blob, comment: rest.length > 0 ? rest.join(" ") : null, fingerprint };
}

export function checkSshKey(news: Record<string, unknown>): CheckFailure[] {
  const key = news.publicKey;
  const extra = Object.keys(news).filter(
    (k) => !k.startsWith("__") && k !== "publicKey" && news[k] !== undefined,
  );
  const failures: CheckFailure[] = extra.map((k) => ({
    property: k,
    reason: `unknown property '${k}'; SshKey takes only publicKey`,
  }));
  if (isUnknown(key)) return failures;
  if (typeof key !== "string" || key.trim() === "") {
    failures.push({
      property: "publicKey",
      reason: "is required: an authorized_keys line such as the contents of ~/.ssh/id_ed25519.pub",
    });
  } else if (PRIVATE_KEY.test(key)) {
    failures.push({
      property: "publicKey",
      reason:
        "looks like a PRIVATE key; never put it in a program or state. Give the public half instead (the .pub file)",
    });
  } else if (!parsePublicKey(key)) {
    failures.push({
      property: "publicKey",
      reason:
        "must be one authorized_keys line: <type> <base64-key> [comment], e.g. ssh-ed25519 AAAAC3... you@host",
    });
  }
  return failures;
}

// ---------------------------------------------------------------- read-merge-write

let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` after every earlier call of this process has finished: one writer of the key set at a time. */
function exclusively<T>(fn: () => Promise<T>): Promise<T> {
  const run = queue.then(fn, fn);
  queue = run.catch(() => undefined);
  return run;
}

const sameKey = (a: string, b: ParsedKey) => {
  const p = parsePublicKey(a);
  return p !== undefined && p.type === b.type && p.blob === b.blob;
};

/**
 * Reads the set, applies `change`, writes it back, and re-reads to verify; retries a lost update.
 *
 * A PUT replaces the whole set, so one that went unanswered is not sent again by the client: it may
 * still land later and put back a key removed in the meantime (a rotated key coming back; found by
 * the chaos suite). Instead the set is read again and the change re-applied, and the
 * result is verified once more after such a write can no longer land (the settle policy of
 * provider/host/create-once.ts: a first look at `lookAt`, the last at `settlesAt`).
 */
async function modifyKeys(
  change: (keys: string[]) => string[],
  verify: (keys: string[]) => boolean,
): Promise<void> {
  await exclusively(async () => {
    let settlesAt = 0;
    for (let round = 1; ; round += 1) {
      const current = await api().getSshKeys();
      const next = change(current);
      const unchanged = next.length === current.length && next.every((k, i) => k === current[i]);
      if (!unchanged) {
        const startedAt = Date.now();
        try {
          await api().putSshKeys(next, { idempotent: false });
        } catch (err) {
          if (!mayHaveLanded(err) || round >= 6) throw err;
          const settle = settling(startedAt);
          settlesAt = Math.max(settlesAt, settle.settlesAt);
          await waitUntil(settle.lookAt);
          continue;
        }
      }
      let keys = await api().getSshKeys();
      if (verify(keys) && Date.now() < settlesAt) {
        await waitUntil(settlesAt);
        keys = await api().getSshKeys();
      }
      if (verify(keys)) return;
      if (round >= 6) {
        throw new Error(
          "The account's SSH key set kept changing under us (another writer outside this deployment?); run again.",
        );
      }
    }
  });
}

/** A key is named by its comment, else its fingerprint (from outputs, or parsed from the inputs). */
function label(props: Record<string, unknown> | undefined, id?: string): string {
  const key = typeof props?.publicKey === "string" ? parsePublicKey(props.publicKey) : undefined;
  return `SshKey ${key?.comment ?? key?.fingerprint ?? id ?? "?"}`;
}

function outputs(key: ParsedKey): SshKeyOutputs {
  return { publicKey: key.line, fingerprint: key.fingerprint, keyType: key.type, comment: key.comment };
}

export class SshKeyProvider implements pulumi.dynamic.ResourceProvider<SshKeyInputs, SshKeyOutputs> {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

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

  async create(inputs: SshKeyInputs) {
    const key = parsePublicKey(inputs.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    await modifyKeys(
      (keys) => (keys.some((k) => sameKey(k, key)) ? keys : [...keys, key.line]),
      (keys) => keys.some((k) => sameKey(k, key)),
    );
    progress(`SshKey ${key.comment ?? key.type}`, `registered ${key.fingerprint}`);
    return { id: key.fingerprint, outs: outputs(key) };
  }

  async read(id: string, props?: SshKeyOutputs) {
    const key = props?.publicKey ? parsePublicKey(props.publicKey) : undefined;
    const keys = await api().getSshKeys();
    const found = keys.find((k) => (key ? sameKey(k, key) : parsePublicKey(k)?.fingerprint === id));
    const parsed = found ? parsePublicKey(found) : undefined;
    if (!parsed) return {};
    return { id, props: outputs(parsed), inputs: { publicKey: parsed.line } as unknown as SshKeyOutputs };
  }

  async update(_id: string, _olds: SshKeyOutputs, news: SshKeyInputs) {
    const key = parsePublicKey(news.publicKey);
    if (!key) throw new Error("SshKey: publicKey is not an authorized_keys line.");
    await modifyKeys(
      (keys) => keys.map((k) => (sameKey(k, key) ? key.line : k)),
      (keys) => keys.includes(key.line),
    );
    return { outs: outputs(key) };
  }

  async delete(_id: string, props: SshKeyOutputs): Promise<void> {
    const key = parsePublicKey(props.publicKey);
    if (!key) return;
    await modifyKeys(
      (keys) => keys.filter((k) => !sameKey(k, key)),
      (keys) => !keys.some((k) => sameKey(k, key)),
    );
    progress(`SshKey ${key.comment ?? key.type}`, `removed ${key.fingerprint}`);
  }
}

export const sshKeyProvider = named(new SshKeyProvider(), label);
