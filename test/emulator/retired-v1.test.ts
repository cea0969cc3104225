/**
 * REST v1 on rest_url, retired on 2026-11-15: every `/v1` request answers 410 Gone as
 * application/problem+json, naming the v2 route that replaces it (its id filled in) or saying
 * there is none, with or without a key, and leaves a line in the request log.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, raw } from "../support/http.js";

const h = frozenEmulatorForAllTests();
const c = http(h);

const RETIRED = "REST v1 was retired on 2026-11-15;";
const noReplacement = (route: string) =>
  `${RETIRED} ${route} has no v2 replacement. The v2 API is served under base_url.`;

describe("a /v1 request on rest_url", () => {
  it.each<[request: string, body: unknown, detail: string]>([
    // The routes the emulator served until REST v1 was retired.
    ["POST /v1/endpoints", { templateId: "vllm-worker" }, `${RETIRED} use POST /v2/serverless`],
    ["GET /v1/endpoints", undefined, `${RETIRED} use GET /v2/serverless`],
    ["GET /v1/endpoints/ep1?includeWorkers=true", undefined, `${RETIRED} use GET /v2/serverless/ep1`],
    ["PATCH /v1/endpoints/ep1", { workersMax: 4 }, `${RETIRED} use PATCH /v2/serverless/ep1`],
    ["POST /v1/endpoints/ep1/update", { workersMax: 4 }, `${RETIRED} use PATCH /v2/serverless/ep1`],
    ["DELETE /v1/endpoints/ep1", undefined, `${RETIRED} use DELETE /v2/serverless/ep1`],
    ["GET /v1/billing/pods?bucketSize=day", undefined, `${RETIRED} use GET /v2/billing/pods`],
    ["GET /v1/billing/endpoints", undefined, `${RETIRED} use GET /v2/billing/serverless`],
    ["GET /v1/billing/networkvolumes", undefined, `${RETIRED} use GET /v2/billing/network-volumes`],
    // RunPod's other v1 routes, which the emulator never served.
    ["GET /v1/pods", undefined, `${RETIRED} use GET /v2/pods`],
    ["POST /v1/pods/pod7/stop", undefined, `${RETIRED} use POST /v2/pods/pod7/action with {"action":"stop"}`],
    ["POST /v1/templates/t1/update", { name: "x" }, `${RETIRED} use PATCH /v2/templates/t1`],
    ["DELETE /v1/networkvolumes/nv1", undefined, `${RETIRED} use DELETE /v2/network-volumes/nv1`],
    ["GET /v1/containerregistryauth", undefined, `${RETIRED} use GET /v2/registries`],
    // Paths and methods v1 never had.
    ["GET /v1/things", undefined, noReplacement("GET /v1/things")],
    ["PUT /v1/pods", { name: "x" }, noReplacement("PUT /v1/pods")],
    ["GET /v1/endpoints/ep1/extra", undefined, noReplacement("GET /v1/endpoints/ep1/extra")],
    ["POST /v1/pods/pod7/reset", undefined, noReplacement("POST /v1/pods/pod7/reset")],
    ["GET /v1", undefined, noReplacement("GET /v1")],
  ])("%s answers 410 naming what replaces it", async (request, body, detail) => {
    const [method = "", path = ""] = request.split(" ");
    const answer = await c.call(method, "rest", path, body);
    expect([answer.status, answer.headers.get("content-type"), answer.body]).toEqual([
      410,
      "application/problem+json",
      { title: "Gone", status: 410, detail },
    ]);
  });

  it("answers 410 before authentication, and is logged", async () => {
    h.emu.control.clearRequests();
    const anonymous = await raw(`${h.emu.restUrl}/v1/pods`, { key: null });
    const badKey = await raw(`${h.emu.restUrl}/v1/pods`, { key: "rpa_NOT_A_KEY" });
    expect([anonymous.status, badKey.status, h.emu.control.requests().entries]).toEqual([
      410,
      410,
      [
        expect.objectContaining({ route: "GET (retired REST v1)", path: "/v1/pods", status: 410 }),
        expect.objectContaining({ route: "GET (retired REST v1)", path: "/v1/pods", status: 410 }),
      ],
    ]);
  });

  it("is rest_url's alone: /v1 on base_url and other paths on rest_url are 404", async () => {
    const onBase = await c.get("base", "/v1/pods");
    const otherPath = await c.get("rest", "/v2/pods");
    expect([onBase.status, onBase.body.detail, otherPath.status, otherPath.body.detail]).toEqual([
      404,
      "No route for GET /v1/pods.",
      404,
      "No route for GET /v2/pods.",
    ]);
  });
});
