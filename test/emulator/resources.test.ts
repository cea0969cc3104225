/** Catalog, SSH keys, templates and network volumes. */
import { describe, expect, it } from "vitest";
import {
  type Api,
  emulatorLib,
  frozenEmulator,
  frozenEmulatorForEachTest,
  type RunningEmulator,
  rejection,
} from "../support/emulator.js";
import { raw } from "../support/http.js";

let emu: RunningEmulator;
let api: Api;
frozenEmulatorForEachTest({}, (t) => {
  ({ emu, api } = t);
});

describe("catalog", () => {
  it("reports GPU stock per data center, with CUDA versions, when asked with a product", async () => {
    const gpus = await api.catalog.gpuTypes({ include: ["AVAILABILITY"], product: ["POD"] });
    const a40 = gpus.find((g) => g.id === "NVIDIA A40");
    expect([a40?.availability, a40?.dataCenters, a40?.cudaVersions]).toEqual([
      "HIGH",
      [
        { id: "US-TX-3", name: "Texas 3", availability: "NONE" },
        { id: "US-KS-2", name: "Kansas 2", availability: "MEDIUM" },
        { id: "EU-RO-1", name: "Romania 1", availability: "HIGH" },
      ],
      [
        { version: "12.4", available: true },
        { version: "12.2", available: true },
      ],
    ]);
    const plain = await api.catalog.gpuTypes();
    expect([plain.length, plain[0]?.availability, plain[0]?.dataCenters]).toEqual([9, undefined, undefined]);
  });

  it("refuses include=AVAILABILITY without a product", async () => {
    const err = await rejection(api.catalog.gpuTypes({ include: ["AVAILABILITY"] }));
    expect(err.status).toBe(400);
    expect(err.detail).toBe(
      "include=AVAILABILITY requires product (POD, CLUSTER or SERVERLESS): stock differs by product.",
    );
    const one = await raw(`${emu.baseUrl}/v2/catalog/gpus/NVIDIA%20A40?include=AVAILABILITY`);
    const unknown = await raw(`${emu.baseUrl}/v2/catalog/gpus/NOPE?include=AVAILABILITY`);
    expect([one.status, unknown.status, unknown.body.detail]).toEqual([
      400,
      404,
      "GPU type 'NOPE' was not found.",
    ]);
  });

  it("reads include, product and cudaVersions given as a list or repeated", async () => {
    const url = `${emu.baseUrl}/v2/catalog/gpus`;
    const listed = await raw(`${url}?include=AVAILABILITY&product=POD&cudaVersions=12.11,12.9`);
    const repeated = await raw(
      `${url}?include=AVAILABILITY&product=POD&cudaVersions=12.11&cudaVersions=12.9`,
    );
    const ids = (res: Awaited<ReturnType<typeof raw>>) =>
      (res.body.gpus as { id: string }[]).map((g) => g.id);
    expect([ids(listed), ids(repeated)]).toEqual([["NVIDIA A100 80GB PCIe"], ["NVIDIA A100 80GB PCIe"]]);
  });

  it("filters data centers by region and adds GPU availability on request", async () => {
    const dcs = await api.catalog.dataCenters({ regions: ["EUROPE"], include: ["GPU_AVAILABILITY"] });
    expect(dcs.map((d) => [d.id, d.region, d.globalNetwork, d.gpuAvailability?.length])).toEqual([
      ["EU-RO-1", "EUROPE", true, 3],
      ["EU-SE-1", "EUROPE", false, 2],
      ["EUR-IS-1", "EUROPE", false, 2],
    ]);
    const global = await api.catalog.dataCenters({ globalNetwork: true });
    expect(global.map((d) => d.id)).toEqual(["US-TX-3", "US-KS-2", "CA-MTL-1", "EU-RO-1"]);
  });

  it("follows real stock, unless the catalog level is overridden", async () => {
    emu.control.setCapacity({
      dataCenterId: "EU-RO-1",
      gpuTypeId: "NVIDIA A40",
      free: 0,
      availability: "HIGH",
    });
    const [ro] = await api.catalog.dataCenters({ regions: ["EUROPE"], include: ["GPU_AVAILABILITY"] });
    const err = await rejection(
      api.pods.create({ name: "p", image: "i", gpu: { id: "NVIDIA A40" }, dataCenterIds: ["EU-RO-1"] }),
    );
    expect([ro?.gpuAvailability?.find((g) => g.id === "NVIDIA A40")?.availability, err.status]).toEqual([
      "HIGH",
      400,
    ]);
    expect(err.detail).toBe(
      "There are no longer any instances available with the requested specifications. Please refresh and try again.",
    );
  });

  it("lists CPU flavors with their vCPU range and RAM multiplier", async () => {
    const cpus = await api.catalog.cpuFlavors();
    expect(cpus.map((c) => [c.id, c.vcpu.min, c.vcpu.max, c.ramGbPerVcpu])).toEqual([
      ["cpu3c", 2, 32, 2],
      ["cpu3g", 2, 32, 4],
      ["cpu3m", 2, 16, 8],
      ["cpu5c", 2, 64, 2],
      ["cpu5g", 4, 64, 4],
    ]);
  });

  it("lists public templates by source, one of them serverless", async () => {
    const official = await api.catalog.publicTemplates();
    expect(official.map((t) => [t.id, t.serverless, t.registry])).toEqual([
      ["runpod-torch-v240", false, null],
      ["runpod-ubuntu-cpu", false, null],
      ["runpod-worker-sdxl", true, null],
    ]);
    expect((await api.catalog.publicTemplates({ source: "community" })).map((t) => t.id)).toEqual([
      "comfyui-community",
    ]);
  });
});

