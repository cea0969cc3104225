/**
 * The validator itself: closed bodies are closed (a stray field is reported, also inside nested
 * allOf bodies), required fields are required, each overlay entry changes exactly what it says,
 * operations and parameters are matched as OpenAPI says, and answers are checked per status and
 * content type.
 */

import { describe, expect, it } from "vitest";
import {
  type Description,
  deref,
  HTTP_METHODS,
  loadDescription,
  type Response,
} from "../support/conformance/description.js";
import { applyOverlay, ERRATA, NEWER_ROUTES, OVERLAY } from "../support/conformance/overlay.js";
import {
  type AnswerRecord,
  DescriptionValidator,
  type OperationMatch,
  type Violation,
} from "../support/conformance/validator.js";
import { podBody } from "../support/scripted-server.js";

const validator = DescriptionValidator.load();
/** The description as published, with neither the contract overlay nor the errata. */
const published = new DescriptionValidator(loadDescription());
/** The description with the errata only: what the contract overlay alone changes. */
const withoutOverlay = new DescriptionValidator(applyOverlay(loadDescription(), [], ERRATA, []));

const JSON_HEADERS = { "content-type": "application/json" };
const RATE_HEADERS = {
  ratelimit: '"minute";r=59;t=60',
  "ratelimit-policy": '"minute";q=60;w=60',
};

function request(v: DescriptionValidator, method: string, url: string, body?: unknown): Violation[] {
  const [path = "", query = ""] = url.split("?");
  const check = v.validateRequest({
    method,
    path,
    query,
    headers: body === undefined ? {} : JSON_HEADERS,
    body: body === undefined ? "" : JSON.stringify(body),
  });
  if (check.kind === "undescribed") throw new Error(`${method} ${path} is not in the description`);
  return check.violations;
}

function operation(v: DescriptionValidator, method: string, path: string): OperationMatch {
  const found = v.match(method, path);
  if (!found || !("operation" in found)) throw new Error(`${method} ${path} is not an operation`);
  return found.operation;
}

function answer(
  v: DescriptionValidator,
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = { ...JSON_HEADERS, ...RATE_HEADERS },
): Violation[] {
  const record: AnswerRecord = {
    status,
    headers,
    body: body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body),
  };
  return v.validateAnswer(operation(v, method, path), record);
}

const stray = (operation: string, pointer: string, keyword = "unevaluatedProperties"): Violation => ({
  operation,
  direction: "request",
  pointer,
  message: `property is not allowed (${keyword}: false)`,
});
const missing = (
  operation: string,
  pointer: string,
  direction: Violation["direction"] = "request",
): Violation => ({
  operation,
  direction,
  pointer,
  message: "required property is missing",
});

const GPU_POD = { name: "p", image: "img:1", gpu: { id: "NVIDIA A40" } };
const QUEUE_ENDPOINT = {
  name: "e",
  image: "img:1",
  type: "QUEUE",
  gpu: { pools: ["ADA_24"] },
  workers: { min: 0, max: 2 },
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
};

/** A pod as getPod answers it, with the contract's GPU totals. */
const POD = podBody("p1", {
  name: "p",
  actions: ["stop", "restart", "terminate"],
  cudaVersion: "12.8",
  cost: 0.4,
  startedAt: null,
});

