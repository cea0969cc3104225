/**
 * The traffic the conformance test sends through the proxy: one row per flow, in the order they
 * run against one emulator. Each row says through what it goes (the real provider in-process, the
 * real CLI binary, or raw requests for routes neither calls yet) and exactly which described
 * operations its requests are, so a flow that silently stops reaching an operation fails.
 *
 * Within a flow, `expect` only checks that the flow did what it says (the pod ran, the job
 * completed); values are the business of each area's own tests. What the gate asserts exactly (the
 * operations, the violations) is asserted in traffic.test.ts.
 *
 * To cover a new route or resource, add a row here (a new resource's provider flow next to the
 * others, a CLI command next to the CLI rows, an emulator route nothing calls yet to the raw rows).
 */
import { expect } from "vitest";
import type { ClusterInputs, ClusterOutputs } from "../../provider/resources/cluster.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "../../provider/resources/network-volume.js";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import type { RegistryOutputs } from "../../provider/resources/registry.js";
import type {
  ServerlessEndpointInputs,
  ServerlessEndpointOutputs,
} from "../../provider/resources/serverless-endpoint.js";
import type { ServerlessJobOutputs } from "../../provider/resources/serverless-job.js";
import type { SshKeyOutputs } from "../../provider/resources/ssh-key.js";
import type { TemplateInputs, TemplateOutputs } from "../../provider/resources/template.js";
import type { CliResult } from "../support/cli.js";
import type { Api, RunningEmulator } from "../support/emulator.js";
import { providerLib, runtimeLib } from "../support/provider.js";
import type { Surface } from "./emulator-routes.js";
import type { Violation } from "./validator.js";

export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface RawOptions {
  /** A JSON value, sent as `application/json` unless `contentType` says otherwise. */
  readonly body?: unknown;
  readonly contentType?: string;
  /** The bearer key; null sends none. @default the emulator's key */
  readonly key?: string | null;
}

export interface StreamedAnswer {
  readonly status: number;
  /** The rest of the body, once the stream ends. */
  readonly body: Promise<string>;
}

export interface FlowContext {
  /** The emulator behind the proxy: its control plane sets the scene and moves its clock. */
  readonly emu: RunningEmulator;
  /** A typed client through the proxy whose waits move the emulator's clock. */
  readonly api: Api;
  /** A request through the proxy to one of the three addresses. */
  raw(surface: Surface, method: string, path: string, options?: RawOptions): Promise<RawAnswer>;
  /** A GET through the proxy whose answer is streamed: resolves once the status and headers came. */
  open(surface: Surface, path: string): Promise<StreamedAnswer>;
  /** The built CLI, run with RUNPOD_* variables pointing at the proxy. */
  cli(args: readonly string[]): Promise<CliResult>;
}

export interface Flow {
  readonly name: string;
  readonly via: "provider" | "cli" | "raw";
  /** The described operations this flow's requests are, exactly (operationIds, any order). */
  readonly operations: readonly string[];
  /**
   * Violations the flow provokes on purpose (a negative flow: a body the service must refuse),
   * exactly. Empty for every other flow.
   */
  readonly expectedViolations?: readonly Violation[];
  /**
   * Violations this flow finds in code outside the conformance gate (the provider, the CLI, the
   * emulator), exactly, so the gate stays green while they are fixed there. Each entry says where
   * it comes from and must be removed with its cause: the flow fails when what it sees differs.
   */
  readonly knownViolations?: readonly Violation[];
  run(ctx: FlowContext): Promise<void>;
}

const { Cluster, Pod, Template, NetworkVolume, Registry, SshKey, ServerlessEndpoint, ServerlessJob } =
  runtimeLib.providers;

const A40 = "NVIDIA A40";
const H100 = "NVIDIA H100 80GB HBM3";
const L40S = "NVIDIA L40S";
const L4 = "NVIDIA L4";
const FLUX = "black-forest-labs-flux-1-schnell";
const SSH_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHhYd1pU2k7OtlGkG0XZ5Hdx0mVb9YwKq7m3cG1nD3Fe conformance@test";

/** The body of a raw answer, as an object. */
function fields(answer: RawAnswer): Record<string, unknown> {
  return answer.body as Record<string, unknown>;
}

/** The id of a raw answer's object. */
function idOf(answer: RawAnswer): string {
  return String(fields(answer).id);
}

/** Runs `args` with `--json` and expects exit 0 (stderr may carry notes) with JSON on stdout. */
async function cliJson<T>(ctx: FlowContext, args: readonly string[]): Promise<T> {
  const res = await ctx.cli([...args, "--json"]);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as T;
}

