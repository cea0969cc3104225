/**
 * Pod actions (`POST /v2/pods/{id}/action`) and what a pod's container does per image
 * (containers.ts), over raw HTTP on a frozen clock: provisioning 2000 ms, starting 3000 ms, pulls
 * retried every 30 s, a crashed container restarted after 10 s.
 */
import { describe, expect, it } from "vitest";
import { emulatorLib, frozenEmulator, frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, problem, raw } from "../support/http.js";
import { APP_POD } from "../support/seed-facts.js";

const A40 = "NVIDIA A40";

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

type Body = Record<string, unknown>;
const iso = (offset: number) => new Date(h.t0 + offset).toISOString();
const createPod = (over: Body = {}) => c.ok(c.post("base", "/v2/pods", { ...APP_POD, ...over }));
const getPod = (id: string) => c.ok(c.get("base", `/v2/pods/${id}`));
const action = (id: string, a: string) => c.call("POST", "base", `/v2/pods/${id}/action`, { action: a });
const state = async (id: string) => {
  const p = await getPod(id);
  return [p.status, p.startedAt, p.runtime === null ? null : p.runtime.uptime];
};

describe("POST /v2/pods/{id}/action", () => {
  it("stop keeps the pod (EXITED, cost 0, volume kept, capacity back); start takes it again", async () => {
    h.emu.control.setCapacity({ dataCenterId: "US-TX-3", gpuTypeId: "NVIDIA A100 80GB PCIe", free: 1 });
    const pod = await createPod({
      gpu: { id: "NVIDIA A100 80GB PCIe" },
      dataCenterIds: ["US-TX-3"],
      mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] },
    });
    h.emu.control.advance(5000);
    const stopped = await c.ok(action(pod.id, "stop"));
    expect([stopped.status, stopped.cost, stopped.actions, stopped.mounts, stopped.runtime]).toEqual([
      "EXITED",
      0,
      ["start", "terminate"],
      { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] },
      null,
    ]);
    // The stopped pod still mounts the volume, so the volume stays.
    expect((await c.del("base", "/v2/network-volumes/nv-tx3-datasets")).status).toBe(409);
    // Its GPU went back to stock: someone else can take it, and then the start fails.
    const other = await createPod({
      name: "taker",
      gpu: { id: "NVIDIA A100 80GB PCIe" },
      dataCenterIds: ["US-TX-3"],
    });
    expect(await problem(action(pod.id, "start"))).toEqual({
      status: 400,
      detail: "There are not enough free GPUs on the host machine to start this pod.",
      errors: [],
    });
    expect((await getPod(pod.id)).status).toBe("EXITED");
    await c.ok(c.del("base", `/v2/pods/${other.id}`));
    const started = await c.ok(action(pod.id, "start"));
    expect([started.status, started.cost, started.dataCenterId]).toEqual(["PROVISIONING", 1.64, "US-TX-3"]);
    h.emu.control.advance(5000);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(10_000), 0]);
  });

  it("restart restarts the container in place: STARTING, then RUNNING with a new start time", async () => {
    const pod = await createPod();
    h.emu.control.advance(6000);
    const restarted = await c.ok(action(pod.id, "restart"));
    expect([restarted.status, restarted.runtime]).toEqual(["STARTING", null]);
    h.emu.control.advance(3000);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(9000), 0]);
  });

  it("terminate answers 204 and the pod is TERMINATED for the grace period", async () => {
    const pod = await createPod();
    const res = await action(pod.id, "terminate");
    expect([res.status, (await getPod(pod.id)).status]).toEqual([204, "TERMINATED"]);
  });

  it.each<[string, (id: string) => void, string[], string[]]>([
    ["PROVISIONING", () => undefined, ["start", "restart"], ["stop", "terminate"]],
    ["RUNNING", () => h.emu.control.advance(5000), ["start"], ["stop", "restart", "terminate"]],
    ["ERROR", (id) => h.emu.control.setPodStatus(id, "ERROR"), ["stop", "restart"], ["start", "terminate"]],
  ])("honours actions[] of a %s pod: the others answer 409", async (status, setup, refused, valid) => {
    const pod = await createPod();
    setup(pod.id);
    expect((await getPod(pod.id)).actions).toEqual(valid);
    for (const a of refused) {
      expect(await problem(action(pod.id, a))).toEqual({
        status: 409,
        detail: `Action '${a}' is not valid for a pod in status ${status}; valid: ${valid.join(", ")}.`,
        errors: [],
      });
    }
  });

  it("answers 422 for an unknown action, 404 for an unknown pod, 409 for a cluster member", async () => {
    const pod = await createPod();
    expect(await problem(action(pod.id, "reset"))).toEqual({
      status: 422,
      detail: "Request body does not match the contract.",
      errors: ['$.action: expected one of "start", "stop", "restart", "terminate"'],
    });
    expect(await problem(c.call("POST", "base", `/v2/pods/${pod.id}/action`, {}))).toMatchObject({
      errors: ["$.action: required property is missing"],
    });
    expect((await action("nope", "stop")).status).toBe(404);
    expect((await action("clu-demo-ray-node0", "stop")).status).toBe(409);
  });
});

