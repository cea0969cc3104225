/** The account's SSH keys: `{base_url}/v2/account/ssh-keys`. */
import type { RunpodClient } from "../request.js";
import { SshKeys, UpdateSshKeysRequest } from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

/** The account's SSH keys: `{base_url}/v2/account/ssh-keys` (`api.sshKeys`). */
export class SshKeysApi {
  constructor(private readonly client: RunpodClient) {}

  async get(opts: CallOptions = {}) {
    return (
      await this.client.request({
        method: "GET",
        base: "v2",
        path: "/v2/account/ssh-keys",
        responseSchema: SshKeys,
        ...opts,
      })
    ).keys;
  }

  /** Replaces the whole set. */
  async put(keys: readonly string[], opts: CallOptions = {}) {
    return (
      await this.client.request({
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
}
