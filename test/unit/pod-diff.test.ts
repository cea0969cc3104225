/** `diff` for Pod: the replace/update table, row by row. Pure and offline. */
import { describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import { loadDist } from "../support/dist.js";
import { reviewLib } from "../support/provider.js";

const { UNKNOWN } = reviewLib;
const { diffPod } = loadDist<typeof import("../../provider/resources/pod/diff.js")>(
  "provider/resources/pod/diff.js",
);
const A40 = "NVIDIA A40";

const olds: PodOutputs = {
  name: "p",
  status: "RUNNING",
  actions: ["stop", "restart", "terminate"],
  image: "img:1",
  args: "python train.py",
  cmd: ["python", "train.py"],
  entrypoint: [],
  disk: 20,
  env: { A: "1" },
  ports: ["22/tcp"],
  registry: null,
  mounts: { network: [{ volumeId: "nv1", path: "/data" }], global: [{ volumeId: "gv1", path: "/global" }] },
  gpu: {
    id: A40,
    count: 1,
    vcpuCount: 9,
    memory: 50,
    allowedCudaVersions: null,
    minCudaVersion: "12.2",
    minRamPerGpu: null,
    minVcpuCountPerGpu: null,
  },
  cpu: null,
  cloud: "SECURE",
  dataCenterId: "US-KS-2",
  dataCenterIds: ["US-KS-2", "EU-RO-1"],
  cudaVersion: "12.4",
  ssh: { proxy: null, direct: null },
  cluster: null,
  template: null,
  templateId: null,
  cost: 0.44,
  locked: false,
  desiredStatus: "RUNNING",
  stoppedOutside: false,
  autostop: null,
  globalNetworking: { enabled: false, ip: null, internalDns: null },
  requestedGlobalNetworking: false,
  runtime: { uptime: 5 },
  createdAt: "2026-11-21T00:00:00Z",
  startedAt: "2026-11-21T00:00:05Z",
  startSsh: true,
  startJupyter: false,
  jupyterPassword: null,
  placement: null,
  requestedGpuId: A40,
  timeouts: null,
};

const news: PodInputs = {
  name: "p",
  image: "img:1",
  args: "python train.py",
  disk: 20,
  env: { A: "1" },
  ports: ["22/tcp"],
  mounts: { network: [{ volumeId: "nv1", path: "/data" }], global: [{ volumeId: "gv1" }] },
  gpu: { id: A40, minCudaVersion: "12.2" },
  dataCenterIds: ["US-KS-2", "EU-RO-1"],
  startSsh: true,
};

const row = (change: Partial<Record<keyof PodInputs, unknown>>, oldChange: Partial<PodOutputs> = {}) => {
  const d = diffPod({ ...olds, ...oldChange }, { ...news, ...change } as PodInputs);
  return { replaces: d.replaces, updates: d.updates, changes: d.changes };
};

describe("no change", () => {
  it.each([
    ["identical inputs (the global mount path left to the service's default)", {}, {}],
    [
      "volatile outputs moved",
      {},
      {
        status: "STARTING",
        runtime: null,
        cost: 0.5,
        ssh: { proxy: null, direct: null },
        startedAt: null,
        actions: [],
      } as Partial<PodOutputs>,
    ],
    ["the same command as cmd", { args: undefined, cmd: ["python", "train.py"] }, {}],
    ["key order in env", { env: { A: "1" } }, {}],
    [
      "omitted image, disk, ports, registry (no opinion)",
      { image: undefined, disk: undefined, ports: undefined },
      {},
    ],
    ["a data center still in the list", { dataCenterIds: ["EU-RO-1", "US-KS-2"] }, {}],
    ["an empty data-center list", { dataCenterIds: [] }, {}],
    [
      "placement options alone",
      { placement: { regions: ["EUROPE"] }, timeouts: { create: 900 }, waitFor: "PLACED" },
      {},
    ],
    [
      "placement landed on a fallback GPU (the requested one is unchanged)",
      {},
      { gpu: { ...olds.gpu, id: "NVIDIA L40S" } as PodOutputs["gpu"], requestedGpuId: A40 },
    ],
    [
      "new placement candidates (placement is create-time only)",
      { placement: { candidates: [{ dataCenterId: "EU-RO-1" }] } },
      {},
    ],
    [
      "a provider upgrade that added outputs",
      {},
      { jupyterPassword: undefined, requestedGlobalNetworking: undefined } as unknown as Partial<PodOutputs>,
    ],
  ])("%s", (_name, change, oldChange) => {
    expect(row(change, oldChange)).toEqual({ replaces: [], updates: [], changes: false });
  });
});

describe("update in place", () => {
  it.each([
    ["name", { name: "q" }, ["name"]],
    ["image", { image: "img:2" }, ["image"]],
    ["args", { args: "python eval.py" }, ["args"]],
    ["cmd", { args: undefined, cmd: ["python", "eval.py"] }, ["args"]],
    ["entrypoint", { args: undefined, entrypoint: ["bash", "-lc"] }, ["args"]],
    ["disk", { disk: 40 }, ["disk"]],
    ["an env value", { env: { A: "2" } }, ["env"]],
    ["an env key added", { env: { A: "1", B: "2" } }, ["env"]],
    ["env removed", { env: undefined }, ["env"]],
    ["ports", { ports: ["22/tcp", "8888/http"] }, ["ports"]],
    ["ports cleared", { ports: [] }, ["ports"]],
    ["registry", { registry: "creds-1" }, ["registry"]],
    ["locked", { locked: true }, ["locked"]],
    ["parked", { desiredStatus: "STOPPED" }, ["desiredStatus"]],
    ["globalNetworking", { globalNetworking: true }, ["globalNetworking"]],
    [
      "a network mount path",
      { mounts: { network: [{ volumeId: "nv1", path: "/mnt" }], global: [{ volumeId: "gv1" }] } },
      ["mounts.network[0].path"],
    ],
    [
      "a global mount path",
      {
        mounts: {
          network: [{ volumeId: "nv1", path: "/data" }],
          global: [{ volumeId: "gv1", path: "/cache" }],
        },
      },
      ["mounts.global[0].path"],
    ],
    ["an unknown image (preview)", { image: UNKNOWN }, ["image"]],
  ])("%s", (_name, change, updates) => {
    expect(row(change)).toEqual({ replaces: [], updates, changes: true });
  });

  it("does not update globalNetworking again while the change waits for the next start", () => {
    expect(row({ globalNetworking: true }, { requestedGlobalNetworking: true })).toEqual({
      replaces: [],
      updates: [],
      changes: false,
    });
  });

  it("persistent path changes in place, size replaces", () => {
    const persistent = { mounts: { persistent: { size: 20, path: "/w" } } } as Partial<PodOutputs>;
    expect(row({ mounts: { persistent: { size: 20, path: "/workspace" } } }, persistent).updates).toEqual([
      "mounts.persistent.path",
    ]);
    expect(row({ mounts: { persistent: { size: 30, path: "/w" } } }, persistent).replaces).toEqual([
      "mounts.persistent.size",
    ]);
  });
});

describe("replace", () => {
  it.each([
    ["gpu.id", { gpu: { id: "NVIDIA L40S", minCudaVersion: "12.2" } }, ["gpu.id"]],
    ["gpu.count", { gpu: { id: A40, count: 2, minCudaVersion: "12.2" } }, ["gpu.count"]],
    ["gpu.minCudaVersion", { gpu: { id: A40, minCudaVersion: "12.4" } }, ["gpu.minCudaVersion"]],
    [
      "gpu.allowedCudaVersions",
      { gpu: { id: A40, allowedCudaVersions: ["12.4"] } },
      ["gpu.allowedCudaVersions", "gpu.minCudaVersion"],
    ],
    [
      "gpu.minRamPerGpu",
      { gpu: { id: A40, minCudaVersion: "12.2", minRamPerGpu: 64 } },
      ["gpu.minRamPerGpu"],
    ],
    [
      "gpu.minVcpuCountPerGpu",
      { gpu: { id: A40, minCudaVersion: "12.2", minVcpuCountPerGpu: 8 } },
      ["gpu.minVcpuCountPerGpu"],
    ],
    ["gpu to cpu", { gpu: undefined, cpu: { id: "cpu3c", vcpuCount: 4 } }, ["cpu"]],
    ["cloud", { cloud: "COMMUNITY" }, ["cloud"]],
    ["templateId", { templateId: "tpl1" }, ["templateId"]],
    ["startSsh", { startSsh: false }, ["startSsh"]],
    ["startJupyter", { startJupyter: true }, ["startJupyter"]],
    ["a data center that no longer satisfies the list", { dataCenterIds: ["EU-RO-1"] }, ["dataCenterIds"]],
    [
      "a network volume id",
      { mounts: { network: [{ volumeId: "nv2", path: "/data" }], global: [{ volumeId: "gv1" }] } },
      ["mounts.network[0].volumeId"],
    ],
    [
      "a global volume id",
      { mounts: { network: [{ volumeId: "nv1", path: "/data" }], global: [{ volumeId: "gv2" }] } },
      ["mounts.global[0].volumeId"],
    ],
    [
      "a mount kind removed",
      { mounts: { network: [{ volumeId: "nv1", path: "/data" }] } },
      ["mounts.global"],
    ],
    [
      "a persistent mount added",
      {
        mounts: {
          persistent: { size: 20, path: "/w" },
          network: [{ volumeId: "nv1", path: "/data" }],
          global: [{ volumeId: "gv1" }],
        },
      },
      ["mounts.persistent"],
    ],
    ["an unknown gpu (preview)", { gpu: UNKNOWN }, ["gpu"]],
    ["an unknown data-center list (preview)", { dataCenterIds: UNKNOWN }, ["dataCenterIds"]],
  ])("%s", (_name, change, replaces) => {
    const d = row(change);
    expect([d.replaces, d.changes]).toEqual([replaces, true]);
  });

  it("adds any mount to a pod created without one as a replacement", () => {
    const d = row({ mounts: { network: [{ volumeId: "nv1", path: "/d" }] } }, { mounts: {} });
    expect(d.replaces).toEqual(["mounts.network"]);
  });

  it("ignores a template's persistent mount the program never declared", () => {
    const d = diffPod(
      { ...olds, templateId: "tpl", mounts: { persistent: { size: 20, path: "/workspace" } } },
      { ...news, templateId: "tpl", mounts: undefined } as PodInputs,
    );
    expect([d.replaces, d.updates]).toEqual([[], []]);
  });

  it("never asks to delete before replacing (the new pod comes up first)", () => {
    expect(diffPod(olds, { ...news, cloud: "COMMUNITY" }).deleteBeforeReplace).toBe(false);
  });
});
