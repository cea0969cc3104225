/** Registry's replace table: the API has no update, so every change replaces; the password is compared by its digest. */
import { scryptSync } from "node:crypto";
import { declaredChanges } from "../../fields/derive.js";
import { isUnknown } from "../../validation/unknown.js";
import { REGISTRY } from "./fields.js";
import type { RegistryInputs, RegistryOutputs } from "./types.js";

/** The digest the outputs keep: scrypt of the username and the password, with the credential's salt. */
export function credentialsDigest(username: string, password: string, salt: string): string {
  return scryptSync(`${username}\0${password}`, salt, 32).toString("hex");
}

/**
 * The replace table (pure): the API has no update, so a new name, username or password replaces
 * (fields.ts). The username and password are compared through the recorded digest, as one change
 * of `credentials`; an unknown value (preview)
 * counts as a change.
 */
export function diffRegistry(olds: Partial<RegistryOutputs>, news: RegistryInputs) {
  const { replaces } = declaredChanges(REGISTRY, olds, news, ["username", "password"]);
  if (isUnknown(news.username) || isUnknown(news.password)) {
    replaces.push("credentials");
  } else if (
    olds.credentialsSalt === undefined ||
    credentialsDigest(news.username, news.password, olds.credentialsSalt) !== olds.credentialsDigest
  ) {
    replaces.push("credentials");
  }
  return { replaces, updates: [] as string[] };
}