describe("closed bodies report a stray field", () => {
  it.each([
    [
      "createPod, top level",
      "POST",
      "/v2/pods",
      { ...GPU_POD, bogus: 1 },
      [stray("createPod", "/body/bogus")],
    ],
    [
      "createPod, inside gpu (CreateGpuConfig: allOf + unevaluatedProperties)",
      "POST",
      "/v2/pods",
      { ...GPU_POD, gpu: { id: "NVIDIA A40", bogus: 1 } },
      [stray("createPod", "/body/gpu/bogus")],
    ],
    [
      "createPod, inside cpu (CreateCpuConfig: allOf + unevaluatedProperties)",
      "POST",
      "/v2/pods",
      { name: "p", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 4, memory: 8 } },
      [stray("createPod", "/body/cpu/memory")],
    ],
    [
      "createPod, inside a network mount",
      "POST",
      "/v2/pods",
      { ...GPU_POD, mounts: { network: [{ volumeId: "v", path: "/d", size: 10 }] } },
      [stray("createPod", "/body/mounts/network/0/size", "additionalProperties")],
    ],
    [
      "updatePod",
      "PATCH",
      "/v2/pods/p1",
      { name: "q", startSsh: true },
      [stray("updatePod", "/body/startSsh")],
    ],
    [
      "createEndpoint, top level (allOf inside allOf)",
      "POST",
      "/v2/serverless",
      { ...QUEUE_ENDPOINT, bogus: 1 },
      [stray("createEndpoint", "/body/bogus")],
    ],
    [
      "createEndpoint, inside gpu",
      "POST",
      "/v2/serverless",
      { ...QUEUE_ENDPOINT, gpu: { pools: ["ADA_24"], bogus: 1 } },
      [stray("createEndpoint", "/body/gpu/bogus")],
    ],
    [
      "createEndpoint, inside workers",
      "POST",
      "/v2/serverless",
      { ...QUEUE_ENDPOINT, workers: { min: 0, bogus: 1 } },
      [stray("createEndpoint", "/body/workers/bogus", "additionalProperties")],
    ],
    [
      "createEndpoint, inside the discriminated scaling (only the chosen variant reports)",
      "POST",
      "/v2/serverless",
      { ...QUEUE_ENDPOINT, scaling: { type: "QUEUE_DELAY", queueDelay: 4, requestCount: 2 } },
      [stray("createEndpoint", "/body/scaling/requestCount", "additionalProperties")],
    ],
    [
      "createTemplate, a v1 field",
      "POST",
      "/v2/templates",
      { name: "t", image: "img:1", readme: "x" },
      [stray("createTemplate", "/body/readme")],
    ],
  ])("%s", (_name, method, url, body, expected) => {
    expect(request(validator, method, url, body)).toEqual(expected);
  });
});

describe("a missing required field is reported", () => {
  it.each([
    [
      "createPod: name",
      "POST",
      "/v2/pods",
      { image: "img:1", gpu: { id: "g" } },
      [missing("createPod", "/body/name")],
    ],
    [
      "createPod: image unless templateId",
      "POST",
      "/v2/pods",
      { name: "p", gpu: { id: "g" } },
      [missing("createPod", "/body/image")],
    ],
    [
      "createPod: gpu.id",
      "POST",
      "/v2/pods",
      { ...GPU_POD, gpu: { count: 1 } },
      [missing("createPod", "/body/gpu/id")],
    ],
    [
      "createPod: a network mount's path",
      "POST",
      "/v2/pods",
      { ...GPU_POD, mounts: { network: [{ volumeId: "v" }] } },
      [missing("createPod", "/body/mounts/network/0/path")],
    ],
    [
      "createEndpoint: type and scaling",
      "POST",
      "/v2/serverless",
      { name: "e", image: "img:1" },
      [missing("createEndpoint", "/body/type"), missing("createEndpoint", "/body/scaling")],
    ],
    [
      "createNetworkVolume: size",
      "POST",
      "/v2/network-volumes",
      { name: "v", dataCenter: "EU-RO-1" },
      [missing("createNetworkVolume", "/body/size")],
    ],
    ["podAction: action", "POST", "/v2/pods/p1/action", {}, [missing("podAction", "/body/action")]],
    [
      "createPod: the body itself",
      "POST",
      "/v2/pods",
      undefined,
      [
        {
          operation: "createPod",
          direction: "request",
          pointer: "/body",
          message: "required request body is missing",
        },
      ],
    ],
  ])("%s", (_name, method, url, body, expected) => {
    expect(request(validator, method, url, body)).toEqual(expected);
  });

  it("a response without a required field is reported too", () => {
    const { status: _status, ...withoutStatus } = POD;
    expect(answer(validator, "GET", "/v2/pods", 200, { pods: [withoutStatus] })).toEqual([
      missing("listPods", "/body/pods/0/status", "answer"),
    ]);
  });
});

