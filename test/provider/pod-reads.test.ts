/** Reads of single pods coalesced into list requests (provider/host/pod-reads.ts), against the emulator. */
import { describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import { type Api, frozenEmulatorForEachTest, type RunningEmulator, rejection } from "../support/emulator.js";
import { emulatorClock, loadPodReads, useEmulator } from "../support/provider.js";

const { PodReads } = loadPodReads();

let emu: RunningEmulator;
let api: Api;
frozenEmulatorForEachTest({}, (t) => {
  ({ emu, api } = t);
});

const routes = () => emu.control.requests().summary.byRoute;
const create = (name: string) => api.pods.create({ name, image: "img:1", gpu: { id: "NVIDIA A40" } });

describe("PodReads", () => {
  it("reads that come together share one list request; a lone read is a single GET", async () => {
    const pods = await Promise.all(["a", "b", "c", "d", "e"].map(create));
    emu.control.clearRequests();
    const reads = new PodReads(api, emulatorClock(emu), { windowMs: 20, freshMs: 0 });
    const together = await Promise.all(pods.map((p) => reads.get(p.id)));
    const fresh = new PodReads(api, emulatorClock(emu), { windowMs: 20, freshMs: 0 });
    const alone = await fresh.get(pods[0]?.id ?? "");
    expect([together.map((p) => p.name), alone.name, routes()]).toEqual([
      ["a", "b", "c", "d", "e"],
      "a",
      { "GET /v2/pods": 1, "GET /v2/pods/:id": 1 },
    ]);
  });

  it("a list answers the reads that follow while it is fresh, except for a pod this process changed", async () => {
    const pods = await Promise.all(["a", "b", "c"].map(create));
    emu.control.clearRequests();
    const reads = new PodReads(api, emulatorClock(emu), { windowMs: 20, freshMs: 2000 });
    await Promise.all(pods.slice(0, 2).map((p) => reads.get(p.id)));
    const later = await reads.get(pods[2]?.id ?? "");
    reads.forget(pods[0]?.id ?? "");
    await reads.get(pods[0]?.id ?? "");
    emu.control.advance(2001);
    await reads.get(pods[1]?.id ?? "");
    expect([later.name, routes()]).toEqual(["c", { "GET /v2/pods": 1, "GET /v2/pods/:id": 2 }]);
  });

  it("a pod the list lacks is read on its own: a cluster member, or a 404 for one that does not exist", async () => {
    const pod = await create("a");
    const reads = new PodReads(api, emulatorClock(emu), { windowMs: 20, freshMs: 0 });
    const [own, member, missing] = await Promise.allSettled([
      reads.get(pod.id),
      reads.get("clu-demo-ray-node0"),
      reads.get("nopod0000000000"),
    ]);
    expect([
      own.status === "fulfilled" && own.value.name,
      member.status === "fulfilled" && member.value.cluster?.id,
      missing.status === "rejected" && (await rejection(Promise.reject(missing.reason))).status,
    ]).toEqual(["a", "clu-demo-ray", 404]);
  });
});

describe("refresh of many pods through the Pod provider", () => {
  it("costs one list request, not one read per pod", async () => {
    const { providers } = useEmulator(emu);
    emu.control.setClockScale(50);
    const Pod = providers.Pod;
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        Pod.create({ name: `p${i}`, image: "img:1", cpu: { id: "cpu3c", vcpuCount: 2 } } as PodInputs),
      ),
    );
    emu.control.clearRequests();
    const read = await Promise.all(made.map((m) => Pod.read(m.id, m.outs as PodOutputs)));
    expect([read.filter((r) => r.id).length, routes()]).toEqual([20, { "GET /v2/pods": 1 }]);
  });
});
