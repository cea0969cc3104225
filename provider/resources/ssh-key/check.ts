/** SshKey's check: one public key line (never a private key), parsed into its type, material and comment. */
import { createHash } from "node:crypto";
import { SSH_PUBLIC_KEY_PATTERN } from "../../client/schemas/account.js";
import type { CheckFailure } from "../../validation/check-failure.js";
import { isUnknown } from "../../validation/unknown.js";

/** The last token of a registered line that lists its holders (holders.ts). */
export const HOLDERS_TOKEN = /[ \t]+runpod-dynamic-holders=([0-9a-z,]*)$/;

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
  } else if (HOLDERS_TOKEN.test(key.trim())) {
    failures.push({
      property: "publicKey",
      reason:
        "must not end with runpod-dynamic-holders=...: the provider writes that token to say which stacks hold the key; give the line as ssh-keygen wrote it",
    });
  }
  return failures;
}
