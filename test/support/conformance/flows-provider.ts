/**
 * Conformance flows through the real provider, in-process: every resource's lifecycle, then the
 * catalog and job functions programs call.
 */
import { expect } from "vitest";
import type { ClusterInputs, ClusterOutputs } from "../../../provider/resources/cluster/types.js";
import type {
  NetworkVolumeInputs,
  NetworkVolumeOutputs,
} from "../../../provider/resources/network-volume/types.js";
import type { PodInputs, PodOutputs } from "../../../provider/resources/pod/types.js";
import type { RegistryOutputs } from "../../../provider/resources/registry/types.js";
import type { SecretInputs, SecretOutputs } from "../../../provider/resources/secret/types.js";
import type {
  ServerlessEndpointInputs,
  ServerlessEndpointOutputs,
} from "../../../provider/resources/serverless-endpoint/types.js";
import type { ServerlessJobOutputs } from "../../../provider/resources/serverless-job/types.js";
import type { SshKeyOutputs } from "../../../provider/resources/ssh-key/types.js";
import type { TemplateInputs, TemplateOutputs } from "../../../provider/resources/template/types.js";
import { providerLib } from "../provider.js";
import { A40, FLUX, type Flow, H100, L4, L40S, SSH_KEY } from "./flow.js";

export const PROVIDER_FLOWS: readonly Flow[] = [
  {
    name: "Pod: GPU pod on a placement candidate with a network volume; read; image and mount path change; delete",
    via: "provider",
    // listPods: a lone pod of a kind the host does not know is first read with the list (its kind
    // on the account says when it is due); getPodLogs: none of its kind is there, so its log says
    // when it starts.
    operations: [
      "createPod",
      "getNetworkVolume",
      "getPod",
      "getPodLogs",
      "listPods",
      "updatePod",
      "deletePod",
    ],
    async run(ctx) {
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
      const created = await ctx.providers.Pod.create(inputs);
      const outs = created.outs as PodOutputs;
      const read = await ctx.providers.Pod.read(created.id, outs);
      const updated = await ctx.providers.Pod.update(created.id, outs, {
        ...inputs,
        image: "img:2",
        mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] },
      });
      await ctx.providers.Pod.delete(created.id, updated.outs as PodOutputs);
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
    operations: [
      "listDataCenters",
      "listGpuTypes",
      "createPod",
      "getPod",
      "getPodLogs",
      "listPods",
      "updatePod",
      "deletePod",
    ],
    async run(ctx) {
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
      const created = await ctx.providers.Pod.create(inputs);
      const outs = created.outs as PodOutputs;
      const moved = await ctx.providers.Pod.update(created.id, outs, {
        ...inputs,
        mounts: { global: [{ volumeId: "gv-shared-cache", path: "/cache" }] },
        locked: false,
      });
      await ctx.providers.Pod.delete(created.id, moved.outs as PodOutputs);
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
    operations: ["listDataCenters", "createPod", "getPod", "getPodLogs", "listPods", "deletePod"],
    async run(ctx) {
      const created = await ctx.providers.Pod.create({
        name: "conformance-cpu",
        image: "runpod/base:0.6.2-cpu",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        ports: ["22/tcp"],
        startSsh: true,
        placement: { regions: ["NORTH_AMERICA"] },
      });
      await ctx.providers.Pod.delete(created.id, created.outs as PodOutputs);
      expect((created.outs as PodOutputs).cpu?.vcpuCount).toBe(4);
    },
  },
  {
    name: "Template: create, read, update, delete",
    via: "provider",
    operations: ["listTemplates", "createTemplate", "getTemplate", "updateTemplate", "deleteTemplate"],
    async run(ctx) {
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
      const created = await ctx.providers.Template.create(inputs);
      const outs = created.outs as TemplateOutputs;
      await ctx.providers.Template.read(created.id, outs);
      const updated = await ctx.providers.Template.update(created.id, outs, {
        ...inputs,
        image: "img:2",
        env: { MODEL: "big" },
      });
      await ctx.providers.Template.delete(created.id, updated.outs as TemplateOutputs);
      expect((updated.outs as TemplateOutputs).image).toBe("img:2");
    },
  },
  {
    name: "NetworkVolume: create, read, grow, delete",
    via: "provider",
    operations: [
      "listNetworkVolumes",
      "createNetworkVolume",
      "getNetworkVolume",
      "updateNetworkVolume",
      "deleteNetworkVolume",
    ],
    async run(ctx) {
      const inputs: NetworkVolumeInputs = { name: "conformance-volume", size: 20, dataCenterId: "EU-RO-1" };
      const created = await ctx.providers.NetworkVolume.create(inputs);
      const outs = created.outs as NetworkVolumeOutputs;
      await ctx.providers.NetworkVolume.read(created.id, outs);
      const grown = await ctx.providers.NetworkVolume.update(created.id, outs, { ...inputs, size: 40 });
      await ctx.providers.NetworkVolume.delete(created.id, grown.outs as NetworkVolumeOutputs);
      expect((grown.outs as NetworkVolumeOutputs).size).toBe(40);
    },
  },
  {
    name: "SshKey: register, read, delete",
    via: "provider",
    operations: ["getSshKeys", "updateSshKeys"],
    async run(ctx) {
      const created = await ctx.providers.SshKey.create({ publicKey: SSH_KEY });
      const outs = created.outs as SshKeyOutputs;
      const read = await ctx.providers.SshKey.read(created.id, outs);
      await ctx.providers.SshKey.delete(created.id, outs);
      expect(read.id).toBe(created.id);
    },
  },
  {
    name: "ServerlessEndpoint: create, read, update, delete",
    via: "provider",
    operations: ["listEndpoints", "createEndpoint", "getEndpoint", "updateEndpoint", "deleteEndpoint"],
    async run(ctx) {
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
      const created = await ctx.providers.ServerlessEndpoint.create(inputs);
      const outs = created.outs as ServerlessEndpointOutputs;
      await ctx.providers.ServerlessEndpoint.read(created.id, outs);
      const updated = await ctx.providers.ServerlessEndpoint.update(created.id, outs, {
        ...inputs,
        workers: { min: 0, max: 3, idleTimeout: 5 },
      });
      await ctx.providers.ServerlessEndpoint.delete(created.id, updated.outs as ServerlessEndpointOutputs);
      expect((updated.outs as ServerlessEndpointOutputs).workers).toEqual({ min: 0, max: 3, idleTimeout: 5 });
    },
  },
  {
    name: "Registry: create, read, delete",
    via: "provider",
    operations: ["createRegistry", "listRegistries", "getRegistry", "deleteRegistry"],
    async run(ctx) {
      const created = await ctx.providers.Registry.create({
        name: "conformance-registry",
        username: "me",
        password: "token",
      });
      const outs = created.outs as RegistryOutputs;
      const read = await ctx.providers.Registry.read(created.id, outs);
      await ctx.providers.Registry.delete(created.id, outs);
      expect(read.id).toBe(created.id);
    },
  },
  {
    name: "Secret: create, read, rotate with a new description, delete",
    via: "provider",
    operations: ["listSecrets", "createSecret", "getSecret", "updateSecret", "deleteSecret"],
    async run(ctx) {
      const inputs: SecretInputs = { name: "conformance-secret", value: "first", description: "one" };
      const created = await ctx.providers.Secret.create(inputs);
      const outs = created.outs as SecretOutputs;
      const read = await ctx.providers.Secret.read(created.id, outs);
      const checked = await ctx.providers.Secret.check(inputs, {
        ...inputs,
        value: "second",
        description: "two",
      });
      const rotated = await ctx.providers.Secret.update(created.id, outs, checked.inputs as SecretInputs);
      await ctx.providers.Secret.delete(created.id, rotated.outs as SecretOutputs);
      expect([read.id, (rotated.outs as SecretOutputs).description, checked.failures]).toEqual([
        created.id,
        "two",
        undefined,
      ]);
    },
  },
  {
    name: "Cluster: create, read, rename, delete",
    via: "provider",
    operations: [
      "listClusters",
      "createCluster",
      "getCluster",
      "listClusterPods",
      "listPods",
      "updateCluster",
      "deleteCluster",
    ],
    async run(ctx) {
      const inputs: ClusterInputs = {
        name: "conformance-cluster",
        type: "TRAINING",
        compute: { gpuTypeId: A40, gpuCountPerPod: 1, podCount: 2 },
        image: "img:1",
        ports: ["22/tcp"],
        dataCenterIds: ["US-KS-2"],
        startSsh: true,
      };
      const created = await ctx.providers.Cluster.create(inputs);
      const outs = created.outs as ClusterOutputs;
      await ctx.providers.Cluster.read(created.id, outs);
      const renamed = await ctx.providers.Cluster.update(created.id, outs, {
        ...inputs,
        name: "conformance-cluster-2",
      });
      await ctx.providers.Cluster.delete(created.id, renamed.outs as ClusterOutputs);
      expect((renamed.outs as ClusterOutputs).name).toBe("conformance-cluster-2");
    },
  },
  {
    name: "ServerlessJob: a job on a hosted model, run at create",
    via: "provider",
    operations: [],
    async run(ctx) {
      const created = await ctx.providers.ServerlessJob.create({
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
      const api = { api: ctx.api.jobs };
      const sync = await providerLib.runSync(FLUX, { prompt: "a fox", width: 512, height: 512 }, api);
      const submitted = await providerLib.run(FLUX, { prompt: "a fox" }, api);
      const status = await providerLib.getJobStatus(FLUX, submitted.id, api);
      const done = await providerLib.waitForJob(FLUX, submitted.id, { ...api, pollIntervalMs: 100 });
      expect([sync.status, status.status, done.status]).toEqual(["COMPLETED", "IN_QUEUE", "COMPLETED"]);
    },
  },
];
