/**
 * The API as a Pulumi program (or any script) sees it: settings from the stack config when running
 * under Pulumi (`runpod:apiKey`, `runpod:baseUrl`, ... read raw, so a secret key does not warn),
 * else from RUNPOD_* environment variables. Used by the catalog and job functions.
 */
import * as pulumi from "@pulumi/pulumi";
import { RunpodApi } from "../client/api.js";
import { resolveSettings } from "../client/config.js";
import { RunpodClient } from "../client/request.js";

let cached: { key: string; api: RunpodApi } | undefined;

export function programApi(): RunpodApi {
  const settings = resolveSettings((key) => pulumi.runtime.getConfig(key), process.env);
  const key = JSON.stringify(settings);
  if (cached?.key !== key) cached = { key, api: new RunpodApi(new RunpodClient(settings)) };
  return cached.api;
}
