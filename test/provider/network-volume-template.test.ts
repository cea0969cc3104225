/** NetworkVolume and Template providers against the emulator, in-process, on the emulator's clock. */
import { describe, expect, it } from "vitest";
import type {
  NetworkVolumeInputs,
  NetworkVolumeOutputs,
} from "../../provider/resources/network-volume/types.js";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import type { TemplateInputs, TemplateOutputs } from "../../provider/resources/template/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Volume: HostProviders["NetworkVolume"];
let Template: HostProviders["Template"];
let Pod: HostProviders["Pod"];
let Endpoint: HostProviders["ServerlessEndpoint"];
const A40 = "NVIDIA A40";

let emu: RunningEmulator;
let progress: string[];
// A fresh random seed per emulator: ids must not repeat across tests in one process.
freshEmulatorForEachTest({ firstSeed: 300, seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu, progress } = t);
  Volume = t.providers.NetworkVolume;
  Template = t.providers.Template;
  Pod = t.providers.Pod;
  Endpoint = t.providers.ServerlessEndpoint;
});

const volumeInputs = (extra: Partial<NetworkVolumeInputs> = {}): NetworkVolumeInputs => ({
  name: "datasets",
  size: 50,
  dataCenterId: "EU-RO-1",
  ...extra,
});
const templateInputs = (extra: Partial<TemplateInputs> = {}): TemplateInputs => ({
  name: "trainer",
  image: "img:1",
  cmd: ["python", "train.py"],
  env: { MODEL: "small" },
  ports: ["8888/http"],
  ...extra,
});
const podInputs = (extra: Partial<PodInputs> = {}): PodInputs => ({
  name: "trainer",
  image: "img:1",
  gpu: { id: A40 },
  ...extra,
});
const requests = (method: string, prefix: string) =>
  emu.control.requests().entries.filter((e) => e.method === method && e.path.startsWith(prefix));
const volumeIds = () => emu.control.snapshot().networkVolumes.map((v) => v.id);