describe("valid bodies pass", () => {
  it.each([
    // Ajv drops what allOf evaluated when an `if` beside unevaluatedProperties fails; the validator
    // moves such conditionals into allOf, so a template-based create is not reported whole.
    [
      "createPod from a template, without image",
      "POST",
      "/v2/pods",
      { name: "p", templateId: "t", gpu: { id: "g" } },
    ],
    ["createEndpoint, queue-based", "POST", "/v2/serverless", QUEUE_ENDPOINT],
    [
      "createEndpoint, load balancer with request-count scaling",
      "POST",
      "/v2/serverless",
      {
        name: "lb",
        image: "img:1",
        type: "LOAD_BALANCER",
        scaling: { type: "REQUEST_COUNT", requestCount: 4 },
      },
    ],
  ])("%s", (_name, method, url, body) => {
    expect(request(validator, method, url, body)).toEqual([]);
  });

  it("a load balancer refuses queue-delay scaling, reported on the variant the condition selects", () => {
    expect(
      request(validator, "POST", "/v2/serverless", {
        name: "lb",
        image: "img:1",
        type: "LOAD_BALANCER",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      }),
    ).toEqual([
      missing("createEndpoint", "/body/scaling/requestCount"),
      stray("createEndpoint", "/body/scaling/queueDelay", "additionalProperties"),
      {
        operation: "createEndpoint",
        direction: "request",
        pointer: "/body/scaling/type",
        message: 'must be one of "REQUEST_COUNT"',
      },
    ]);
  });
});

describe("every example of the description", () => {
  /** Each example body with the operation, status and content type it illustrates. */
  function examples(description: Description) {
    const out: { where: string; check(v: DescriptionValidator): Violation[] }[] = [];
    for (const [template, item] of Object.entries(description.paths)) {
      const path = template.replace(/\{[^}]+\}/g, "x");
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!op) continue;
        for (const content of Object.values(op.requestBody?.content ?? {})) {
          for (const [name, example] of Object.entries(content.examples ?? {})) {
            out.push({
              where: `${op.operationId} request ${name}`,
              check: (v) => request(v, method, path, example.value),
            });
          }
        }
        for (const [status, response] of Object.entries(op.responses)) {
          const resolved = deref<Response>(description, response);
          for (const [media, content] of Object.entries(resolved.content ?? {})) {
            for (const [name, example] of Object.entries(content.examples ?? {})) {
              const headers = { "content-type": media, ...RATE_HEADERS, "retry-after": "12" };
              const code = status === "default" ? 500 : Number(status);
              out.push({
                where: `${op.operationId} ${status} ${name}`,
                check: (v) => answer(v, method, path, code, example.value, headers),
              });
            }
          }
        }
      }
    }
    return out;
  }
  const all = examples(loadDescription());

  it("is a valid request or answer, but for the job URL templates the errata correct", () => {
    const failing = all.filter((e) => e.check(published).length > 0);
    expect(failing.map((e) => e.where)).toEqual([
      "listEndpoints 200 endpoints",
      "createEndpoint 201 endpoint",
      "createEndpoint 201 cpuEndpoint",
      "updateEndpoint 200 endpoint",
    ]);
    expect(failing.map((e) => e.check(withoutOverlay))).toEqual([[], [], [], []]);
  });

  it("with a stray property added is refused, for every request example of a closed body", () => {
    const requestExamples = Object.entries(loadDescription().paths).flatMap(([template, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const op = item[method];
        const content = op?.requestBody?.content["application/json"];
        return Object.entries(content?.examples ?? {}).map(([name, example]) => ({
          where: `${op?.operationId} ${name}`,
          violations: request(validator, method, template.replace(/\{[^}]+\}/g, "x"), {
            ...(example.value as object),
            __stray: true,
          }).map((v) => v.pointer),
        }));
      }),
    );
    expect(requestExamples.filter((e) => e.violations.join() !== "/body/__stray")).toEqual([]);
    expect(requestExamples.length).toBeGreaterThan(10);
  });
});

