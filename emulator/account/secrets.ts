/**
 * Account secrets under base_url (`/v2/account/secrets`, RunPod's v2 reference): create, list
 * (optionally by `name`), read, update (rotate the value, change the description), delete; the
 * acting account's own (accounts.ts). The value is write-only: stored, never answered, never in
 * the control plane's snapshot. Pods take it when they boot (secret-references.ts).
 *
 * Statuses: a body the schema refuses is 422; what a schema cannot say is 400 (a name starting
 * with RUNPOD in any case, a value of 16 MiB of UTF-8 or more, a description over 65535 bytes, a
 * PATCH with neither field); a name already taken is 409; an unknown id is 404.
 *
 * Names are unique regardless of case, and found regardless of case: the reference says the
 * list's `name` filter is case-insensitive, and says no more (docs/api-differences.md).
 */

import { badRequest, conflict, notFound } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { CreateSecretRequest, UpdateSecretRequest } from "../schemas/secrets.js";
import { secretNamed } from "../store/lookups.js";
import type { SecretRecord } from "../store/records.js";

const VALUE_MAX_BYTES = 16 * 1024 * 1024;
const DESCRIPTION_MAX_BYTES = 65_535;
/** A value and a description at their limits, every character JSON-escaped at worst (6 bytes). */
const MAX_BODY_BYTES = 6 * (VALUE_MAX_BYTES + DESCRIPTION_MAX_BYTES) + 1024;

/** What every answer shows of a secret: never its value. */
export function secretView(s: SecretRecord) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    createdAt: new Date(s.createdAt).toISOString(),
    valueLastUpdatedAt: new Date(s.valueLastUpdatedAt).toISOString(),
  };
}

function find(ctx: RouteContext): SecretRecord {
  const s = ctx.state.secrets.get(ctx.params.id ?? "");
  if (s?.account !== ctx.account) throw notFound(`Secret '${ctx.params.id}' was not found.`);
  return s;
}

/** The byte limits the schema's character counts cannot express. */
function requireSizes(body: { value?: string | undefined; description?: string | undefined }): void {
  if (body.value !== undefined && Buffer.byteLength(body.value) >= VALUE_MAX_BYTES)
    throw badRequest("value must be smaller than 16 MiB (16777216 bytes) of UTF-8.");
  if (body.description !== undefined && Buffer.byteLength(body.description) > DESCRIPTION_MAX_BYTES)
    throw badRequest(`description must be at most ${DESCRIPTION_MAX_BYTES} bytes of UTF-8.`);
}

function createSecret(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateSecretRequest, ctx.body);
  if (body.name.toUpperCase().startsWith("RUNPOD"))
    throw badRequest(`Secret name '${body.name}' is reserved: names starting with RUNPOD are the service's.`);
  requireSizes(body);
  if (secretNamed(state, body.name, ctx.account))
    throw conflict(`A secret named '${body.name}' already exists.`);
  const s: SecretRecord = {
    id: state.newId(12),
    name: body.name,
    value: body.value,
    description: body.description || null,
    createdAt: ctx.now,
    valueLastUpdatedAt: ctx.now,
    account: ctx.account,
  };
  state.secrets.set(s.id, s);
  return json(201, secretView(s));
}

function listSecrets(ctx: RouteContext) {
  const name = ctx.query.get("name");
  const all = [...ctx.state.secrets.values()].filter((s) => s.account === ctx.account);
  const found = name === null ? all : all.filter((s) => s.name.toLowerCase() === name.toLowerCase());
  return json(200, { secrets: found.map(secretView) });
}

/** The value first, then the description, as the reference describes; a new value applies at the next boot. */
function updateSecret(ctx: RouteContext) {
  const s = find(ctx);
  const patch = validateBody(UpdateSecretRequest, ctx.body);
  if (patch.value === undefined && patch.description === undefined)
    throw badRequest("The PATCH body is empty; send value and/or description (the name cannot change).");
  requireSizes(patch);
  if (patch.value !== undefined) {
    s.value = patch.value;
    s.valueLastUpdatedAt = ctx.now;
  }
  if (patch.description !== undefined) s.description = patch.description || null;
  return json(200, secretView(s));
}

function deleteSecret(ctx: RouteContext) {
  ctx.state.secrets.delete(find(ctx).id);
  return noContent;
}

export const secretRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/account/secrets", handler: listSecrets },
    { method: "POST", pattern: "/v2/account/secrets", handler: createSecret, maxBodyBytes: MAX_BODY_BYTES },
    { method: "GET", pattern: "/v2/account/secrets/:id", handler: (ctx) => json(200, secretView(find(ctx))) },
    {
      method: "PATCH",
      pattern: "/v2/account/secrets/:id",
      handler: updateSecret,
      maxBodyBytes: MAX_BODY_BYTES,
    },
    { method: "DELETE", pattern: "/v2/account/secrets/:id", handler: deleteSecret },
  ],
};
