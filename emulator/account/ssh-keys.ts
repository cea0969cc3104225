/**
 * Account SSH keys (`GET`/`PUT {base_url}/v2/account/ssh-keys`): the acting account's own set
 * (accounts.ts), which PUT replaces whole.
 */
import { json, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { UpdateSshKeysRequest } from "../schemas/account.js";
import { sshKeysOf } from "../store/lookups.js";

function getKeys(ctx: RouteContext) {
  return json(200, { keys: sshKeysOf(ctx.state, ctx.account) });
}

function putKeys(ctx: RouteContext) {
  const { keys } = validateBody(UpdateSshKeysRequest, ctx.body);
  const set = [...new Set(keys.map((k) => k.trim()))];
  ctx.state.sshKeys.set(ctx.account, set);
  return json(200, { keys: set });
}

export const accountRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/account/ssh-keys", handler: getKeys },
    { method: "PUT", pattern: "/v2/account/ssh-keys", handler: putKeys },
  ],
};