describe("container behaviour per image", () => {
  it("crash-loops: RUNNING for runMs, STARTING while it restarts, over and over, never ERROR", async () => {
    const pod = await createPod({ image: "emulator/crash-loop:1" });
    h.emu.control.advance(5000);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(5000), 0]);
    h.emu.control.advance(14_999);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(5000), 14]);
    h.emu.control.advance(1);
    const down = await getPod(pod.id);
    expect([down.status, down.runtime, down.actions]).toEqual(["STARTING", null, ["stop", "terminate"]]);
    h.emu.control.advance(10_000);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(30_000), 0]);
    h.emu.control.advance(10 * 25_000);
    expect(await state(pod.id)).toEqual(["RUNNING", iso(280_000), 0]);
    // A stop ends the loop for good.
    await c.ok(action(pod.id, "stop"));
    h.emu.control.advance(60_000);
    expect((await getPod(pod.id)).status).toBe("EXITED");
  });

  it("cannot pull an unknown image: STARTING for good, no runtime, billed; a PATCH to a good image fixes it", async () => {
    const pod = await createPod({ image: "emulator/image-not-found:latest" });
    h.emu.control.advance(3_600_000);
    const stuck = await getPod(pod.id);
    expect([stuck.status, stuck.runtime, stuck.startedAt, stuck.cost]).toEqual([
      "STARTING",
      null,
      null,
      0.44,
    ]);
    await c.ok(c.patch("base", `/v2/pods/${pod.id}`, { image: "acme/app:1" }));
    h.emu.control.advance(3000);
    expect((await getPod(pod.id)).status).toBe("RUNNING");
  });

  it("pulls a private image only with an existing registry credential", async () => {
    const denied = await createPod({ image: "emulator/private/trainer:2" });
    const registry = await c.ok(
      c.post("base", "/v2/registries", { name: "r", username: "u", password: "p" }),
    );
    const allowed = await createPod({ image: "emulator/private/trainer:2", registry: registry.id });
    h.emu.control.advance(5000);
    expect([(await getPod(denied.id)).status, (await getPod(allowed.id)).status]).toEqual([
      "STARTING",
      "RUNNING",
    ]);
    await c.ok(c.patch("base", `/v2/pods/${denied.id}`, { registry: registry.id }));
    h.emu.control.advance(3000);
    expect((await getPod(denied.id)).status).toBe("RUNNING");
  });

  it("runs out of disk below the image's size until the disk is grown", async () => {
    const small = await createPod({ image: "emulator/out-of-disk:1", disk: 20 });
    const big = await createPod({ image: "emulator/out-of-disk:1", disk: 50 });
    h.emu.control.advance(5000);
    expect([(await getPod(small.id)).status, (await getPod(big.id)).status]).toEqual(["STARTING", "RUNNING"]);
    await c.ok(c.patch("base", `/v2/pods/${small.id}`, { disk: 60 }));
    h.emu.control.advance(3000);
    expect((await getPod(small.id)).status).toBe("RUNNING");
  });

  it("takes a new rule from the control plane in-process; pods booted before keep their script", async () => {
    const before = await createPod({ image: "acme/job:7" });
    expect(
      h.emu.control.setContainerBehaviour({ image: "acme/job:*", kind: "crashLoop", runMs: 1000 })[0],
    ).toEqual({
      image: "acme/job:*",
      kind: "crashLoop",
      runMs: 1000,
    });
    const after = await createPod({ image: "acme/job:7" });
    h.emu.control.advance(6000);
    expect([(await getPod(before.id)).status, (await getPod(after.id)).status]).toEqual([
      "RUNNING",
      "STARTING",
    ]);
    h.emu.control.removeContainerBehaviour("acme/job:*");
    expect(h.emu.control.containerBehaviours().map((r) => r.image)).toEqual([
      "emulator/image-not-found*",
      "emulator/private*",
      "emulator/crash-loop*",
      "emulator/out-of-disk*",
    ]);
  });

  it("is set, read and removed over HTTP under /__emulator/containers", async () => {
    const { emu } = await frozenEmulator({ control: true });
    try {
      const put = await raw(`${emu.baseUrl}/__emulator/containers`, {
        method: "PUT",
        body: JSON.stringify({ image: "acme/bad:1", kind: "imageNotFound" }),
        key: null,
      });
      expect([put.status, (put.body.rules as unknown[])[0]]).toEqual([
        200,
        { image: "acme/bad:1", kind: "imageNotFound" },
      ]);
      const bad = await raw(`${emu.baseUrl}/__emulator/containers`, {
        method: "PUT",
        body: JSON.stringify({ image: "acme/bad:1", kind: "explode" }),
        key: null,
      });
      expect(bad.status).toBe(400);
      const listed = await raw(`${emu.baseUrl}/__emulator/containers`, { key: null });
      expect((listed.body.rules as { image: string }[]).map((r) => r.image)).toEqual([
        "acme/bad:1",
        "emulator/image-not-found*",
        "emulator/private*",
        "emulator/crash-loop*",
        "emulator/out-of-disk*",
      ]);
      const removed = await raw(
        `${emu.baseUrl}/__emulator/containers?image=${encodeURIComponent("acme/bad:1")}`,
        {
          method: "DELETE",
          key: null,
        },
      );
      expect((removed.body.rules as unknown[]).length).toBe(4);
      // The log a pod has written so far, as the control plane shows it.
      const pod = await raw(`${emu.baseUrl}/v2/pods`, {
        method: "POST",
        body: JSON.stringify({
          name: "p",
          image: "acme/bad:1",
          gpu: { id: A40 },
          dataCenterIds: ["US-KS-2"],
        }),
      });
      const logged = await raw(`${emu.baseUrl}/__emulator/pods/${pod.body.id}/logs`, { key: null });
      expect(logged.body).toEqual({
        lines: [
          {
            ts: new Date(emu.control.now()).toISOString(),
            source: "system",
            line: "create pod: 1x NVIDIA A40 in US-KS-2",
          },
        ],
      });
      expect((await raw(`${emu.baseUrl}/__emulator/pods/nope/logs`, { key: null })).status).toBe(404);
    } finally {
      await emu.close();
    }
  });

  it("reads its rules from the seed", async () => {
    const emu = await emulatorLib.startEmulator({
      clockScale: 0,
      seed: { containerBehaviours: [{ image: "only/this", kind: "outOfDisk" }] },
    });
    try {
      expect(emu.control.containerBehaviours()).toEqual([{ image: "only/this", kind: "outOfDisk" }]);
    } finally {
      await emu.close();
    }
  });
});
