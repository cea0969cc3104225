/**
 * A ServerlessEndpoint's request bodies: what create and update send, from the checked inputs.
 */
import type { CreateEndpointRequest, UpdateEndpointRequest } from "../../client/schemas/endpoints.js";
import { apiBody } from "../../fields/derive.js";
import { ENDPOINT_API_DEFAULTS } from "./defaults.js";
import { SETTINGS } from "./diff.js";
import { ENDPOINT_BODY, SERVERLESS_ENDPOINT } from "./fields.js";
import type { ServerlessEndpointInputs, ServerlessEndpointOutputs } from "./types.js";

/** The create body: v2 fields, with the type and the scaler the API wants on every create. */
export function createBody(inputs: ServerlessEndpointInputs): CreateEndpointRequest {
  const type = inputs.type ?? ENDPOINT_API_DEFAULTS.type;
  const body = apiBody(SERVERLESS_ENDPOINT, ENDPOINT_BODY, inputs);
  return {
    ...body,
    type,
    scaling: inputs.scaling ?? ENDPOINT_API_DEFAULTS.scaling[type],
  } as CreateEndpointRequest;
}

/**
 * The PATCH body for these updates. `env` replaces the endpoint's whole environment, so keys the
 * program never declared (a template's) are kept and keys it stopped declaring are removed.
 * `pools` replaces the GPU selection with its exclusions, so they are restated.
 */
export function patchBody(
  updates: readonly string[],
  news: ServerlessEndpointInputs,
  current: Partial<ServerlessEndpointOutputs>,
  liveEnv: Record<string, string>,
): UpdateEndpointRequest {
  const out = apiBody(SERVERLESS_ENDPOINT, ENDPOINT_BODY, news, {
    only: updates.filter((u) => u === "name" || (SETTINGS as readonly string[]).includes(u)),
  });
  if (updates.includes("env")) {
    const undeclared = Object.keys(current.env ?? {}).filter((k) => !(k in (news.env ?? {})));
    const kept = Object.fromEntries(Object.entries(liveEnv).filter(([k]) => !undeclared.includes(k)));
    out.env = { ...kept, ...news.env };
  }
  const gpu = news.gpu;
  if (gpu && updates.some((u) => u.startsWith("gpu."))) {
    const g: Record<string, unknown> = {};
    if (updates.includes("gpu.pools") || updates.includes("gpu.excludedTypes")) {
      g.pools = gpu.pools;
      g.excludedTypes = gpu.excludedTypes ?? current.gpu?.excludedTypes ?? [];
    }
    if (updates.includes("gpu.count")) g.count = gpu.count ?? 1;
    if (updates.includes("gpu.allowedCudaVersions")) g.allowedCudaVersions = gpu.allowedCudaVersions;
    if (updates.includes("gpu.minCudaVersion")) g.minCudaVersion = gpu.minCudaVersion;
    out.gpu = g;
  }
  if (updates.includes("cpu")) out.cpu = news.cpu;
  if (updates.some((u) => u.startsWith("workers."))) {
    const w = news.workers ?? {};
    out.workers = {
      min: w.min ?? current.workers?.min ?? ENDPOINT_API_DEFAULTS.workersMin,
      max: w.max ?? current.workers?.max ?? ENDPOINT_API_DEFAULTS.workersMax,
      ...(w.idleTimeout !== undefined ? { idleTimeout: w.idleTimeout } : {}),
    };
  }
  if (updates.includes("scaling")) out.scaling = news.scaling;
  return out as UpdateEndpointRequest;
}