export const FLOWS: readonly Flow[] = [
  // ---------------------------------------------------------------- the provider, in-process
  {
    name: "Pod: GPU pod on a placement candidate with a network volume; read; image and mount path change; delete",
    via: "provider",
    operations: ["createPod", "getNetworkVolume", "getPod", "updatePod", "deletePod"],
    async run() {
      const inputs: PodInputs = {
        name: "conformance-gpu",
        image: "img:1",
        gpu: { id: H100, count: 1, allowedCudaVersions: ["12.8", "13.0"] },
        env: { STAGE: "one" },
        ports: ["22/tcp", "8888/http"],
        disk: 30,
        cloud: "SECURE",
        mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] },
        placement: { candidates: [{ dataCenterId: "US-TX-3" }] },
      };
      const created = await Pod.create(inputs);
      const outs = created.outs as PodOutputs;
      const read = await Pod.read(created.id, outs);
      const updated = await Pod.update(created.id, outs, {
        ...inputs,
        image: "img:2",
        mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] },
      });
      await Pod.delete(created.id, updated.outs as PodOutputs);
      expect([outs.status, read.id, (updated.outs as PodOutputs).mounts.network?.[0]?.path]).toEqual([
        "RUNNING",
        created.id,
        "/mnt/data",
      ]);
    },
  },
  {
    name: "Pod: from a public template, placed by region through the catalog, with command arrays, placement filters, a global volume, locked",
    via: "provider",
    operations: ["listDataCenters", "listGpuTypes", "createPod", "getPod", "updatePod", "deletePod"],
    async run() {
      const inputs: PodInputs = {
        name: "conformance-template",
        templateId: "comfyui-community",
        gpu: { id: A40, minCudaVersion: "12.4", minRamPerGpu: 8, minVcpuCountPerGpu: 2 },
        entrypoint: ["/bin/bash", "-c"],
        cmd: ["sleep infinity"],
        mounts: { global: [{ volumeId: "gv-shared-cache" }] },
        placement: { regions: ["EUROPE", "NORTH_AMERICA"], gpuTypeIds: [L40S] },
        startJupyter: true,
        locked: true,
      };
      const created = await Pod.create(inputs);
      const outs = created.outs as PodOutputs;
      const moved = await Pod.update(created.id, outs, {
        ...inputs,
        mounts: { global: [{ volumeId: "gv-shared-cache", path: "/cache" }] },
        locked: false,
      });
      await Pod.delete(created.id, moved.outs as PodOutputs);
      expect([outs.status, outs.locked, (moved.outs as PodOutputs).mounts.global?.[0]?.path]).toEqual([
        "RUNNING",
        true,
        "/cache",
      ]);
    },
  },
  {
    name: "Pod: CPU pod placed through the catalog, with SSH from the account's keys",
    via: "provider",
    operations: ["listDataCenters", "createPod", "getPod", "deletePod"],
    async run() {
      const created = await Pod.create({
        name: "conformance-cpu",
        image: "runpod/base:0.6.2-cpu",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        ports: ["22/tcp"],
        startSsh: true,
        placement: { regions: ["NORTH_AMERICA"] },
      });
      await Pod.delete(created.id, created.outs as PodOutputs);
      expect((created.outs as PodOutputs).cpu?.vcpuCount).toBe(4);
    },
  },
  {
    name: "Template: create, read, update, delete",
    via: "provider",
    operations: ["createTemplate", "getTemplate", "updateTemplate", "deleteTemplate"],
    async run() {
      const inputs: TemplateInputs = {
        name: "conformance-template",
        image: "img:1",
        cmd: ["python", "train.py"],
        env: { MODEL: "small" },
        ports: ["8888/http"],
        disk: 25,
        allowedCudaVersions: ["12.8"],
        mounts: { persistent: { size: 20, path: "/workspace" } },
        startSsh: true,
        startJupyter: false,
      };
      const created = await Template.create(inputs);
      const outs = created.outs as TemplateOutputs;
      await Template.read(created.id, outs);
      const updated = await Template.update(created.id, outs, {
        ...inputs,
        image: "img:2",
        env: { MODEL: "big" },
      });
      await Template.delete(created.id, updated.outs as TemplateOutputs);
      expect((updated.outs as TemplateOutputs).image).toBe("img:2");
    },
  },
  {
    name: "NetworkVolume: create, read, grow, delete",
    via: "provider",
    operations: ["createNetworkVolume", "getNetworkVolume", "updateNetworkVolume", "deleteNetworkVolume"],
    async run() {
      const inputs: NetworkVolumeInputs = { name: "conformance-volume", size: 20, dataCenterId: "EU-RO-1" };
      const created = await NetworkVolume.create(inputs);
      const outs = created.outs as NetworkVolumeOutputs;
      await NetworkVolume.read(created.id, outs);
      const grown = await NetworkVolume.update(created.id, outs, { ...inputs, size: 40 });
      await NetworkVolume.delete(created.id, grown.outs as NetworkVolumeOutputs);
      expect((grown.outs as NetworkVolumeOutputs).size).toBe(40);
    },
  },
  {
    name: "SshKey: register, read, delete",
    via: "provider",
    operations: ["getSshKeys", "updateSshKeys"],
    async run() {
      const created = await SshKey.create({ publicKey: SSH_KEY });
      const outs = created.outs as SshKeyOutputs;
      const read = await SshKey.read(created.id, outs);
      await SshKey.delete(created.id, outs);
      expect(read.id).toBe(created.id);
    },
  },
  {
    name: "ServerlessEndpoint: create, read, update, delete",
    via: "provider",
    operations: ["createEndpoint", "getEndpoint", "updateEndpoint", "deleteEndpoint"],
    async run() {
      const inputs: ServerlessEndpointInputs = {
        name: "conformance-endpoint",
        type: "QUEUE",
        image: "runpod/worker-sdxl:3.1.0",
        gpu: { pools: ["ADA_24"], excludedTypes: [L4], allowedCudaVersions: ["12.8"] },
        workers: { min: 0, max: 2, idleTimeout: 5 },
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        env: { MODEL: "sdxl" },
        timeout: 600_000,
      };
      const created = await ServerlessEndpoint.create(inputs);
      const outs = created.outs as ServerlessEndpointOutputs;
      await ServerlessEndpoint.read(created.id, outs);
      const updated = await ServerlessEndpoint.update(created.id, outs, {
        ...inputs,
        workers: { min: 0, max: 3, idleTimeout: 5 },
      });
      await ServerlessEndpoint.delete(created.id, updated.outs as ServerlessEndpointOutputs);
      expect((updated.outs as ServerlessEndpointOutputs).workers).toEqual({ min: 0, max: 3, idleTimeout: 5 });
    },
  },
  {
    name: "Registry: create, read, delete",
    via: "provider",
    operations: ["createRegistry", "listRegistries", "getRegistry", "deleteRegistry"],
    async run() {
      const created = await Registry.create({
        name: "conformance-registry",
        username: "me",
        password: "token",
      });
      const outs = created.outs as RegistryOutputs;
      const read = await Registry.read(created.id, outs);
      await Registry.delete(created.id, outs);
      expect(read.id).toBe(created.id);
    },
  },
  {
    name: "Cluster: create, read, rename, delete",
    via: "provider",
    operations: [
      "createCluster",
      "getCluster",
      "listClusterPods",
      "listPods",
      "updateCluster",
      "deleteCluster",
    ],
    async run() {
      const inputs: ClusterInputs = {
        name: "conformance-cluster",
        type: "TRAINING",
        compute: { gpuTypeId: A40, gpuCountPerPod: 1, podCount: 2 },
        image: "img:1",
        ports: ["22/tcp"],
        dataCenterIds: ["US-KS-2"],
        startSsh: true,
      };
      const created = await Cluster.create(inputs);
      const outs = created.outs as ClusterOutputs;
      await Cluster.read(created.id, outs);
      const renamed = await Cluster.update(created.id, outs, { ...inputs, name: "conformance-cluster-2" });
      await Cluster.delete(created.id, renamed.outs as ClusterOutputs);
      expect((renamed.outs as ClusterOutputs).name).toBe("conformance-cluster-2");
    },
  },
  {
    name: "ServerlessJob: a job on a hosted model, run at create",
    via: "provider",
    operations: [],
    async run() {
      const created = await ServerlessJob.create({
        endpointId: FLUX,
        input: { prompt: "a fox" },
        mode: "async",
      });
      expect((created.outs as ServerlessJobOutputs).status).toBe("COMPLETED");
    },
  },
  {
    name: "catalog functions: GPU types with stock, CPU flavors, data centers, public templates, placement candidates",
    via: "provider",
    operations: ["listGpuTypes", "listCpuTypes", "listDataCenters", "listPublicTemplates"],
    async run() {
      const [gpus, cpus, dataCenters, templates, candidates] = await Promise.all([
        providerLib.getGpuTypes({ minCudaVersion: "12.8" }),
        providerLib.getCpuFlavors(),
        providerLib.getDataCenters({ regions: ["EUROPE"] }),
        providerLib.getPublicTemplates(),
        providerLib.placementCandidates({ gpuTypeIds: [A40], regions: ["EUROPE"] }),
      ]);
      expect([gpus.length > 0, cpus.length > 0, dataCenters.length > 0, templates.length > 0]).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(candidates.every((c) => c.gpuTypeId === A40)).toBe(true);
    },
  },
  {
    name: "job functions: runSync, run, getJobStatus, waitForJob on a hosted model",
    via: "provider",
    operations: [],
    async run(ctx) {
      // The functions take the client as an option; this one waits on the emulator's clock.
      const api = { api: ctx.api };
      const sync = await providerLib.runSync(FLUX, { prompt: "a fox", width: 512, height: 512 }, api);
      const submitted = await providerLib.run(FLUX, { prompt: "a fox" }, api);
      const status = await providerLib.getJobStatus(FLUX, submitted.id, api);
      const done = await providerLib.waitForJob(FLUX, submitted.id, { ...api, pollIntervalMs: 100 });
      expect([sync.status, status.status, done.status]).toEqual(["COMPLETED", "IN_QUEUE", "COMPLETED"]);
    },
  },

  // ---------------------------------------------------------------- the CLI binary
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

  // ---------------------------------------------------------------- raw requests: routes nothing above calls
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
    name: "logs: a pod's and a worker's, as server-sent events",
    via: "raw",
    operations: [
      "createPod",
      "podAction",
      "getPodLogs",
      "createEndpoint",
      "listEndpointWorkers",
      "listEndpointReleases",
      "getWorkerLogs",
      "deleteEndpoint",
    ],
    async run(ctx) {
      const pod = await ctx.raw("base", "POST", "/v2/pods", {
        body: { name: "conformance-logs", image: "img:1", gpu: { id: A40 }, dataCenterIds: ["US-KS-2"] },
      });
      ctx.emu.control.advance(60_000);
      // A terminated pod's stream sends its last lines and ends.
      await ctx.raw("base", "POST", `/v2/pods/${idOf(pod)}/action`, { body: { action: "terminate" } });
      const podLogs = await ctx.raw("base", "GET", `/v2/pods/${idOf(pod)}/logs?tail=10&source=container`);
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
      const workers = await ctx.raw("base", "GET", `/v2/serverless/${idOf(endpoint)}/workers`);
      const releases = await ctx.raw("base", "GET", `/v2/serverless/${idOf(endpoint)}/releases`);
      const worker = (fields(workers).workers as { id: string }[])[0]?.id ?? "none";
      // A worker's stream stays open until its endpoint is deleted.
      const workerLogs = await ctx.open(
        "base",
        `/v2/serverless/${idOf(endpoint)}/workers/${worker}/logs?tail=0`,
      );
      await ctx.raw("base", "DELETE", `/v2/serverless/${idOf(endpoint)}`);
      await workerLogs.body;
      expect([podLogs.status, workers.status, releases.status, workerLogs.status]).toEqual([
        200, 200, 200, 200,
      ]);
    },
  },
  {
    name: "serverless, registries, clusters and billing routes nothing above calls",
    via: "raw",
    operations: [
      "listEndpoints",
      "listRegistries",
      "listDelegations",
      "createDelegation",
      "revokeDelegation",
      "listClusters",
      "listBilling",
      "listEndpointBilling",
      "listClusterBilling",
      "listPodBilling",
    ],
    async run(ctx) {
      const delegation = await ctx.raw("base", "POST", "/v2/registries/delegations", {
        body: {
          resource: "arn:aws:ecr:us-east-2:418399314813:repository/runpod/deployment",
          name: "conformance",
        },
      });
      const answers = await Promise.all([
        ctx.raw("base", "GET", "/v2/serverless"),
        ctx.raw("base", "GET", "/v2/registries"),
        ctx.raw("base", "GET", "/v2/registries/delegations"),
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
      const revoked = await ctx.raw("base", "DELETE", `/v2/registries/delegations/${idOf(delegation)}`);
      expect([delegation.status, ...answers.map((a) => a.status), revoked.status]).toEqual([
        201, 200, 200, 200, 200, 200, 200, 200, 200, 204,
      ]);
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
