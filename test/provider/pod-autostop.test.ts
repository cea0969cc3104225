/**
 * A pod with autostop that something outside the stack stopped (the watcher, a person) stays
 * stopped: refresh shows no drift, an unrelated update and a park and wake start nothing; without
 * autostop, a pod stopped outside is drift that `up` corrects, as before. The Pod provider's
 * methods against the emulator, in-process, as in pod.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import { apiFor, type RunningEmulator } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Pod: HostProviders["Pod"];
let emu: RunningEmulator;
freshEmulatorForEachTest({ seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu } = t);
  Pod = t.providers.Pod;
});

const AUTOSTOP = { idleMinutes: 60, gpuUtilBelow: 5 };
const inputs = (extra: Partial<PodInputs> = {}): PodInputs => ({
  name: "notebook",
  image: "img:1",
  gpu: { id: "NVIDIA A40" },
  mounts: { persistent: { size: 20, path: "/workspace" } },
  autostop: AUTOSTOP,
  ...extra,
});
/** The status actions sent so far (the test's own stop included). */
const actions = () =>
  emu.control.requests().entries.filter((r) => r.route === "POST /v2/pods/:id/action").length;

/** A pod created with `with`, then stopped outside the stack, then refreshed. */
async function stoppedOutside(with_: Partial<PodInputs> = {}) {
  const created = await Pod.create(inputs(with_));
  await apiFor(emu).pods.action(created.id, "stop");
  emu.control.setPodStatus(created.id, "EXITED");
  const read = await Pod.read(created.id, created.outs as PodOutputs);
  return { id: created.id, outs: read.props as PodOutputs, created: created.outs as PodOutputs };
}

describe("a pod with autostop stopped outside the stack", () => {
  it("refreshes as stopped outside with no drift: desiredStatus is what was asked", async () => {
    const { id, outs } = await stoppedOutside();
    const diff = await Pod.diff(id, outs, inputs());
    expect([outs.status, outs.stoppedOutside, outs.desiredStatus, outs.autostop, diff.changes]).toEqual([
      "EXITED",
      true,
      "RUNNING",
      AUTOSTOP,
      false,
    ]);
  });

  it("an unrelated update changes the pod and starts nothing", async () => {
    const { id, outs } = await stoppedOutside();
    const updated = (await Pod.update(id, outs, inputs({ image: "img:2" }))).outs as PodOutputs;
    expect([updated.image, updated.status, updated.stoppedOutside, actions()]).toEqual([
      "img:2",
      "EXITED",
      true,
      1,
    ]);
  });

  it("an update from state that still says RUNNING (no refresh) starts nothing either", async () => {
    const created = await Pod.create(inputs());
    await apiFor(emu).pods.action(created.id, "stop");
    emu.control.setPodStatus(created.id, "EXITED");
    const updated = (await Pod.update(created.id, created.outs as PodOutputs, inputs({ image: "img:2" })))
      .outs as PodOutputs;
    expect([updated.status, updated.stoppedOutside, updated.desiredStatus, actions()]).toEqual([
      "EXITED",
      true,
      "RUNNING",
      1,
    ]);
  });

  it("a park (STOPPED) then a wake (RUNNING) leave it stopped: the stack did not stop it", async () => {
    const { id, outs } = await stoppedOutside();
    const parked = (await Pod.update(id, outs, inputs({ desiredStatus: "STOPPED" }))).outs as PodOutputs;
    const woken = (await Pod.update(id, parked, inputs({ desiredStatus: "RUNNING" }))).outs as PodOutputs;
    expect([parked.stoppedOutside, woken.status, woken.stoppedOutside, actions()]).toEqual([
      true,
      "EXITED",
      true,
      1,
    ]);
  });

  it("starts again when the user starts it: the next refresh sees it running", async () => {
    const { id, outs } = await stoppedOutside();
    await apiFor(emu).pods.action(id, "start");
    emu.control.setPodStatus(id, "RUNNING");
    const read = (await Pod.read(id, outs)).props as PodOutputs;
    expect([read.status, read.stoppedOutside, read.desiredStatus]).toEqual(["RUNNING", false, "RUNNING"]);
  });

  it("starts again when the program removes autostop: then a stopped pod is drift again", async () => {
    const { id, outs } = await stoppedOutside();
    const without = inputs({ autostop: undefined });
    const diff = (await Pod.diff(id, outs, without)) as { updates?: string[] };
    const updated = (await Pod.update(id, outs, without)).outs as PodOutputs;
    expect([diff.updates, updated.status, updated.stoppedOutside, actions()]).toEqual([
      ["autostop"],
      "RUNNING",
      false,
      2,
    ]);
  });
});

describe("the stack's own stops and pods without autostop", () => {
  it("a pod the stack parked is woken by the stack", async () => {
    const created = await Pod.create(inputs());
    const parked = (
      await Pod.update(created.id, created.outs as PodOutputs, inputs({ desiredStatus: "STOPPED" }))
    ).outs as PodOutputs;
    const refreshed = (await Pod.read(created.id, parked)).props as PodOutputs;
    const woken = (await Pod.update(created.id, refreshed, inputs())).outs as PodOutputs;
    expect([parked.stoppedOutside, refreshed.stoppedOutside, woken.status, actions()]).toEqual([
      false,
      false,
      "RUNNING",
      2,
    ]);
  });

  it("without autostop, a pod stopped outside is drift, and the update starts it", async () => {
    const { id, outs } = await stoppedOutside({ autostop: undefined });
    const without = inputs({ autostop: undefined });
    const diff = (await Pod.diff(id, outs, without)) as { updates?: string[] };
    const updated = (await Pod.update(id, outs, without)).outs as PodOutputs;
    expect([outs.stoppedOutside, outs.desiredStatus, diff.updates, updated.status]).toEqual([
      true,
      "STOPPED",
      ["desiredStatus"],
      "RUNNING",
    ]);
  });
});

describe("check", () => {
  it("refuses autostop on a locked pod, naming the field", async () => {
    const checked = await Pod.check(inputs(), inputs({ locked: true }));
    expect(checked.failures).toEqual([
      {
        property: "autostop",
        reason: "cannot be set while locked is true: the API never stops a locked pod",
      },
    ]);
  });

  it("refuses autostop values out of range, naming each", async () => {
    const checked = await Pod.check(
      inputs(),
      inputs({ autostop: { idleMinutes: 5, gpuUtilBelow: 0, action: "hibernate" as never } }),
    );
    expect(checked.failures?.map((f) => f.reason.split(":")[0])).toEqual([
      "autostop.idleMinutes",
      "autostop.gpuUtilBelow",
      "autostop.action",
    ]);
  });
});