describe("the contract overlay", () => {
  /** Per entry, one exchange the entry is about: what the description alone says, and what the overlay makes of it. */
  const samples: Record<string, { check(v: DescriptionValidator): Violation[]; without: Violation[] }> = {
    "container-command": {
      check: (v) =>
        request(v, "POST", "/v2/pods", { ...GPU_POD, entrypoint: ["bash", "-c"], cmd: ["sleep 1"] }),
      without: [stray("createPod", "/body/entrypoint"), stray("createPod", "/body/cmd")],
    },
    "gpu-placement-filters": {
      check: (v) =>
        request(v, "POST", "/v2/pods", {
          ...GPU_POD,
          gpu: { id: "g", minRamPerGpu: 8, minVcpuCountPerGpu: 2 },
        }),
      without: [
        stray("createPod", "/body/gpu/minRamPerGpu"),
        stray("createPod", "/body/gpu/minVcpuCountPerGpu"),
      ],
    },
    "pod-gpu-allocation": {
      // The contract is narrower here: the description alone accepts a pod without the totals.
      check: (v) => [
        ...answer(v, "GET", "/v2/pods/p1", 200, { ...POD, gpu: { id: "NVIDIA A40", count: 1 } }),
        ...request(v, "POST", "/v2/pods", { ...GPU_POD, gpu: { id: "g", vcpuCount: 9 } }),
      ],
      without: [stray("createPod", "/body/gpu/vcpuCount")],
    },
    "pod-global-mounts": {
      check: (v) => [
        ...request(v, "POST", "/v2/pods", { ...GPU_POD, mounts: { global: [{ volumeId: "gv" }] } }),
        ...answer(v, "GET", "/v2/pods/p1", 200, {
          ...POD,
          mounts: { global: [{ volumeId: "gv", path: "/g" }] },
        }),
      ],
      without: [
        stray("createPod", "/body/mounts/global", "additionalProperties"),
        { ...stray("getPod", "/body/mounts/global", "additionalProperties"), direction: "answer" },
      ],
    },
    "retry-after-required": {
      check: (v) =>
        answer(
          v,
          "GET",
          "/v2/pods",
          429,
          { title: "Too Many Requests", status: 429, detail: "slow down" },
          {
            "content-type": "application/problem+json",
            ...RATE_HEADERS,
          },
        ),
      without: [],
    },
  };
  const withOverlay: Record<string, Violation[]> = {
    "pod-gpu-allocation": [
      missing("getPod", "/body/gpu/vcpuCount", "answer"),
      missing("getPod", "/body/gpu/memory", "answer"),
      stray("createPod", "/body/gpu/vcpuCount"),
    ],
    "retry-after-required": [
      {
        operation: "listPods",
        direction: "answer",
        pointer: "/headers/retry-after",
        message: "required header is missing",
      },
    ],
  };

  it("has a sample for every entry, and every entry names a section of the API model", () => {
    expect(Object.keys(samples).sort()).toEqual(OVERLAY.map((e) => e.id).sort());
    expect(OVERLAY.filter((e) => !/\w/.test(e.model) || !/\w/.test(e.reason))).toEqual([]);
  });

  it.each(OVERLAY.map((e) => [e.id] as const))("%s changes exactly what it says", (id) => {
    const sample = samples[id];
    expect([sample?.check(withoutOverlay), sample?.check(validator)]).toEqual([
      sample?.without,
      withOverlay[id] ?? [],
    ]);
  });

  it("refuses to apply an entry the description has caught up with", () => {
    const caughtUp = loadDescription();
    (caughtUp.components.schemas.Mounts as { properties: Record<string, unknown> }).properties.global = {};
    expect(() => applyOverlay(caughtUp)).toThrow(
      "overlay entry pod-global-mounts: the description now has #/components/schemas/Mounts/properties/global; it may have caught up with the contract (docs/api-model.md, Mounts; Limits): review the entry and drop it if so",
    );
  });
});

