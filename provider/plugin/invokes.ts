/**
 * The provider plugin's functions (provider/plugin/tokens.ts `FUNCTIONS`): the program functions'
 * own reads, on the provider's API client instead of the program's settings.
 */
import type { CandidateQuery } from "../catalog/candidates.js";
import type { RunpodApi } from "../client/api.js";
import { catalogReads } from "../program/catalog.js";
import { getJobStatus } from "../program/jobs.js";
import { FUNCTIONS } from "./tokens.js";

type FunctionName = (typeof FUNCTIONS)[number]["name"];

/** What the function `name` answers for the invoke's arguments, under its result property. */
export async function invoke(
  api: RunpodApi,
  name: FunctionName,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const fn = FUNCTIONS.find((f) => f.name === name);
  if (!fn) throw new Error(`runpod-dynamic has no function ${name}`);
  const reads = catalogReads(api);
  const answer = await (() => {
    switch (name) {
      case "getGpuTypes":
        return reads.getGpuTypes(args);
      case "getCpuFlavors":
        return reads.getCpuFlavors();
      case "getDataCenters":
        return reads.getDataCenters(args);
      case "getPublicTemplates":
        return reads.getPublicTemplates(args);
      case "placementCandidates":
        return reads.placementCandidates(args as unknown as CandidateQuery);
      case "getJobStatus":
        return getJobStatus(String(args.endpointId), String(args.jobId), { api: api.jobs });
    }
  })();
  return { [fn.result]: answer };
}
