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
    operations: ["listGpuTypes", "createEndpoint"],
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
