/**
 * Conformance flows through the built CLI binary.
 */
import { expect } from "vitest";
import { A40, cliJson, FLUX, type Flow, idOf } from "./flow.js";

export const CLI_FLOWS: readonly Flow[] = [
  {
    name: "billing all, pods, serverless and network-volume",
    via: "cli",
    operations: [
      "listBilling",
      "listPodBilling",
      "listServerlessBilling",
      "listNetworkVolumeBilling",
      "listPods",
      "listEndpoints",
      // The history's endpoints exist: their pools are expanded to GPU types through the catalog.
      "listGpuTypes",
    ],
    async run(ctx) {
      const window = ["--start-time", "2026-11-01T00:00:00Z", "--end-time", "2026-11-03T00:00:00Z"];
      type Billing = { records: unknown[] };
      const all = await cliJson<Billing>(ctx, ["billing", "all", "--bucket-size", "day", ...window]);
      const pods = await cliJson<Billing>(ctx, ["billing", "pods", "--grouping", "gpuId", ...window]);
      const serverless = await cliJson<Billing>(ctx, [
        "billing",
        "serverless",
        "--grouping",
        "gpuId",
        ...window,
      ]);
      const volumes = await cliJson<Billing>(ctx, [
        "billing",
        "network-volume",
        "--bucket-size",
        "hour",
        ...window,
      ]);
      expect([all, pods, serverless, volumes].map((b) => b.records.length > 0)).toEqual([
        true,
        true,
        true,
        true,
      ]);
    },
  },
  {
    name: "pods list, stop, start, restart",
    via: "cli",
    operations: ["createPod", "listPods", "podAction", "deletePod"],
    async run(ctx) {
      const pod = await ctx.raw("base", "POST", "/v2/pods", {
        body: { name: "conformance-cli-pod", image: "img:1", gpu: { id: A40 }, dataCenterIds: ["US-KS-2"] },
      });
      ctx.emu.control.advance(60_000);
      const listed = await cliJson<{ id: string }[]>(ctx, ["pods", "list"]);
      const stopped = await cliJson<{ status: string }>(ctx, ["pods", "stop", idOf(pod)]);
      const started = await cliJson<{ status: string }>(ctx, ["pods", "start", idOf(pod)]);
      ctx.emu.control.advance(60_000);
      const restarted = await cliJson<{ status: string }>(ctx, ["pods", "restart", idOf(pod)]);
      await ctx.raw("base", "DELETE", `/v2/pods/${idOf(pod)}`);
      expect([
        listed.some((p) => p.id === idOf(pod)),
        stopped.status,
        started.status,
        restarted.status,
      ]).toEqual([true, "EXITED", "PROVISIONING", "STARTING"]);
    },
  },
  {
    name: "registries list and delete",
    via: "cli",
    operations: ["createRegistry", "listRegistries", "deleteRegistry"],
    async run(ctx) {
      const created = await ctx.raw("base", "POST", "/v2/registries", {
        body: { name: "conformance-cli-registry", username: "me", password: "token" },
      });
      const listed = await cliJson<{ id: string }[]>(ctx, ["registries", "list"]);
      const deleted = await ctx.cli(["registries", "delete", idOf(created)]);
      expect([listed.some((r) => r.id === idOf(created)), deleted.code]).toEqual([true, 0]);
    },
  },
  {
    name: "registries delegations create, list and delete",
    via: "cli",
    operations: ["createDelegation", "listDelegations", "revokeDelegation"],
    async run(ctx) {
      const created = await cliJson<{ id: string }>(ctx, [
        "registries",
        "delegations",
        "create",
        "418399314813.dkr.ecr.us-east-2.amazonaws.com/runpod/deployment",
        "--name",
        "conformance",
      ]);
      const listed = await cliJson<{ id: string }[]>(ctx, ["registries", "delegations", "list"]);
      const deleted = await ctx.cli(["registries", "delegations", "delete", created.id]);
      expect([listed.some((d) => d.id === created.id), deleted.code]).toEqual([true, 0]);
    },
  },
  {
    name: "pods logs: a terminated pod's log, to its end",
    via: "cli",
    operations: ["createPod", "podAction", "getPodLogs"],
    async run(ctx) {
      const pod = await ctx.raw("base", "POST", "/v2/pods", {
        body: { name: "conformance-logs", image: "img:1", gpu: { id: A40 }, dataCenterIds: ["US-KS-2"] },
      });
      ctx.emu.control.advance(60_000);
      // A terminated pod's stream sends its last lines and ends: the follow ends with it.
      await ctx.raw("base", "POST", `/v2/pods/${idOf(pod)}/action`, { body: { action: "terminate" } });
      const logs = await ctx.cli([
        "pods",
        "logs",
        idOf(pod),
        "--follow",
        "--tail",
        "10",
        "--source",
        "system",
      ]);
      expect([logs.code, logs.stdout.trim().split("\n").at(-1)]).toEqual([
        0,
        expect.stringMatching(/Z {2}system {5}terminate pod: container stopped and removed$/),
      ]);
    },
  },
  {
    name: "serverless workers, releases and a worker's logs",
    via: "cli",
    operations: [
      "createEndpoint",
      "listEndpointWorkers",
      "listEndpointReleases",
      "getWorkerLogs",
      "deleteEndpoint",
    ],
    async run(ctx) {
      const endpoint = await ctx.raw("base", "POST", "/v2/serverless", {
        body: {
          name: "conformance-workers",
          image: "img:1",
          type: "QUEUE",
          gpu: { pools: ["ADA_24"] },
          workers: { min: 1, max: 1 },
          scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        },
      });
      ctx.emu.control.advance(60_000);
      const workers = await cliJson<{ workers: { id: string }[] }>(ctx, [
        "serverless",
        "workers",
        idOf(endpoint),
      ]);
      const releases = await cliJson<{ releases: unknown[] }>(ctx, [
        "serverless",
        "releases",
        idOf(endpoint),
      ]);
      // The always-on worker ran no job, so its log is empty: the read stops after --max-wait.
      const logs = await ctx.cli([
        "serverless",
        "logs",
        idOf(endpoint),
        "--tail",
        "0",
        "--max-wait",
        "200ms",
      ]);
      await ctx.raw("base", "DELETE", `/v2/serverless/${idOf(endpoint)}`);
      expect([workers.workers.length, releases.releases.length, logs.code]).toEqual([1, 1, 0]);
    },
  },
  {
    name: "hub list, search and get",
    via: "cli",
    operations: [],
    async run(ctx) {
      const listed = await cliJson<{ id: string }[]>(ctx, ["hub", "list", "--limit", "3"]);
      const found = await cliJson<unknown[]>(ctx, ["hub", "search", "vllm", "--type", "SERVERLESS"]);
      const one = await cliJson<{ id: string }>(ctx, ["hub", "get", "hub-sdxl"]);
      expect([listed.length, found.length > 0, one.id]).toEqual([3, true, "hub-sdxl"]);
    },
  },
  {
    name: "jobs run and status on a hosted model",
    via: "cli",
    operations: [],
    async run(ctx) {
      const job = await cliJson<{ id: string; status: string }>(ctx, [
        "jobs",
        "run",
        "--endpoint-id",
        FLUX,
        "--input",
        '{"prompt":"a fox"}',
      ]);
      // The emulator's clock is frozen: the job moves only when the test moves it.
      ctx.emu.control.advance(60_000);
      const done = await cliJson<{ status: string }>(ctx, [
        "jobs",
        "status",
        "--endpoint-id",
        FLUX,
        "--job-id",
        job.id,
      ]);
      expect([job.status, done.status]).toEqual(["IN_QUEUE", "COMPLETED"]);
    },
  },
  {
    name: "serverless create from a hub listing",
    via: "cli",
    operations: ["listGpuTypes", "listEndpoints", "createEndpoint"],
    async run(ctx) {
      const created = await cliJson<{ id: string; hubListingId: string }>(ctx, [
        "serverless",
        "create",
        "--hub-id",
        "hub-sdxl",
        "--name",
        "conformance-hub",
      ]);
      expect(created.hubListingId).toBe("hub-sdxl");
    },
  },
];
