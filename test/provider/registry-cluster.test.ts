/** Registry, Cluster and a Pod's desired status against the emulator, in-process, on the emulator's clock. */
import { describe, expect, it } from "vitest";
import type { ClusterOutputs } from "../../provider/resources/cluster/types.js";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import type { RegistryOutputs } from "../../provider/resources/registry/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";

let Registry: HostProviders["Registry"];
let Cluster: HostProviders["Cluster"];
let Pod: HostProviders["Pod"];
const H100 = "NVIDIA H100 80GB HBM3";
const A40 = "NVIDIA A40";

let emu: RunningEmulator;
let progress: string[];
freshEmulatorForEachTest({ firstSeed: 400 }, (t) => {
  ({ emu, progress } = t);
  Registry = t.providers.Registry;
  Cluster = t.providers.Cluster;
  Pod = t.providers.Pod;
});

const writes = () =>
  emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => e.route);

describe("Registry", () => {
  const creds = { name: "ghcr", username: "bot", password: "ghp_SECRET" };

  it("creates, and keeps neither the username nor the password in its outputs", async () => {
    const res = await Registry.create(creds);
    const outs = res.outs as RegistryOutputs;
    expect([outs.registryId, outs.name, JSON.stringify(outs).includes("ghp_SECRET"), writes()]).toEqual([
      res.id,
      "ghcr",
      false,
      ["POST /v2/registries"],
    ]);
    expect(await apiFor(emu).registries.get(res.id)).toEqual({ id: res.id, name: "ghcr" });
  });

  it("sees a new password through the digest: a replacement", async () => {
    const res = await Registry.create(creds);
    const olds = res.outs as RegistryOutputs;
    expect([
      (await Registry.diff(res.id, olds, creds)).changes,
      (await Registry.diff(res.id, olds, { ...creds, password: "rotated" })).replaces,
    ]).toEqual([false, ["credentials"]]);
  });

  it("refresh keeps the digest and notices a deletion", async () => {
    const res = await Registry.create(creds);
    const read = await Registry.read(res.id, res.outs as RegistryOutputs);
    await apiFor(emu).registries.delete(res.id);
    expect([read.props, await Registry.read(res.id, res.outs as RegistryOutputs)]).toEqual([res.outs, {}]);
  });

  it("a pod pulls with it; deleting it while the pod runs waits, then says what to do", async () => {
    const reg = await Registry.create(creds);
    await Pod.create({ name: "app", image: "ghcr.io/acme/app:1", gpu: { id: A40 }, registry: reg.id });
    const err = await thrown(Registry.delete(reg.id, reg.outs as RegistryOutputs));
    expect(err.message).toMatch(
      new RegExp(
        `^Registry ghcr: registry credential ${reg.id} cannot be deleted while it is in use: .+ \\(still refused after waiting 60s\\)\\. Terminate the pod that pulls its image with it`,
      ),
    );
  });

  it("an unanswered create that landed is found, not sent again", async () => {
    emu.control.addFault({ method: "POST", path: "^/v2/registries$", reset: "after", times: 1 });
    const res = await Registry.create(creds);
    expect([
      emu.control.snapshot().registries.map((r) => r.id),
      writes().filter((w) => w === "POST /v2/registries").length,
    ]).toEqual([[res.id], 1]);
  });
});

