/** The account's SSH keys: `{base_url}/v2/account/ssh-keys`. */
import type { RunpodClient } from "../request.js";
import { SshKeys, UpdateSshKeysRequest } from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

export async function getSshKeys(client: RunpodClient, opts: CallOptions = {}) {
  return (
    await client.request({
      method: "GET",
      base: "v2",
      path: "/v2/account/ssh-keys",
      responseSchema: SshKeys,
      ...opts,
    })
  ).keys;
}

/** Replaces the whole set. */
export async function putSshKeys(client: RunpodClient, keys: readonly string[], opts: CallOptions = {}) {
  return (
    await client.request({
      method: "PUT",
      base: "v2",
      path: "/v2/account/ssh-keys",
      body: { keys },
      requestSchema: UpdateSshKeysRequest,
      responseSchema: SshKeys,
      ...opts,
    })
  ).keys;
}