describe("account SSH keys", () => {
  const k1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA1 one@example";
  const k2 = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAI two";

  it("replaces the whole set on PUT", async () => {
    await api.sshKeys.put([k1, k2]);
    await api.sshKeys.put([k2]);
    expect(await api.sshKeys.get()).toEqual([k2]);
    await api.sshKeys.put([]);
    expect(await api.sshKeys.get()).toEqual([]);
  });

  it("rejects a line that is not an authorized_keys entry with 422", async () => {
    const res = await raw(`${emu.baseUrl}/v2/account/ssh-keys`, {
      method: "PUT",
      body: JSON.stringify({ keys: ["-----BEGIN OPENSSH PRIVATE KEY-----"] }),
    });
    expect([res.status, (res.body.errors as string[])[0]]).toEqual([
      422,
      "$.keys[0]: must be an authorized_keys line: <type> <base64> [comment]",
    ]);
  });
});

describe("templates", () => {
  it("creates, reads, updates and deletes the account's templates; public ones are read-only", async () => {
    const t = await api.templates.create({ name: "mine", image: "img:1", ports: ["22/tcp"] });
    expect([t.startSsh, t.startJupyter, t.category, t.public, t.serverless]).toEqual([
      true,
      true,
      "NVIDIA",
      false,
      false,
    ]);
    const updated = await api.templates.update(t.id, { image: "img:2", env: { A: "1" } });
    expect([updated.image, updated.env, (await api.templates.list()).length]).toEqual([
      "img:2",
      { A: "1" },
      1,
    ]);
    const publicRead = await api.templates.get("runpod-torch-v240");
    const publicEdit = await rejection(api.templates.update("runpod-torch-v240", { name: "x" }));
    await api.templates.delete(t.id);
    expect([publicRead.name, publicEdit.status, (await rejection(api.templates.get(t.id))).status]).toEqual([
      "Runpod Pytorch 2.4.0",
      404,
      404,
    ]);
  });
});

