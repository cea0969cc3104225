/**
 * A ServerlessEndpoint's outputs from the API's endpoint, and the inputs that would produce them.
 * Kept out of provider/resources/serverless-endpoint.ts because the signatures name the API's
 * zod-inferred endpoint type, and the declarations programs compile against must not reach zod.
 */

import type { RunpodSettings } from "../../client/config.js";
import type { Endpoint } from "../../client/schemas/endpoints.js";
import { isEmptyValue } from "../../fields/derive.js";
import { ENDPOINT_API_DEFAULTS } from "./defaults.js";
import { SETTINGS, scalingOf } from "./diff.js";
import type { ServerlessEndpointInputs, ServerlessEndpointOutputs } from "./types.js";

/**
 * Outputs from the API's endpoint and the inputs that made it; JSON-clean (null, never undefined).
 * A queue endpoint's `jobUrl` is under the settings' `serverlessUrl`.
 */
export function endpointOutputs(
  settings: Pick<RunpodSettings, "serverlessUrl">,
  e: Endpoint,
  inputs: Partial<ServerlessEndpointInputs>,
): ServerlessEndpointOutputs {
  const declared = Object.keys(inputs.env ?? {});
  const env = Object.fromEntries(
    declared.filter((k) => e.env && k in e.env).map((k) => [k, e.env?.[k] as string]),
  );
  const type = e.type ?? inputs.type ?? ENDPOINT_API_DEFAULTS.type;
  const requestUrls = Object.fromEntries(
    Object.entries(e.requestUrls ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  return {
    endpointId: e.id,
    name: e.name,
    type,
    templateId: inputs.templateId ?? null,
    image: e.image ?? null,
    args: e.args ?? null,
    disk: e.disk ?? null,
    ports: [...(e.ports ?? [])],
    env,
    registry: e.registry ?? null,
    gpu: e.gpu
      ? {
          pools: [...e.gpu.pools],
          excludedTypes: [...(e.gpu.excludedTypes ?? [])],
          count: e.gpu.count ?? 1,
          allowedCudaVersions: [...(e.gpu.allowedCudaVersions ?? [])],
          minCudaVersion: e.gpu.minCudaVersion ?? null,
        }
      : null,
    cpu: e.cpu ? e.cpu.map((c) => ({ id: c.id, vcpuCount: c.vcpuCount, memory: c.memory ?? null })) : null,
    workers: { min: e.workers.min, max: e.workers.max, idleTimeout: e.workers.idleTimeout ?? null },
    scaling: {
      type: e.scaling.type,
      queueDelay: e.scaling.queueDelay ?? null,
      requestCount: e.scaling.requestCount ?? null,
    },
    flashboot: e.flashboot,
    networkVolumes: [...e.networkVolumes],
    dataCenterIds: [...e.dataCenterIds],
    timeout: e.timeout,
    createdAt: e.createdAt,
    requestUrls,
    jobUrl: type === "LOAD_BALANCER" ? (requestUrls.base ?? "") : `${settings.serverlessUrl}/v2/${e.id}/`,
  };
}

/** The inputs that would produce `outputs`: what refresh hands back, within what the program declared. */
export function inputsFromOutputs(
  o: ServerlessEndpointOutputs,
  prior: Partial<ServerlessEndpointInputs>,
): ServerlessEndpointInputs {
  const inputs: Record<string, unknown> = { name: o.name };
  // Read with no container source declared (`pulumi import`, a get with no inputs): the endpoint
  // keeps no link to a template (the service copied its settings), so its own settings, every one
  // it has, are the inputs that make it; `image` among them satisfies the check.
  const imported = prior.image === undefined && prior.templateId === undefined;
  if (prior.type !== undefined || o.type !== ENDPOINT_API_DEFAULTS.type) inputs.type = o.type;
  for (const k of SETTINGS) {
    if (imported) {
      if (k !== "templateId" && !isEmptyValue(o[k])) inputs[k] = o[k];
    } else if (prior[k] !== undefined) {
      inputs[k] = k === "templateId" ? prior.templateId : o[k];
    }
  }
  if (prior.env !== undefined || Object.keys(o.env).length > 0) inputs.env = o.env;
  if (o.gpu) {
    const g = prior.gpu;
    inputs.gpu = {
      pools: o.gpu.pools,
      ...(g?.excludedTypes !== undefined ? { excludedTypes: o.gpu.excludedTypes } : {}),
      ...(g?.count !== undefined || o.gpu.count !== 1 ? { count: o.gpu.count } : {}),
      ...(g?.allowedCudaVersions !== undefined ? { allowedCudaVersions: o.gpu.allowedCudaVersions } : {}),
      ...(g?.minCudaVersion !== undefined && o.gpu.minCudaVersion !== null
        ? { minCudaVersion: o.gpu.minCudaVersion }
        : {}),
    };
  }
  if (o.cpu) inputs.cpu = o.cpu.map(({ id, vcpuCount }) => ({ id, vcpuCount }));
  if (prior.workers !== undefined || imported) {
    const wants = (k: "min" | "max" | "idleTimeout") => imported || prior.workers?.[k] !== undefined;
    inputs.workers = {
      ...(wants("min") ? { min: o.workers.min } : {}),
      ...(wants("max") ? { max: o.workers.max } : {}),
      ...(wants("idleTimeout") && o.workers.idleTimeout !== null
        ? { idleTimeout: o.workers.idleTimeout }
        : {}),
    };
  }
  if (prior.scaling !== undefined || imported) inputs.scaling = scalingOf(o.scaling);
  return inputs as unknown as ServerlessEndpointInputs;
}