describe("routes newer than our copy of the description", () => {
  const SECRET = {
    id: "2q9m7x4cavgd",
    name: "hf-token",
    description: null,
    createdAt: "2026-11-21T12:00:00.000Z",
    valueLastUpdatedAt: "2026-11-21T12:00:00.000Z",
  };
  const violation = (
    operation: string,
    direction: Violation["direction"],
    pointer: string,
    message: string,
  ): Violation => ({ operation, direction, pointer, message });

  it("the published copy lacks the secrets paths, and every entry names its reference pages", () => {
    expect([
      Object.keys(loadDescription().paths).filter((p) => p.startsWith("/v2/account/secrets")),
      NEWER_ROUTES.map((e) => [e.id, e.reference.length > 0, /\w/.test(e.reason)]),
    ]).toEqual([[], [["account-secrets", true, true]]]);
  });

  it.each([
    ["GET", "/v2/account/secrets", "listSecrets", {}],
    ["POST", "/v2/account/secrets", "createSecret", {}],
    ["GET", "/v2/account/secrets/s1", "getSecret", { id: "s1" }],
    ["PATCH", "/v2/account/secrets/s1", "updateSecret", { id: "s1" }],
    ["DELETE", "/v2/account/secrets/s1", "deleteSecret", { id: "s1" }],
  ])("%s %s is %s", (method, path, operationId, params) => {
    const found = operation(validator, method, path);
    expect({ operation: found.operationId, params: found.pathParams }).toEqual({
      operation: operationId,
      params,
    });
  });

  it("checks requests as the reference describes them", () => {
    expect([
      request(validator, "POST", "/v2/account/secrets", { name: "hf-token", value: "v", description: "d" }),
      request(validator, "GET", "/v2/account/secrets?name=hf-token"),
      request(validator, "PATCH", "/v2/account/secrets/s1", { value: "v2" }),
      request(validator, "POST", "/v2/account/secrets", { name: "hf token", value: "", scope: "x" }).map(
        (v) => v.pointer,
      ),
      request(validator, "PATCH", "/v2/account/secrets/s1", { name: "renamed" }).map((v) => v.pointer),
    ]).toEqual([[], [], [], ["/body/scope", "/body/name", "/body/value"], ["/body/name"]]);
  });

  it("checks answers, and reports one that carries the value", () => {
    expect([
      answer(validator, "POST", "/v2/account/secrets", 201, SECRET),
      answer(validator, "GET", "/v2/account/secrets", 200, { secrets: [SECRET] }),
      answer(validator, "GET", "/v2/account/secrets/s1", 200, { ...SECRET, value: "leaked" }),
      answer(validator, "DELETE", "/v2/account/secrets/s1", 204, undefined, RATE_HEADERS),
    ]).toEqual([
      [],
      [],
      [violation("getSecret", "answer", "/body/value", "boolean schema is false (false schema)")],
      [],
    ]);
  });

  it("refuses to apply once the description has caught up", () => {
    const caughtUp = loadDescription();
    (caughtUp.paths as Record<string, unknown>)["/v2/account/secrets"] = {};
    expect(() => applyOverlay(caughtUp)).toThrow(
      "overlay entry account-secrets: the description now has #/paths//v2/account/secrets; it may have caught up with RunPod's newer reference: review the entry and drop it if so",
    );
  });
});

describe("operations are matched as OpenAPI says", () => {
  it.each([
    ["GET", "/v2/registries/delegations", { operation: "listDelegations", params: {} }],
    ["GET", "/v2/registries/reg1", { operation: "getRegistry", params: { id: "reg1" } }],
    ["POST", "/v2/pods/p%2F1/action", { operation: "podAction", params: { id: "p/1" } }],
    [
      "GET",
      "/v2/serverless/e1/workers/w1/logs",
      { operation: "getWorkerLogs", params: { id: "e1", workerId: "w1" } },
    ],
  ])("%s %s", (method, path, expected) => {
    const found = operation(validator, method, path);
    expect({ operation: found.operationId, params: found.pathParams }).toEqual(expected);
  });

  it("a method the path does not have is a violation, a path the description lacks is not its business", () => {
    expect([
      validator.validateRequest({ method: "PUT", path: "/v2/pods/p1", query: "", headers: {}, body: "" }),
      validator.validateRequest({ method: "POST", path: "/graphql", query: "", headers: {}, body: "" }),
    ]).toEqual([
      {
        kind: "method-not-described",
        operation: "PUT /v2/pods/{id}",
        violations: [
          {
            operation: "PUT /v2/pods/{id}",
            direction: "request",
            pointer: "",
            message: "the description has no PUT on /v2/pods/{id} (it has GET, DELETE, PATCH)",
          },
        ],
      },
      { kind: "undescribed" },
    ]);
  });
});

