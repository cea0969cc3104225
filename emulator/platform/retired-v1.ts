/**
 * REST v1 under rest_url, which RunPod retired on 2026-11-15 (docs/api-model.md): every request to
 * a `/v1` path there answers 410 Gone, naming the v2 route that replaces the one asked for when
 * there is one, the path's ids filled in.
 *
 * 410 rather than 404: these routes existed and were withdrawn for good. A 404 reads as a mistyped
 * path or a missing resource and sends a client looking for the fault in its own request; a 410
 * says the address itself is over, and the detail says where to go instead.
 */
import { HttpError } from "../http/errors.js";

/** When RunPod retired REST v1. */
const V1_RETIRED_ON = "2026-11-15";

/**
 * Each v1 route RunPod served under rest_url and the v2 route under base_url that replaces it
 * (`:id` is the same id in both). The emulator served the endpoint and billing routes; the pod,
 * template, network volume and registry ones are here so an old client of those hears the same.
 */
const REPLACEMENTS: readonly (readonly [v1: string, v2: string])[] = [
  ["GET /v1/pods", "GET /v2/pods"],
  ["POST /v1/pods", "POST /v2/pods"],
  ["GET /v1/pods/:id", "GET /v2/pods/:id"],
  ["PATCH /v1/pods/:id", "PATCH /v2/pods/:id"],
  ["POST /v1/pods/:id/update", "PATCH /v2/pods/:id"],
  ["DELETE /v1/pods/:id", "DELETE /v2/pods/:id"],
  ["POST /v1/pods/:id/start", 'POST /v2/pods/:id/action with {"action":"start"}'],
  ["POST /v1/pods/:id/stop", 'POST /v2/pods/:id/action with {"action":"stop"}'],
  ["POST /v1/pods/:id/restart", 'POST /v2/pods/:id/action with {"action":"restart"}'],
  ["GET /v1/endpoints", "GET /v2/serverless"],
  ["POST /v1/endpoints", "POST /v2/serverless"],
  ["GET /v1/endpoints/:id", "GET /v2/serverless/:id"],
  ["PATCH /v1/endpoints/:id", "PATCH /v2/serverless/:id"],
  ["POST /v1/endpoints/:id/update", "PATCH /v2/serverless/:id"],
  ["DELETE /v1/endpoints/:id", "DELETE /v2/serverless/:id"],
  ["GET /v1/templates", "GET /v2/templates"],
  ["POST /v1/templates", "POST /v2/templates"],
  ["GET /v1/templates/:id", "GET /v2/templates/:id"],
  ["PATCH /v1/templates/:id", "PATCH /v2/templates/:id"],
  ["POST /v1/templates/:id/update", "PATCH /v2/templates/:id"],
  ["DELETE /v1/templates/:id", "DELETE /v2/templates/:id"],
  ["GET /v1/networkvolumes", "GET /v2/network-volumes"],
  ["POST /v1/networkvolumes", "POST /v2/network-volumes"],
  ["GET /v1/networkvolumes/:id", "GET /v2/network-volumes/:id"],
  ["PATCH /v1/networkvolumes/:id", "PATCH /v2/network-volumes/:id"],
  ["POST /v1/networkvolumes/:id/update", "PATCH /v2/network-volumes/:id"],
  ["DELETE /v1/networkvolumes/:id", "DELETE /v2/network-volumes/:id"],
  ["GET /v1/containerregistryauth", "GET /v2/registries"],
  ["POST /v1/containerregistryauth", "POST /v2/registries"],
  ["GET /v1/containerregistryauth/:id", "GET /v2/registries/:id"],
  ["DELETE /v1/containerregistryauth/:id", "DELETE /v2/registries/:id"],
  ["GET /v1/billing/pods", "GET /v2/billing/pods"],
  ["GET /v1/billing/endpoints", "GET /v2/billing/serverless"],
  ["GET /v1/billing/networkvolumes", "GET /v2/billing/network-volumes"],
];

/** The v2 route replacing `method path`, its `:id` filled in from the path; undefined when none does. */
function replacementOf(method: string, path: string): string | undefined {
  const parts = path.split("/");
  for (const [v1, v2] of REPLACEMENTS) {
    const [v1Method, v1Path = ""] = v1.split(" ");
    const pattern = v1Path.split("/");
    if (v1Method !== method || pattern.length !== parts.length) continue;
    let id: string | undefined;
    const matches = pattern.every((segment, i) => {
      const part = parts[i] ?? "";
      if (segment !== ":id") return segment === part;
      id = part;
      return part !== "";
    });
    if (matches) return id === undefined ? v2 : v2.replace(":id", id);
  }
  return undefined;
}

/** The 410 answering `method path` when the path is under REST v1 (`/v1` or `/v1/...`). */
export function retiredV1(method: string, path: string): HttpError | undefined {
  if (path !== "/v1" && !path.startsWith("/v1/")) return undefined;
  const v2 = replacementOf(method, path);
  return new HttpError(
    410,
    v2 === undefined
      ? `REST v1 was retired on ${V1_RETIRED_ON}; ${method} ${path} has no v2 replacement. The v2 API is served under base_url.`
      : `REST v1 was retired on ${V1_RETIRED_ON}; use ${v2}`,
  );
}
