/**
 * The API as a Pulumi program (or any script) sees it: settings from the stack config when running
 * under Pulumi (`runpod:apiKey`, `runpod:baseUrl`, ... read raw, so a secret key does not warn),
 * else from RUNPOD_* environment variables. Used by the catalog and job functions. Each call makes
 * its client from the settings of the moment; the clients of a process share its HTTP pool and
 * rate-limit budgets (provider/client/pools.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { RunpodApi } from "../client/api.js";
import { resolveSettings } from "../client/config.js";
import { RunpodClient } from "../client/request.js";

export function programApi(): RunpodApi {
  return new RunpodApi(
    new RunpodClient(resolveSettings((key) => pulumi.runtime.getConfig(key), process.env)),
  );
}
