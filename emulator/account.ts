/** Account SSH keys (`GET`/`PUT {base_url}/v2/account/ssh-keys`). PUT replaces the whole set. */
import { json, type RouteContext, type RouteTable } from "./routing.js";
import { UpdateSshKeysRequest } from "./schemas/account.js";
import { validateBody } from "./validation.js";

function getKeys(ctx: RouteContext) {
  return json(200, { keys: ctx.state.sshKeys });
}

function putKeys(ctx: RouteContext) {
  const { keys } = validateBody(UpdateSshKeysRequest, ctx.body);
  ctx.state.sshKeys = [...new Set(keys.map((k) => k.trim()))];
  return json(200, { keys: ctx.state.sshKeys });
}

export const accountRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/account/ssh-keys", handler: getKeys },
    { method: "PUT", pattern: "/v2/account/ssh-keys", handler: putKeys },
  ],
};
