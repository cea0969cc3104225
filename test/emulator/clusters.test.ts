/**
 * Instant clusters under base_url (`/v2/clusters`), over raw HTTP on a frozen clock: create (2 to
 * 250 pods of one GPU shape in one data center), member pods in the pod store, rename, delete
 * with a grace period, and the seeded Ray cluster.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem } from "../support/http.js";

const H100 = "NVIDIA H100 80GB HBM3";
const A40 = "NVIDIA A40";
const ID = /^[a-z0-9]{14}$/;

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

type Body = Record<string, unknown>;
const iso = (offset = 0) => new Date(h.t0 + offset).toISOString();
const body = (over: Body = {}): Body => ({
  name: "trainer",
  type: "SLURM",
  compute: { gpuTypeId: A40, gpuCountPerPod: 2, podCount: 3 },
  image: "acme/train:1",
  ports: ["22/tcp"],
  dataCenterIds: ["US-KS-2"],
  ...over,
});
const create = (over: Body = {}) => c.ok(c.post("base", "/v2/clusters", body(over)));
const getCluster = (id: string) => c.ok(c.get("base", `/v2/clusters/${id}`));
const members = async (id: string) => (await c.ok(c.get("base", `/v2/clusters/${id}/pods`))).pods;

describe("POST /v2/clusters", () => {
  it("answers 201 with the cluster; members follow the pod lifecycle and get rank, role and overlay IP", async () => {
    const res = await c.post("base", "/v2/clusters", body());
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(id).toMatch(ID);
    const shape = {
      id,
      name: "trainer",
      type: "SLURM",
      compute: { gpuTypeId: A40, gpuCountPerPod: 2, podCount: 3 },
      dataCenterId: "US-KS-2",
      createdAt: iso(),
    };
    // No overlay network and no primary until the members are placed.
    expect(res.body).toEqual({ ...shape, pods: { total: 3, byStatus: { PROVISIONING: 3 } } });
    const provisioning = await members(id);
    expect(provisioning.map((p: Body) => [p.name, p.status, p.cluster])).toEqual([
      ["trainer-node-0", "PROVISIONING", { id, rank: null, role: "SLURM_CONTROLLER" }],
      ["trainer-node-1", "PROVISIONING", { id, rank: null, role: "SLURM_COMPUTE" }],
      ["trainer-node-2", "PROVISIONING", { id, rank: null, role: "SLURM_COMPUTE" }],
    ]);
    h.emu.control.advance(2000);
    const starting = await getCluster(id);
    const primary = provisioning[0].id;
    expect(starting).toEqual({
      ...shape,
      pods: { total: 3, byStatus: { STARTING: 3 } },
      network: { cidr: "10.65.0.0/16", vxlanId: starting.network.vxlanId, vxlanPort: 4789 },
      primary: { podId: primary, status: "STARTING" },
    });
    expect((await members(id)).map((p: Body) => p.cluster)).toEqual([
      { id, rank: 0, role: "SLURM_CONTROLLER", ip: "10.65.0.2" },
      { id, rank: 1, role: "SLURM_COMPUTE", ip: "10.65.0.3" },
      { id, rank: 2, role: "SLURM_COMPUTE", ip: "10.65.0.4" },
    ]);
    // RUNNING after 3 s, the primary's public SSH port some seconds later.
    h.emu.control.advance(3000 + h.emu.state.settings.portMappingMs);
    const running = await getCluster(id);
    const node0 = (await members(id))[0];
    expect([running.pods, running.primary]).toEqual([
      { total: 3, byStatus: { RUNNING: 3 } },
      { podId: primary, status: "RUNNING", sshEndpoint: `${node0.ssh.direct.host}:${node0.ssh.direct.port}` },
    ]);
    expect([node0.gpu, node0.cost, node0.image]).toEqual([
      { id: A40, count: 2, vcpuCount: 18, memory: 100 },
      0.88,
      "acme/train:1",
    ]);
  });

  it("takes the GPUs of the whole cluster from one data center's stock", async () => {
    h.emu.control.setCapacity({ dataCenterId: "US-KS-2", gpuTypeId: A40, free: 6 });
    await create();
    const dc = (await c.ok(c.get("base", "/v2/catalog/datacenters/US-KS-2?include=GPU_AVAILABILITY")))
      .gpuAvailability;
    expect(dc.find((g: Body) => g.id === A40).availability).toBe("NONE");
    expect(await problem(c.post("base", "/v2/clusters", body()))).toEqual({
      status: 400,
      detail:
        "There are no longer any instances available with the requested specifications. Please refresh and try again.",
      errors: [],
    });
  });

  it("lists members with GET /v2/pods only with includeClusterPods, and refuses pod changes to them", async () => {
    const cluster = await create({ type: "TRAINING" });
    const podIds = (await members(cluster.id)).map((p: Body) => p.id);
    const plain = (await c.ok(c.get("base", "/v2/pods"))).pods.map((p: Body) => p.id);
    const all = (await c.ok(c.get("base", "/v2/pods?includeClusterPods=true"))).pods.map((p: Body) => p.id);
    expect([
      plain.some((id: string) => podIds.includes(id)),
      podIds.every((id: string) => all.includes(id)),
    ]).toEqual([false, true]);
    // TRAINING members have no role.
    expect((await members(cluster.id))[0].cluster).toEqual({ id: cluster.id, rank: null });
    const target = podIds[0];
    for (const [method, path, payload] of [
      ["PATCH", `/v2/pods/${target}`, { name: "x" }],
      ["DELETE", `/v2/pods/${target}`, undefined],
      ["POST", `/v2/pods/${target}/action`, { action: "stop" }],
    ] as const) {
      expect(await problem(c.call(method, "base", path, payload))).toMatchObject({ status: 409 });
    }
  });

  it.each<[string, Body, string[]]>([
    [
      "one pod",
      { compute: { gpuTypeId: A40, gpuCountPerPod: 1, podCount: 1 } },
      ["$.compute.podCount: expected number >= 2"],
    ],
    [
      "251 pods",
      { compute: { gpuTypeId: A40, gpuCountPerPod: 1, podCount: 251 } },
      ["$.compute.podCount: expected number <= 250"],
    ],
    [
      "an unknown type",
      { type: "K8S" },
      ['$.type: expected one of "APPLICATION", "TRAINING", "SLURM", "RAY"'],
    ],
    [
      "a registry (clusters take none)",
      { registry: null },
      ["$: additional properties 'registry' not allowed"],
    ],
    [
      "a templateId (spread the template instead)",
      { templateId: "runpod-torch-v240" },
      ["$: additional properties 'templateId' not allowed"],
    ],
    ["no compute", { compute: undefined }, ["$.compute: required property is missing"]],
  ])("answers 422 for %s", async (_name, over, errors) => {
    expect(await problem(c.post("base", "/v2/clusters", body(over)))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors,
    });
  });

  it.each<[string, Body, number, string]>([
    [
      "no image",
      { image: undefined },
      400,
      "image is required: clusters take no templateId; spread a template's container settings into the body.",
    ],
    [
      "an unknown GPU type",
      { compute: { gpuTypeId: "NVIDIA Z1", gpuCountPerPod: 1, podCount: 2 } },
      400,
      "compute.gpuTypeId 'NVIDIA Z1' is not a GPU type; see GET /v2/catalog/gpus.",
    ],
    [
      "more GPUs per pod than the type allows",
      { compute: { gpuTypeId: A40, gpuCountPerPod: 9, podCount: 2 } },
      400,
      "compute.gpuCountPerPod 9 exceeds the maximum of 8 NVIDIA A40 per pod.",
    ],
    [
      "a persistent mount with a network volume",
      {
        mounts: {
          persistent: { size: 20, path: "/w" },
          network: [{ volumeId: "nv-tx3-datasets", path: "/d" }],
        },
      },
      400,
      "mounts.persistent cannot be combined with mounts.network or mounts.global.",
    ],
    [
      "a network volume in another data center",
      { mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d" }] } },
      400,
      "Network volume 'nv-tx3-datasets' is in US-TX-3; the cluster must be placed in the same data center.",
    ],
    [
      "an unknown data center",
      { dataCenterIds: ["MARS-1"] },
      400,
      "dataCenterIds: 'MARS-1' is not a data center; see GET /v2/catalog/datacenters.",
    ],
  ])("refuses %s", async (_name, over, status, detail) => {
    expect(await problem(c.post("base", "/v2/clusters", body(over)))).toEqual({ status, detail, errors: [] });
    expect((await c.ok(c.get("base", "/v2/clusters"))).clusters.map((x: Body) => x.id)).toEqual([
      "clu-demo-ray",
    ]);
  });

  it("answers 402 when the balance is exhausted and 403 for a pool the key cannot use", async () => {
    h.emu.control.setSettings({ balanceExhausted: true });
    expect((await c.post("base", "/v2/clusters", body())).status).toBe(402);
    h.emu.control.setSettings({ balanceExhausted: false });
    const limited = await c.call(
      "POST",
      "base",
      "/v2/clusters",
      body({ compute: { gpuTypeId: H100, gpuCountPerPod: 1, podCount: 2 }, dataCenterIds: [] }),
      {
        key: "rpa_EMULATOR_LIMITED_KEY_000000000000",
      },
    );
    expect(limited.status).toBe(403);
  });
});

describe("GET, PATCH and DELETE /v2/clusters/{id}", () => {
  it("lists the seeded Ray cluster with its running members", async () => {
    const { clusters } = await c.ok(c.get("base", "/v2/clusters"));
    expect(clusters).toEqual([
      {
        id: "clu-demo-ray",
        name: "clu-demo-ray",
        type: "RAY",
        compute: { gpuTypeId: H100, gpuCountPerPod: 8, podCount: 2 },
        dataCenterId: "US-TX-3",
        pods: { total: 2, byStatus: { RUNNING: 2 } },
        network: { cidr: "10.65.0.0/16", vxlanId: clusters[0].network.vxlanId, vxlanPort: 4789 },
        primary: { podId: "clu-demo-ray-node0", status: "RUNNING", sshEndpoint: "127.0.0.1:20000" },
        createdAt: clusters[0].createdAt,
      },
    ]);
  });

  it("renames, and only renames", async () => {
    const cluster = await create();
    const renamed = await c.ok(c.patch("base", `/v2/clusters/${cluster.id}`, { name: "renamed" }));
    expect(renamed).toEqual({ ...cluster, name: "renamed" });
    expect(await problem(c.patch("base", `/v2/clusters/${cluster.id}`, {}))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ["$: expected at least 1 property"],
    });
    expect(await problem(c.patch("base", `/v2/clusters/${cluster.id}`, { image: "x" }))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ["$: additional properties 'image' not allowed"],
    });
  });

  it("deletes: members TERMINATED and capacity back, the cluster readable for the grace period, then 404", async () => {
    h.emu.control.setCapacity({ dataCenterId: "US-KS-2", gpuTypeId: A40, free: 6 });
    const cluster = await create();
    h.emu.control.advance(5000);
    expect((await c.del("base", `/v2/clusters/${cluster.id}`)).status).toBe(204);
    const deleted = await getCluster(cluster.id);
    expect(deleted.pods).toEqual({ total: 3, byStatus: { TERMINATED: 3 } });
    expect((await c.ok(c.get("base", "/v2/clusters"))).clusters.map((x: Body) => x.id)).toEqual([
      "clu-demo-ray",
    ]);
    expect(await problem(c.del("base", `/v2/clusters/${cluster.id}`))).toEqual({
      status: 404,
      detail: `Cluster '${cluster.id}' was deleted.`,
      errors: [],
    });
    // The GPUs are free again: the same cluster fits.
    await create({ name: "again" });
    h.emu.control.advance(1000); // settings.terminatingMs
    expect(await problem(c.get("base", `/v2/clusters/${cluster.id}`))).toEqual({
      status: 404,
      detail: `Cluster '${cluster.id}' was not found.`,
      errors: [],
    });
    expect((await c.get("base", `/v2/clusters/${cluster.id}/pods`)).status).toBe(404);
  });

  it("answers 404 for an unknown cluster on every route", async () => {
    for (const [method, path, payload] of [
      ["GET", "/v2/clusters/nope", undefined],
      ["PATCH", "/v2/clusters/nope", { name: "x" }],
      ["DELETE", "/v2/clusters/nope", undefined],
      ["GET", "/v2/clusters/nope/pods", undefined],
    ] as const) {
      expect(await problem(c.call(method, "base", path, payload))).toEqual({
        status: 404,
        detail: "Cluster 'nope' was not found.",
        errors: [],
      });
    }
  });
});