/** Resolves once `condition` holds: waits on an event in the emulator, not on a fixed time. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error("condition never held");
}

const MOUNTED =
  /^NetworkVolume datasets: network volume (\w+) cannot be deleted while it is in use: Network volume '\1' is mounted by pod '\w+'; terminate the pod first\. \(still refused after waiting 60s\)\. Terminate the pod that mounts it, or point that pod \(or endpoint\) at another volume, then run destroy again\. In a Pulumi program, give the pod the volume's id as an Output \(mounts\.network: \[\{ volumeId: volume\.id, path \}\]\) or add dependsOn: \[volume\], so that destroy deletes the pod before the volume\.$/;

describe("NetworkVolume", () => {
  it("creates with the data center's default type and JSON-clean outputs", async () => {
    const res = await Volume.create(volumeInputs());
    const outs = { volumeId: res.id, name: "datasets", size: 50, dataCenterId: "EU-RO-1", type: "STANDARD" };
    expect([res.outs, progress]).toEqual([
      outs,
      [`runpod NetworkVolume datasets: created ${res.id} in EU-RO-1 (50 GB STANDARD)`],
    ]);
    // JSON-clean: a plain object with no key left undefined (toEqual would not see one).
    expect(res.outs).toStrictEqual(outs);
    expect(emu.control.snapshot().networkVolumes.find((v) => v.id === res.id)).toEqual({
      id: res.id,
      name: "datasets",
      size: 50,
      dataCenter: "EU-RO-1",
      type: "STANDARD",
    });
  });

  it("surfaces the API's refusal of a data center without volumes", async () => {
    const err = await thrown(Volume.create(volumeInputs({ dataCenterId: "OC-AU-1" })));
    expect(err.message).toMatch(
      /^NetworkVolume datasets: POST \/v2\/network-volumes: 400 Bad Request: Data center OC-AU-1 does not offer network volumes\./,
    );
  });

  it("grows and renames in place with one PATCH of only what changed", async () => {
    const res = await Volume.create(volumeInputs());
    const olds = res.outs as NetworkVolumeOutputs;
    const next = volumeInputs({ size: 200, name: "datasets-v2" });
    const diff = await Volume.diff(res.id, olds, next);
    const updated = await Volume.update(res.id, olds, next);
    expect([diff, updated.outs, requests("PATCH", "/v2/network-volumes/").length]).toEqual([
      { changes: true, replaces: [], updates: ["name", "size"], deleteBeforeReplace: false },
      { volumeId: res.id, name: "datasets-v2", size: 200, dataCenterId: "EU-RO-1", type: "STANDARD" },
      1,
    ]);
  });

  it("refuses a smaller size at check, naming the current size; a move to another data center may shrink", async () => {
    const res = await Volume.create(volumeInputs({ size: 100 }));
    const olds = (await Volume.read(res.id, res.outs as NetworkVolumeOutputs))
      .inputs as unknown as NetworkVolumeInputs;
    const shrink = await Volume.check(olds, volumeInputs({ size: 60 }));
    const moved = await Volume.check(olds, volumeInputs({ size: 60, dataCenterId: "US-KS-2" }));
    expect([shrink.failures, moved.failures]).toEqual([
      [
        {
          property: "size",
          reason:
            "can only grow: the volume has 100 GB and network volume storage cannot be reduced (the API answers 400). Keep size at 100 or more, or create a new NetworkVolume and copy the data",
        },
      ],
      undefined,
    ]);
  });

  it("update refuses to shrink without sending a PATCH (the backstop behind check)", async () => {
    const res = await Volume.create(volumeInputs({ size: 100 }));
    const err = await thrown(
      Volume.update(res.id, res.outs as NetworkVolumeOutputs, volumeInputs({ size: 60 })),
    );
    expect([err.message, requests("PATCH", "/v2/network-volumes/").length]).toEqual([
      `NetworkVolume datasets: volume ${res.id} has 100 GB; network volume storage cannot be reduced to 60 GB. Keep size at 100 or more, or create a new NetworkVolume and copy the data.`,
      0,
    ]);
  });

  it("replaces on a new data center or type; an unchanged program is no change", async () => {
    const res = await Volume.create(volumeInputs({ dataCenterId: "US-TX-3" }));
    const olds = res.outs as NetworkVolumeOutputs;
    expect([
      await Volume.diff(res.id, olds, volumeInputs({ dataCenterId: "US-TX-3" })),
      await Volume.diff(res.id, olds, volumeInputs({ dataCenterId: "EU-RO-1" })),
      await Volume.diff(res.id, olds, volumeInputs({ dataCenterId: "US-TX-3", type: "HIGH_PERFORMANCE" })),
    ]).toEqual([
      { changes: false, replaces: [], updates: [], deleteBeforeReplace: false },
      { changes: true, replaces: ["dataCenterId"], updates: [], deleteBeforeReplace: false },
      { changes: true, replaces: ["type"], updates: [], deleteBeforeReplace: false },
    ]);
  });

  it("refresh shows an out-of-band change and a deletion", async () => {
    const res = await Volume.create(volumeInputs());
    await apiFor(emu).networkVolumes.update(res.id, { size: 300, name: "grown-elsewhere" });
    const read = await Volume.read(res.id, res.outs as NetworkVolumeOutputs);
    expect([read.id, read.props, read.inputs]).toEqual([
      res.id,
      { volumeId: res.id, name: "grown-elsewhere", size: 300, dataCenterId: "EU-RO-1", type: "STANDARD" },
      { name: "grown-elsewhere", size: 300, dataCenterId: "EU-RO-1", type: "STANDARD" },
    ]);
    // The program still says 50 GB: check now refuses it instead of letting the PATCH fail.
    const check = await Volume.check(read.inputs as unknown as NetworkVolumeInputs, volumeInputs());
    expect(check.failures?.map((f) => f.property)).toEqual(["size"]);
    await apiFor(emu).networkVolumes.delete(res.id);
    expect(await Volume.read(res.id, res.outs as NetworkVolumeOutputs)).toEqual({});
  });

  it("deletes, and a second delete (404) succeeds", async () => {
    const res = await Volume.create(volumeInputs());
    await Volume.delete(res.id, res.outs as NetworkVolumeOutputs);
    await Volume.delete(res.id, res.outs as NetworkVolumeOutputs);
    expect([
      volumeIds().includes(res.id),
      requests("DELETE", "/v2/network-volumes/").map((e) => e.status),
    ]).toEqual([false, [204, 404]]);
  });

  it("adopts an existing volume, growing and renaming it in place", async () => {
    const existing = await apiFor(emu).networkVolumes.create({
      name: "old",
      size: 20,
      dataCenter: "EU-RO-1",
    });
    const res = await Volume.create(volumeInputs({ adoptId: existing.id }));
    expect([res.id, res.outs, volumeIds().length, progress.at(-1)]).toEqual([
      existing.id,
      { volumeId: existing.id, name: "datasets", size: 50, dataCenterId: "EU-RO-1", type: "STANDARD" },
      3,
      `runpod NetworkVolume datasets: adopted existing network volume ${existing.id}`,
    ]);
  });

  it("refuses to adopt a volume in another data center, or one larger than asked", async () => {
    const wrongDc = await thrown(Volume.create(volumeInputs({ adoptId: "nv-tx3-datasets" })));
    const larger = await thrown(
      Volume.create(volumeInputs({ adoptId: "nv-tx3-datasets", dataCenterId: "US-TX-3" })),
    );
    const missing = await thrown(Volume.create(volumeInputs({ adoptId: "nope" })));
    expect([wrongDc.message, larger.message, missing.message, requests("PATCH", "/v2/")]).toEqual([
      "NetworkVolume datasets: adoptId nv-tx3-datasets cannot be adopted: it is a STANDARD volume in US-TX-3, the inputs ask for STANDARD in EU-RO-1; neither can change after create.",
      "NetworkVolume datasets: volume nv-tx3-datasets has 100 GB; network volume storage cannot be reduced to 50 GB. Keep size at 100 or more, or create a new NetworkVolume and copy the data.",
      "NetworkVolume datasets: adoptId nope: no such network volume (or this API key cannot see it).",
      [],
    ]);
  });
});

describe("NetworkVolume with pods", () => {
  it("a pod mounting the volume is placed in the volume's data center, with or without placement regions", async () => {
    const volume = await Volume.create(volumeInputs({ dataCenterId: "EU-RO-1" }));
    const mounts = { network: [{ volumeId: volume.id, path: "/data" }] };
    const plain = await Pod.create(podInputs({ mounts }));
    const regional = await Pod.create(
      podInputs({ mounts, placement: { regions: ["NORTH_AMERICA", "EUROPE"] } }),
    );
    const plainOuts = plain.outs as PodOutputs;
    expect([
      plainOuts.dataCenterId,
      plainOuts.mounts,
      (regional.outs as PodOutputs).dataCenterId,
      requests("POST", "/v2/pods").length,
    ]).toEqual(["EU-RO-1", { network: [{ volumeId: volume.id, path: "/data" }] }, "EU-RO-1", 2]);
  });

  it("refuses to delete a volume a running pod mounts, after the bounded wait, with what to do", async () => {
    const volume = await Volume.create(volumeInputs());
    await Pod.create(podInputs({ mounts: { network: [{ volumeId: volume.id, path: "/data" }] } }));
    const err = await thrown(Volume.delete(volume.id, volume.outs as NetworkVolumeOutputs));
    expect(err.message).toMatch(MOUNTED);
    expect([
      requests("DELETE", "/v2/network-volumes/").map((e) => e.status),
      volumeIds().includes(volume.id),
    ]).toEqual([[409, 409, 409, 409, 409, 409, 409, 409], true]);
    expect(progress).toContain(
      `runpod NetworkVolume datasets: ${volume.id} is still in use (Network volume '${volume.id}' is mounted by pod '${
        emu.control.snapshot().pods.find((p) => p.name === "trainer")?.id
      }'; terminate the pod first.); waiting up to 60s for it to be released`,
    );
  });

  it("deletes once the pod is gone", async () => {
    const volume = await Volume.create(volumeInputs());
    const pod = await Pod.create(
      podInputs({ mounts: { network: [{ volumeId: volume.id, path: "/data" }] } }),
    );
    await Pod.delete(pod.id, pod.outs as PodOutputs);
    await Volume.delete(volume.id, volume.outs as NetworkVolumeOutputs);
    expect([
      requests("DELETE", "/v2/network-volumes/").map((e) => e.status),
      volumeIds().includes(volume.id),
    ]).toEqual([[204], false]);
  });

  it("waits for a pod deleted in the same destroy to release the volume", async () => {
    const volume = await Volume.create(volumeInputs());
    const pod = await Pod.create(
      podInputs({ mounts: { network: [{ volumeId: volume.id, path: "/data" }] } }),
    );
    const volumeDelete = Volume.delete(volume.id, volume.outs as NetworkVolumeOutputs);
    await until(() => requests("DELETE", "/v2/network-volumes/").length === 1);
    await Pod.delete(pod.id, pod.outs as PodOutputs);
    await volumeDelete;
    expect([
      requests("DELETE", "/v2/network-volumes/").map((e) => e.status),
      volumeIds().includes(volume.id),
    ]).toEqual([[409, 204], false]);
  });

  it("retries a 409 on its fixed schedule and succeeds when the volume is released", async () => {
    const volume = await Volume.create(volumeInputs());
    emu.control.addFault({ method: "DELETE", path: "^/v2/network-volumes/", status: 409, times: 2 });
    await Volume.delete(volume.id, volume.outs as NetworkVolumeOutputs);
    expect([
      requests("DELETE", "/v2/network-volumes/").map((e) => e.status),
      volumeIds().includes(volume.id),
      progress.at(-1),
    ]).toEqual([[409, 409, 204], false, `runpod NetworkVolume datasets: deleted ${volume.id}`]);
  });

  it("never swallows another error", async () => {
    const volume = await Volume.create(volumeInputs());
    emu.control.addFault({ method: "DELETE", path: "^/v2/network-volumes/", status: 403, times: 1 });
    const err = await thrown(Volume.delete(volume.id, volume.outs as NetworkVolumeOutputs));
    expect([
      err.message.startsWith(`NetworkVolume datasets: DELETE /v2/network-volumes/${volume.id}: 403`),
      volumeIds().includes(volume.id),
    ]).toEqual([true, true]);
  });
});

describe("Template", () => {
  it("creates with the API's defaults, the command sent as args, and JSON-clean outputs", async () => {
    const res = await Template.create(templateInputs());
    const outs = {
      templateId: res.id,
      name: "trainer",
      image: "img:1",
      args: '{"cmd":["python","train.py"]}',
      cmd: ["python", "train.py"],
      entrypoint: [],
      disk: 20,
      env: { MODEL: "small" },
      ports: ["8888/http"],
      registry: null,
      mounts: { persistent: null },
      allowedCudaVersions: [],
      startSsh: true,
      startJupyter: true,
      public: false,
      serverless: false,
      category: "NVIDIA",
    };
    expect(res.outs).toEqual(outs);
    // JSON-clean: a plain object with no key left undefined (toEqual would not see one).
    expect(res.outs).toStrictEqual(outs);
    expect(progress).toEqual([`runpod Template trainer: created ${res.id}`]);
  });

  it("updates in place with a PATCH of only what changed, and says existing pods keep their settings", async () => {
    const res = await Template.create(
      templateInputs({ mounts: { persistent: { size: 20, path: "/workspace" } } }),
    );
    const olds = res.outs as TemplateOutputs;
    const next = templateInputs({
      image: "img:2",
      env: { MODEL: "large" },
      mounts: { persistent: { size: 40, path: "/workspace" } },
      startJupyter: false,
    });
    const diff = await Template.diff(res.id, olds, next);
    const outs = (await Template.update(res.id, olds, next)).outs as TemplateOutputs;
    expect([
      diff,
      [outs.image, outs.env, outs.mounts, outs.startJupyter, outs.cmd],
      requests("PATCH", "/v2/templates/").length,
    ]).toEqual([
      {
        changes: true,
        replaces: [],
        updates: ["mounts.persistent", "image", "env", "startJupyter"],
        deleteBeforeReplace: false,
      },
      [
        "img:2",
        { MODEL: "large" },
        { persistent: { size: 40, path: "/workspace" } },
        false,
        ["python", "train.py"],
      ],
      1,
    ]);
    expect(progress).toContain(
      "runpod Template trainer: changing mounts.persistent, image, env, startJupyter edits the template only: pods and endpoints already created from it keep the settings they were created with (a template is applied once, at create)",
    );
  });

  it("a pod created from the template keeps its settings when the template changes", async () => {
    const tpl = await Template.create(templateInputs());
    const pod = await Pod.create({ name: "from-template", templateId: tpl.id, gpu: { id: A40 } });
    await Template.update(tpl.id, tpl.outs as TemplateOutputs, templateInputs({ image: "img:2" }));
    const read = await Pod.read(pod.id, pod.outs as PodOutputs);
    expect([(pod.outs as PodOutputs).image, (read.props as PodOutputs).image]).toEqual(["img:1", "img:1"]);
  });

  it("replaces on a serverless flip and on a removed mount, and says what a new id means", async () => {
    const res = await Template.create(
      templateInputs({ mounts: { persistent: { size: 20, path: "/workspace" } } }),
    );
    const olds = res.outs as TemplateOutputs;
    const flip = await Template.diff(res.id, olds, templateInputs({ serverless: true }));
    const unmount = await Template.diff(res.id, olds, templateInputs());
    expect([flip, unmount]).toEqual([
      {
        changes: true,
        replaces: ["serverless", "mounts.persistent"],
        updates: [],
        deleteBeforeReplace: false,
      },
      { changes: true, replaces: ["mounts.persistent"], updates: [], deleteBeforeReplace: false },
    ]);
    expect(progress.slice(-2)).toEqual([
      "runpod Template trainer: replacing it (serverless, mounts.persistent) gives it a new id: pods that take their templateId from it are replaced, endpoints are updated to the new id; a serverless template cannot back a pod, and a pod template cannot back an endpoint",
      "runpod Template trainer: replacing it (mounts.persistent) gives it a new id: pods that take their templateId from it are replaced, endpoints are updated to the new id",
    ]);
  });

  it("refuses a persistent mount on a serverless template at check", async () => {
    const res = await Template.check(
      {} as TemplateInputs,
      templateInputs({ serverless: true, mounts: { persistent: { size: 20, path: "/workspace" } } }),
    );
    expect(res.failures?.map((f) => f.reason.split(":")[0])).toEqual(["mounts.persistent"]);
  });

  it("refresh shows an out-of-band change and a deletion", async () => {
    const res = await Template.create(templateInputs());
    await apiFor(emu).templates.update(res.id, { image: "img:9", env: { MODEL: "edited" } });
    const read = await Template.read(res.id, res.outs as TemplateOutputs);
    const props = read.props as TemplateOutputs;
    expect([read.id, props.image, props.env, (read.inputs as unknown as TemplateInputs).image]).toEqual([
      res.id,
      "img:9",
      { MODEL: "edited" },
      "img:9",
    ]);
    await apiFor(emu).templates.delete(res.id);
    expect(await Template.read(res.id, res.outs as TemplateOutputs)).toEqual({});
  });

  it("deletes, and a second delete (404) succeeds", async () => {
    const res = await Template.create(templateInputs());
    await Template.delete(res.id, res.outs as TemplateOutputs);
    await Template.delete(res.id, res.outs as TemplateOutputs);
    expect([
      emu.control.snapshot().templates,
      requests("DELETE", "/v2/templates/").map((e) => e.status),
    ]).toEqual([[], [204, 404]]);
  });

  it("deletes a template an endpoint was created from: a v2 endpoint keeps no link to it", async () => {
    const tpl = await Template.create(templateInputs({ serverless: true }));
    const ep = await Endpoint.create({
      name: "ep",
      templateId: tpl.id,
      gpu: { pools: ["AMPERE_48"] },
    } as never);
    await Template.delete(tpl.id, tpl.outs as TemplateOutputs);
    expect([
      emu.control.snapshot().templates.map((t) => t.id),
      emu.control.snapshot().endpoints.map((e) => e.id),
    ]).toEqual([[], [ep.id]]);
  });

  it("a serverless template cannot back a pod: the create surfaces the API's 422", async () => {
    const tpl = await Template.create(templateInputs({ serverless: true }));
    const err = await thrown(Pod.create({ name: "wrong", templateId: tpl.id, gpu: { id: A40 } }));
    expect([err.message, requests("POST", "/v2/pods").map((e) => e.status)]).toEqual([
      `Pod wrong: POST /v2/pods: 422 Unprocessable Entity: Request body does not match the contract. ($.templateId: template '${tpl.id}' is a serverless template and cannot back a pod). The request does not match the API contract; fix the listed fields. It is never retried.`,
      [422],
    ]);
  });

  it("adopts an existing template, applying what differs in place", async () => {
    const existing = await apiFor(emu).templates.create({ name: "old", image: "img:0" });
    const res = await Template.create(templateInputs({ adoptId: existing.id }));
    const outs = res.outs as TemplateOutputs;
    expect([res.id, outs.name, outs.image, outs.env, emu.control.snapshot().templates.length]).toEqual([
      existing.id,
      "trainer",
      "img:1",
      { MODEL: "small" },
      1,
    ]);
  });

  it("refuses to adopt a public catalog template it cannot change", async () => {
    const err = await thrown(Template.create(templateInputs({ adoptId: "comfyui-community" })));
    expect(err.message).toBe(
      "Template trainer: adoptId comfyui-community is not one of your templates (public catalog templates can be read but not changed); create your own instead.",
    );
  });
});

describe("an unanswered create is never doubled", () => {
  const userTemplates = () => emu.control.snapshot().templates.map((t) => t.id);

  it.each([
    ["a volume, reset after the create took effect", "/v2/network-volumes", "after" as const, 1],
    ["a volume, reset before it took effect", "/v2/network-volumes", "before" as const, 2],
  ])("%s: exactly one volume", async (_name, path, reset, posts) => {
    const before = volumeIds();
    emu.control.addFault({ method: "POST", path: `^${path}$`, reset, times: 1 });
    const res = await Volume.create(volumeInputs());
    const created = volumeIds().filter((id) => !before.includes(id));
    expect([created, requests("POST", path).length]).toEqual([[res.id], posts]);
  });

  it.each([
    ["reset after the create took effect", "after" as const, 1],
    ["reset before it took effect", "before" as const, 2],
  ])("a template, %s: one template", async (_name, reset, posts) => {
    emu.control.addFault({ method: "POST", path: "^/v2/templates$", reset, times: 1 });
    const res = await Template.create(templateInputs());
    expect([userTemplates(), requests("POST", "/v2/templates").length]).toEqual([[res.id], posts]);
  });
  // Another stack's object with the same fields, made before this create was sent. Cut off before
  // ours took effect, ours is sent again; after, ours is found. Theirs is never taken.
  const theirVolume = () =>
    apiFor(emu).networkVolumes.create({ name: "datasets", size: 50, dataCenter: "EU-RO-1" });
  const theirTemplate = () =>
    apiFor(emu).templates.create({
      name: "trainer",
      image: "img:1",
      args: JSON.stringify({ cmd: ["python", "train.py"] }),
      env: { MODEL: "small" },
      ports: ["8888/http"],
    });
  const ourVolume = async () => (await Volume.create(volumeInputs())).id;
  const ourTemplate = async () => (await Template.create(templateInputs())).id;
  it.each([
    ["a volume", "before" as const, "/v2/network-volumes", theirVolume, ourVolume, () => volumeIds(), 2],
    ["a volume", "after" as const, "/v2/network-volumes", theirVolume, ourVolume, () => volumeIds(), 1],
    ["a template", "before" as const, "/v2/templates", theirTemplate, ourTemplate, () => userTemplates(), 2],
    ["a template", "after" as const, "/v2/templates", theirTemplate, ourTemplate, () => userTemplates(), 1],
  ])(
    "%s another stack made before, with the same fields, is never taken (ours cut off %s it took effect)",
    async (_kind, reset, path, theirs, ours, ids, posts) => {
      const seeded = ids();
      const other = (await theirs()).id;
      emu.control.clearRequests();
      emu.control.addFault({ method: "POST", path: `^${path}$`, reset, times: 1 });
      const mine = await ours();
      expect([
        mine === other,
        ids()
          .filter((id) => !seeded.includes(id))
          .sort(),
        requests("POST", path).length,
      ]).toEqual([false, [other, mine].sort(), posts]);
    },
  );
});
