/**
 * How the CLI reads what names a hub listing and what its release asks for: the listing reference
 * users type (`hub get`, `serverless create --hub-id`) and the release config the hub stores as a
 * JSON-encoded string.
 */

import { messageOf } from "../provider/client/errors.js";
import type { schemas } from "../provider/client/index.js";
import { HubReleaseConfig } from "../provider/client/schemas/hub.js";
import { propertyPath } from "../provider/validation/failures.js";
import { UsageError } from "./errors.js";

/** `owner/name` (split at the first `/`, as runpodctl does) or a listing id. */
export function listingRef(ref: string): { id: string } | { owner: string; name: string } {
  const slash = ref.indexOf("/");
  if (slash < 0) return { id: ref };
  const owner = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  if (owner === "" || name === "") {
    throw new UsageError(`invalid listing reference '${ref}': use owner/name or a listing id.`);
  }
  return { owner, name };
}

/**
 * A release's `config` string read with the client's schema: the config, or what is wrong with it.
 * An absent config is an empty one.
 */
export function readReleaseConfig(
  text: string | null | undefined,
): { config: schemas.HubReleaseConfig } | { problem: string } {
  if (!text) return { config: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { problem: `it is not valid JSON (${messageOf(err)})` };
  }
  const parsed = HubReleaseConfig.safeParse(raw);
  if (parsed.success) return { config: parsed.data };
  // zod's own wording: it names the type found, which the provider's check reasons leave out.
  return {
    problem: parsed.error.issues
      .map((i) => `${propertyPath(["config", ...i.path])}: ${i.message}`)
      .join("; "),
  };
}