describe("Cluster", () => {
  const inputs = {
    name: "trainers",
    type: "TRAINING",
    compute: { gpuTypeId: H100, gpuCountPerPod: 1, podCount: 2 },
    image: "runpod/pytorch:2.4.0",
  } as never;

  it("waits until every member pod is RUNNING, reading them with one list", async () => {
    const res = await Cluster.create(inputs);
    const outs = res.outs as ClusterOutputs;
    const byRoute = emu.control.requests().summary.byRoute;
    expect([
      outs.clusterId,
      outs.members.map((m) => m.status),
      outs.members.map((m) => m.rank),
      typeof outs.dataCenterId,
      byRoute["GET /v2/pods/:id"],
      (byRoute["GET /v2/pods"] ?? 0) > 0,
    ]).toEqual([res.id, ["RUNNING", "RUNNING"], [0, 1], "string", undefined, true]);
    expect(progress.at(-1)).toMatch(/^runpod Cluster trainers: 2\/2 pods RUNNING/);
  });

  it("renames in place; everything else replaces", async () => {
    const res = await Cluster.create(inputs);
    const olds = res.outs as ClusterOutputs;
    const renamed = await Cluster.update(res.id, olds, { ...(inputs as object), name: "renamed" } as never);
    expect([
      (await Cluster.diff(res.id, olds, { ...(inputs as object), name: "renamed" } as never)).replaces,
      (await Cluster.diff(res.id, olds, { ...(inputs as object), image: "other:1" } as never)).replaces,
      (renamed.outs as ClusterOutputs).name,
    ]).toEqual([[], ["image"], "renamed"]);
  });

  it("deletes the cluster and waits until its pods are gone", async () => {
    const res = await Cluster.create(inputs);
    await Cluster.delete(res.id, res.outs as ClusterOutputs);
    const live = emu.control
      .snapshot()
      .pods.filter((p) => p.cluster?.id === res.id && p.status !== "TERMINATED");
    expect(live).toEqual([]);
    await Cluster.delete(res.id, res.outs as ClusterOutputs);
  });

  it("a cluster whose pods never all run is deleted, and the error says so", async () => {
    emu.control.setSettings({ provisioningMs: 3_600_000 });
    const err = await thrown(Cluster.create({ ...(inputs as object), timeouts: { create: 30 } } as never));
    const id = /cluster (\w+) did not become ready/.exec(err.message)?.[1];
    expect(err.message).toMatch(
      /^Cluster trainers: cluster \w+ did not become ready \(.+\)\. It was deleted so it does not bill/,
    );
    expect(
      emu.control.snapshot().pods.filter((p) => p.cluster?.id === id && p.status !== "TERMINATED"),
    ).toEqual([]);
  });
});

describe("Pod desiredStatus", () => {
  const pod = (extra: Partial<PodInputs> = {}): PodInputs => ({
    name: "nb",
    image: "img:1",
    gpu: { id: A40 },
    ...extra,
  });

  it("parks a pod in place (stop) and wakes it again (start)", async () => {
    const created = await Pod.create(pod());
    const running = created.outs as PodOutputs;
    const diff = await Pod.diff(created.id, running, pod({ desiredStatus: "STOPPED" }));
    emu.control.clearRequests();
    const parked = (await Pod.update(created.id, running, pod({ desiredStatus: "STOPPED" })))
      .outs as PodOutputs;
    const woken = (await Pod.update(created.id, parked, pod())).outs as PodOutputs;
    expect([
      diff,
      [parked.status, parked.desiredStatus, parked.cost],
      [woken.status, woken.desiredStatus],
      writes(),
    ]).toEqual([
      { changes: true, replaces: [], updates: ["desiredStatus"], deleteBeforeReplace: false },
      ["EXITED", "STOPPED", 0],
      ["RUNNING", "RUNNING"],
      ["POST /v2/pods/:id/action", "POST /v2/pods/:id/action"],
    ]);
  });

  it("a wake refused for capacity leaves the pod stopped and says so", async () => {
    const created = await Pod.create(pod({ desiredStatus: "STOPPED" }));
    const parked = created.outs as PodOutputs;
    emu.control.setCapacity({ dataCenterId: parked.dataCenterId ?? "", gpuTypeId: A40, free: 0 });
    const err = await thrown(Pod.update(created.id, parked, pod()));
    expect([err.message, emu.control.snapshot().pods.find((p) => p.id === created.id)?.status]).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Pod nb: pod ${created.id} could not be started: .+\\. It stays stopped \\(EXITED\\); starting needs a free NVIDIA A40 where the pod lives`,
        ),
      ),
      "EXITED",
    ]);
  });

  it("refresh of a pod stopped elsewhere shows STOPPED, so the next up starts it", async () => {
    const created = await Pod.create(pod());
    await apiFor(emu).pods.action(created.id, "stop");
    const read = await Pod.read(created.id, created.outs as PodOutputs);
    const props = read.props as PodOutputs;
    expect([props.desiredStatus, (await Pod.diff(created.id, props, pod())).changes]).toEqual([
      "STOPPED",
      true,
    ]);
  });

  it("refuses STOPPED with locked at check", async () => {
    expect(
      (await Pod.check({} as PodInputs, pod({ desiredStatus: "STOPPED", locked: true }))).failures,
    ).toEqual([
      {
        property: "desiredStatus",
        reason: "cannot be STOPPED while locked is true: the API refuses to stop a locked pod",
      },
    ]);
  });
});
