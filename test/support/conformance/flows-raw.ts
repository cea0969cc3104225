/**
 * Conformance flows of raw requests: the routes neither the provider nor the CLI calls yet, error
 * answers, and bodies the service must refuse.
 */
import { expect } from "vitest";
import { A40, FLUX, type Flow, fields, H100, idOf } from "./flow.js";

export const RAW_FLOWS: readonly Flow[] = [
  {
    name: "pods: list with cluster members, actions stop/start/restart/terminate",
    via: "raw",
    operations: ["listPods", "createPod", "podAction"],
    async run(ctx) {
      const list = await ctx.raw("base", "GET", "/v2/pods?includeClusterPods=true");
      const pod = await ctx.raw("base", "POST", "/v2/pods", {
        body: { name: "conformance-actions", image: "img:1", gpu: { id: A40 }, dataCenterIds: ["US-KS-2"] },
      });
      ctx.emu.control.advance(60_000);
      const actions = [];
      for (const action of ["stop", "start", "restart", "terminate"]) {
        if (action === "restart") ctx.emu.control.advance(60_000);
        actions.push(
          (await ctx.raw("base", "POST", `/v2/pods/${idOf(pod)}/action`, { body: { action } })).status,
        );
      }
      const clusterPods = (fields(list).pods as { cluster?: unknown }[]).filter((p) => p.cluster);
      expect([list.status, clusterPods.length, pod.status, actions]).toEqual([
        200,
        2,
        201,
        [200, 200, 200, 204],
      ]);
    },
  },
  {
    name: "catalog: one GPU type, CPU flavor and data center; GPU stock per product and cloud",
    via: "raw",
    operations: [
      "getGpuType",
      "getCpuType",
      "getDataCenter",
      "listGpuTypes",
      "listCpuTypes",
      "listDataCenters",
    ],
    async run(ctx) {
      const answers = await Promise.all([
        ctx.raw(
          "base",
          "GET",
          `/v2/catalog/gpus/${encodeURIComponent(H100)}?include=AVAILABILITY&product=POD`,
        ),
        ctx.raw("base", "GET", "/v2/catalog/cpus/cpu3c"),
        ctx.raw("base", "GET", "/v2/catalog/datacenters/US-TX-3?include=GPU_AVAILABILITY"),
        ctx.raw(
          "base",
          "GET",
          "/v2/catalog/gpus?include=AVAILABILITY&product=POD,SERVERLESS&cloud=COMMUNITY&count=2",
        ),
        ctx.raw("base", "GET", "/v2/catalog/cpus?include=AVAILABILITY&product=POD&vcpuCount=4"),
        ctx.raw(
          "base",
          "GET",
          "/v2/catalog/datacenters?include=GPU_AVAILABILITY,CPU_AVAILABILITY&regions=EUROPE,ASIA&globalNetwork=true",
        ),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    },
  },
  {
    name: "lists of templates and network volumes",
    via: "raw",
    operations: ["listTemplates", "listNetworkVolumes"],
    async run(ctx) {
      const answers = await Promise.all([
        ctx.raw("base", "GET", "/v2/templates"),
        ctx.raw("base", "GET", "/v2/network-volumes"),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
    },
  },
  {
    name: "serverless, registries, clusters and billing routes nothing above calls",
    via: "raw",
    operations: [
      "listEndpoints",
      "listRegistries",
      "listClusters",
      "listBilling",
      "listEndpointBilling",
      "listClusterBilling",
      "listPodBilling",
    ],
    async run(ctx) {
      const answers = await Promise.all([
        ctx.raw("base", "GET", "/v2/serverless"),
        ctx.raw("base", "GET", "/v2/registries"),
        ctx.raw("base", "GET", "/v2/clusters"),
        ctx.raw("base", "GET", "/v2/billing?bucketSize=week&lastN=2"),
        ctx.raw(
          "base",
          "GET",
          "/v2/billing/endpoints?startTime=2026-11-01T00:00:00Z&endTime=2026-11-02T00:00:00Z",
        ),
        ctx.raw("base", "GET", "/v2/billing/clusters?bucketSize=month&lastN=1"),
        ctx.raw("base", "GET", "/v2/billing/pods?podId=pod-hist-trainer&bucketSize=hour&lastN=3"),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    },
  },
  {
    name: "jobs: the serverless_url routes nothing above calls (recorded; the description has none)",
    via: "raw",
    operations: [],
    async run(ctx) {
      const run = (input: Record<string, unknown>) =>
        ctx.raw("serverless", "POST", `/v2/${FLUX}/run`, { body: { input } });
      const queued = await run({ prompt: "a fox" });
      const cancelled = await ctx.raw("serverless", "POST", `/v2/${FLUX}/cancel/${idOf(queued)}`);
      const failing = await run({ prompt: "a fox", fail: true });
      ctx.emu.control.advance(60_000);
      const retried = await ctx.raw("serverless", "POST", `/v2/${FLUX}/retry/${idOf(failing)}`);
      ctx.emu.control.advance(60_000);
      const answers = await Promise.all([
        ctx.raw("serverless", "GET", `/v2/${FLUX}/status-sync/${idOf(failing)}`),
        ctx.raw("serverless", "GET", `/v2/${FLUX}/stream/${idOf(failing)}`),
        ctx.raw("serverless", "POST", `/v2/${FLUX}/purge-queue`),
        ctx.raw("serverless", "GET", `/v2/${FLUX}/health`),
      ]);
      expect([cancelled.status, retried.status, ...answers.map((a) => a.status)]).toEqual([
        200, 200, 200, 200, 200, 200,
      ]);
    },
  },
  {
    name: "error answers: 400, 401, 402, 403, 404, 409, 413, 429",
    via: "raw",
    operations: ["createPod", "getPod", "getTemplate", "updatePod", "deletePod", "listPods"],
    async run(ctx) {
      const { control } = ctx.emu;
      const statuses: number[] = [];
      const pod = (body: unknown, key?: string) =>
        ctx.raw("base", "POST", "/v2/pods", { body, ...(key ? { key } : {}) });
      const gpu = { name: "conformance-errors", image: "img:1", gpu: { id: A40 } };
      // 400: a cross-field rule (a CUDA set and a floor together).
      statuses.push(
        (await pod({ ...gpu, gpu: { id: A40, allowedCudaVersions: ["12.8"], minCudaVersion: "12.4" } }))
          .status,
      );
      // 401: an unknown key.
      statuses.push(
        (await ctx.raw("base", "GET", "/v2/pods/none", { key: "rpa_NOT_A_KEY_000000000000" })).status,
      );
      // 402: no balance.
      control.setSettings({ balanceExhausted: true });
      statuses.push((await pod(gpu)).status);
      control.setSettings({ balanceExhausted: false });
      // 403: a key without access to the H100 pools.
      statuses.push(
        (await pod({ ...gpu, gpu: { id: H100 } }, "rpa_EMULATOR_LIMITED_KEY_000000000000")).status,
      );
      // 404: unknown pod and template.
      statuses.push((await ctx.raw("base", "GET", "/v2/pods/no-such-pod")).status);
      statuses.push((await ctx.raw("base", "GET", "/v2/templates/no-such-template")).status);
      // 409: a locked pod cannot be deleted.
      const locked = await pod({ ...gpu, dataCenterIds: ["US-KS-2"] });
      await ctx.raw("base", "PATCH", `/v2/pods/${idOf(locked)}`, { body: { locked: true } });
      statuses.push((await ctx.raw("base", "DELETE", `/v2/pods/${idOf(locked)}`)).status);
      // 413: over 102400 bytes, refused before authentication.
      statuses.push((await pod({ ...gpu, env: { BIG: "x".repeat(110_000) } })).status);
      // 429: a quota of one request a minute, spent by the first of two.
      control.setRateLimitPolicy([{ name: "minute", quota: 1, seconds: 60 }]);
      await ctx.raw("base", "GET", "/v2/pods");
      statuses.push((await ctx.raw("base", "GET", "/v2/pods")).status);
      control.setRateLimitPolicy([{ name: "minute", quota: 100_000, seconds: 60 }]);
      expect(statuses).toEqual([400, 401, 402, 403, 404, 404, 409, 413, 429]);
    },
  },
  {
    name: "secrets: listed by name; a name taken (409), a reserved name and an empty PATCH (400), an unknown id (404); a pod referencing one",
    via: "raw",
    operations: [
      "createSecret",
      "listSecrets",
      "updateSecret",
      "getSecret",
      "deleteSecret",
      "createPod",
      "deletePod",
    ],
    async run(ctx) {
      const secret = await ctx.raw("base", "POST", "/v2/account/secrets", {
        body: { name: "conformance-raw", value: "v" },
      });
      const statuses = [
        (await ctx.raw("base", "GET", "/v2/account/secrets?name=CONFORMANCE-RAW")).status,
        (
          await ctx.raw("base", "POST", "/v2/account/secrets", {
            body: { name: "Conformance-Raw", value: "v" },
          })
        ).status,
        (await ctx.raw("base", "POST", "/v2/account/secrets", { body: { name: "RUNPOD_X", value: "v" } }))
          .status,
        (await ctx.raw("base", "PATCH", `/v2/account/secrets/${idOf(secret)}`, { body: {} })).status,
        (await ctx.raw("base", "GET", "/v2/account/secrets/nope")).status,
      ];
      const pod = await ctx.raw("base", "POST", "/v2/pods", {
        body: {
          name: "conformance-secret-ref",
          image: "img:1",
          gpu: { id: A40 },
          env: { HF_TOKEN: "{{ RUNPOD_SECRET_conformance-raw }}" },
        },
      });
      await ctx.raw("base", "DELETE", `/v2/pods/${idOf(pod)}`);
      statuses.push((await ctx.raw("base", "DELETE", `/v2/account/secrets/${idOf(secret)}`)).status);
      expect([secret.status, statuses, fields(pod).env]).toEqual([
        201,
        [200, 409, 400, 400, 404, 204],
        { HF_TOKEN: "{{ RUNPOD_SECRET_conformance-raw }}" },
      ]);
    },
  },
  {
    name: "negative: secret bodies the reference refuses are reported (422): a bad name, an empty value, a rename",
    via: "raw",
    operations: ["createSecret", "updateSecret", "deleteSecret"],
    expectedViolations: [
      {
        operation: "createSecret",
        direction: "request",
        pointer: "/body/name",
        message: 'must match pattern "^[a-zA-Z_][a-zA-Z0-9_.\\-/]*$" (pattern)',
      },
      {
        operation: "createSecret",
        direction: "request",
        pointer: "/body/value",
        message: "must NOT have fewer than 1 characters (minLength)",
      },
      {
        operation: "updateSecret",
        direction: "request",
        pointer: "/body/name",
        message: "property is not allowed (additionalProperties: false)",
      },
    ],
    async run(ctx) {
      const bad = await ctx.raw("base", "POST", "/v2/account/secrets", {
        body: { name: "1 bad", value: "" },
      });
      const secret = await ctx.raw("base", "POST", "/v2/account/secrets", {
        body: { name: "conformance-rename", value: "v" },
      });
      const rename = await ctx.raw("base", "PATCH", `/v2/account/secrets/${idOf(secret)}`, {
        body: { name: "x" },
      });
      await ctx.raw("base", "DELETE", `/v2/account/secrets/${idOf(secret)}`);
      expect([bad.status, rename.status]).toEqual([422, 422]);
    },
  },
  {
    name: "negative: bodies the service must refuse are reported here too (422, 415)",
    via: "raw",
    operations: ["createPod"],
    expectedViolations: [
      {
        operation: "createPod",
        direction: "request",
        pointer: "/body/name",
        message: "required property is missing",
      },
      {
        operation: "createPod",
        direction: "request",
        pointer: "/body/gpu/bogus",
        message: "property is not allowed (unevaluatedProperties: false)",
      },
      {
        operation: "createPod",
        direction: "request",
        pointer: "/headers/content-type",
        message: "text/plain is not one of application/json",
      },
    ],
    async run(ctx) {
      const stray = await ctx.raw("base", "POST", "/v2/pods", {
        body: { image: "img:1", gpu: { id: A40, bogus: 1 } },
      });
      const text = await ctx.raw("base", "POST", "/v2/pods", {
        body: { name: "x", image: "img:1", gpu: { id: A40 } },
        contentType: "text/plain",
      });
      expect([stray.status, text.status]).toEqual([422, 415]);
    },
  },
];