describe("seeded templates", () => {
  const DEFAULTS = {
    args: "",
    disk: 20,
    mounts: {},
    ports: [],
    env: {},
    registry: null,
    serverless: false,
    public: true,
    category: "NVIDIA",
    startSsh: true,
    startJupyter: false,
    allowedCudaVersions: [],
    readme: "",
  };

  it("fill every field a seed file leaves out with the default seed's template defaults", async () => {
    const seeded = await frozenEmulator({
      seed: { templates: [{ id: "bare", source: "official", image: "img:1" }] },
    });
    try {
      const bare = await seeded.api.templates.get("bare");
      expect(bare).toEqual({ id: "bare", name: "bare", image: "img:1", ...DEFAULTS });
      // startSsh takes effect: the registered keys reach a pod created from the template.
      const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemo demo@example";
      await seeded.api.sshKeys.put([key]);
      const pod = await seeded.api.pods.create({ name: "p", templateId: "bare", gpu: { id: "NVIDIA A40" } });
      expect([pod.env.PUBLIC_KEY, pod.env.JUPYTER_PASSWORD]).toEqual([key, undefined]);
    } finally {
      await seeded.emu.close();
    }
  });

  it("are the same defaults the default seed's own templates get", async () => {
    const ubuntu = await api.templates.get("runpod-ubuntu-cpu");
    expect(ubuntu).toEqual({
      ...DEFAULTS,
      id: "runpod-ubuntu-cpu",
      name: "Runpod Ubuntu (CPU)",
      image: "runpod/base:0.6.2-cpu",
      ports: ["22/tcp"],
      disk: 10,
      category: "CPU",
      readme: "Ubuntu 22.04 with sshd, for CPU pods.",
    });
  });

  it("refuse a seed template field of the wrong type", async () => {
    await expect(
      emulatorLib.startEmulator({
        // What a JSON seed file can hold, whatever the type says.
        seed: { templates: [{ id: "odd", source: "official", startSsh: "yes" as unknown as boolean }] },
      }),
    ).rejects.toThrow(/startSsh/);
  });
});

describe("network volumes", () => {
  it("grows, refuses to shrink or an empty change, and keeps the data center", async () => {
    const v = await api.networkVolumes.create({ name: "data", size: 20, dataCenter: "US-KS-2" });
    const grown = await api.networkVolumes.update(v.id, { size: 40 });
    const shrink = await rejection(api.networkVolumes.update(v.id, { size: 30 }));
    const empty = await rejection(api.networkVolumes.update(v.id, {}));
    expect([v.type, grown.size, shrink.detail, empty.detail]).toEqual([
      "STANDARD",
      40,
      "size can only grow: the volume has 40 GB, the request asks for 30 GB.",
      "The PATCH body is empty; send name and/or size.",
    ]);
  });

  it.each([
    [{ name: "x", size: 20, dataCenter: "OC-AU-1" }, "Data center OC-AU-1 does not offer network volumes."],
    [
      { name: "x", size: 20, dataCenter: "US-KS-2", type: "HIGH_PERFORMANCE" as const },
      "Data center US-KS-2 does not offer HIGH_PERFORMANCE volumes (offers STANDARD).",
    ],
    [
      { name: "x", size: 20, dataCenter: "NOPE" },
      "dataCenter 'NOPE' is not a data center; see GET /v2/catalog/datacenters.",
    ],
  ])("refuses %j", async (body, detail) => {
    expect((await rejection(api.networkVolumes.create(body))).detail).toBe(detail);
  });

  it("refuses to delete a volume a pod still mounts", async () => {
    const pod = await api.pods.create({
      name: "p",
      image: "i",
      gpu: { id: "NVIDIA H100 80GB HBM3" },
      mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d" }] },
    });
    const busy = await rejection(api.networkVolumes.delete("nv-tx3-datasets"));
    await api.pods.delete(pod.id);
    emu.control.advance(1000);
    await api.networkVolumes.delete("nv-tx3-datasets");
    expect([busy.status, (await api.networkVolumes.list()).map((v) => v.id)]).toEqual([
      409,
      ["nv-ro1-models"],
    ]);
  });
});