describe("query parameters", () => {
  const q = (path: string, query: string) => request(validator, "GET", `${path}?${query}`);
  it.each([
    ["/v2/catalog/gpus", "include=AVAILABILITY&product=POD,SERVERLESS&count=2&cloud=COMMUNITY", []],
    [
      "/v2/catalog/datacenters",
      "include=GPU_AVAILABILITY,CPU_AVAILABILITY&regions=EUROPE,ASIA&globalNetwork=true",
      [],
    ],
    ["/v2/pods", "includeClusterPods=true", []],
    [
      "/v2/catalog/gpus",
      "include=AVAILABILITY&include=AVAILABILITY&product=POD",
      [
        {
          operation: "listGpuTypes",
          direction: "request",
          pointer: "/query/include",
          message:
            "sent 2 times; the description serialises it as one comma-separated value (style form, explode false)",
        },
        {
          operation: "listGpuTypes",
          direction: "request",
          pointer: "/query/include",
          message: "must NOT have more than 1 items (maxItems)",
        },
      ],
    ],
    [
      "/v2/catalog/gpus",
      "include=STOCK",
      [
        {
          operation: "listGpuTypes",
          direction: "request",
          pointer: "/query/include/0",
          message: 'must be one of "AVAILABILITY"',
        },
      ],
    ],
    [
      "/v2/pods",
      "includeClusterPods=yes",
      [
        {
          operation: "listPods",
          direction: "request",
          pointer: "/query/includeClusterPods",
          message: "must be boolean (type)",
        },
      ],
    ],
    [
      "/v2/pods",
      "status=RUNNING",
      [
        {
          operation: "listPods",
          direction: "request",
          pointer: "/query/status",
          message: "not a query parameter of listPods",
        },
      ],
    ],
  ])("%s?%s", (path, query, expected) => {
    expect(q(path, query)).toEqual(expected);
  });
});

describe("answers are checked per status and content type", () => {
  const problem = { title: "Not Found", status: 404, detail: "pod not found" };
  const problemHeaders = { "content-type": "application/problem+json", ...RATE_HEADERS };
  const fail = (operation: string, pointer: string, message: string): Violation => ({
    operation,
    direction: "answer",
    pointer,
    message,
  });

  it.each([
    ["a pod", "GET", "/v2/pods/p1", 200, POD, undefined, []],
    ["a problem on the default answer", "GET", "/v2/pods/p1", 503, problem, problemHeaders, []],
    ["no content on 204", "DELETE", "/v2/pods/p1", 204, undefined, RATE_HEADERS, []],
    [
      "a status the operation does not give",
      "GET",
      "/v2/pods/p1",
      204,
      undefined,
      RATE_HEADERS,
      [
        fail(
          "getPod",
          "/status",
          "204 is not an answer of getPod (it gives 200, 401, 403, 404, 429, default)",
        ),
      ],
    ],
    [
      "a problem sent as plain JSON",
      "GET",
      "/v2/pods/p1",
      404,
      problem,
      { ...JSON_HEADERS, ...RATE_HEADERS },
      [fail("getPod", "/headers/content-type", "application/json is not one of application/problem+json")],
    ],
    [
      "a body where the description gives none",
      "DELETE",
      "/v2/pods/p1",
      204,
      POD,
      { ...JSON_HEADERS, ...RATE_HEADERS },
      [
        fail(
          "deletePod",
          "/body",
          "the description gives no body for 204; the answer had 472 bytes (application/json)",
        ),
      ],
    ],
    [
      "a RateLimit header that is no structured-field list of windows",
      "GET",
      "/v2/pods/p1",
      200,
      POD,
      {
        ...JSON_HEADERS,
        ratelimit: '"minute";remaining=59',
        "ratelimit-policy": RATE_HEADERS["ratelimit-policy"],
      },
      [
        fail(
          "getPod",
          "/headers/ratelimit",
          'every window needs an integer parameter r: "minute";remaining=59',
        ),
      ],
    ],
    [
      "a log stream",
      "GET",
      "/v2/pods/p1/logs",
      200,
      'id: 1\ndata: {"ts":"2026-11-21T00:00:00Z","source":"container","line":"ok"}\n\n',
      { "content-type": "text/event-stream", ...RATE_HEADERS },
      [],
    ],
  ])("%s", (_name, method, path, status, body, headers, expected) => {
    expect(answer(validator, method, path, status, body, headers)).toEqual(expected);
  });

  it("a stream that broke off has its status and headers checked, not its body", () => {
    const broken = (contentType: string) =>
      validator.validateAnswer(operation(validator, "GET", "/v2/pods/p1/logs"), {
        status: 200,
        headers: { "content-type": contentType, ...RATE_HEADERS },
        body: "id: 1\ndata: {",
        complete: false,
      });
    expect([broken("text/event-stream"), broken("application/json")]).toEqual([
      [],
      [fail("getPodLogs", "/headers/content-type", "application/json is not one of text/event-stream")],
    ]);
  });
});
