/**
 * A fleet as users write it (`gpu.id` with `placement.gpuTypeIds` fallbacks, default readiness), in
 * process against the emulator: the requests it sends, by route, exactly. The catalog and a shared
 * network volume are read once for the fleet (`SharedReads`, provider/host/context.ts), not once per pod.
 */
import { describe, expect, it } from "vitest";
import type { PodInputs } from "../../provider/resources/pod/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Pod: HostProviders["Pod"];
let emu: RunningEmulator;
freshEmulatorForEachTest({ seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  emu = t.emu;
  Pod = t.providers.Pod;
});

const A40 = "NVIDIA A40";
/**
 * As the README's quick start writes a pod, with fallbacks: in Europe the seed has A40s (20 free in
 * EU-RO-1) and L40S, and no RTX A5000, so the fallbacks leave one type without a candidate and the
 * unknown-type check reads the GPU catalog too.
 */
const fleetPod = (i: number, extra: Partial<PodInputs> = {}): PodInputs => ({
  name: `worker-${i}`,
  image: "img:1",
  gpu: { id: A40 },
  placement: { regions: ["EUROPE"], gpuTypeIds: ["NVIDIA L40S", "NVIDIA RTX A5000"] },
  ...extra,
});

/**
 * Requests by route, the reads that wait for pods left out: how many there are depends on timing
 * (a first pod's log, followed to see it start, is one of them).
 */
function byRoute(): Record<string, number> {
  const {
    "GET /v2/pods": _lists,
    "GET /v2/pods/:id": _reads,
    "GET /v2/pods/:id/logs": _log,
    ...rest
  } = emu.control.requests().summary.byRoute;
  return rest;
}

const createAll = (pods: readonly PodInputs[]) => Promise.all(pods.map((p) => Pod.create(p)));

describe("a fleet's reads", () => {
  it("twelve pods with GPU fallbacks read each catalog once, not once per pod", async () => {
    const created = await createAll(Array.from({ length: 12 }, (_, i) => fleetPod(i)));
    expect([new Set(created.map((c) => c.id)).size, byRoute()]).toEqual([
      12,
      {
        "POST /v2/pods": 12,
        "GET /v2/catalog/datacenters": 1,
        "GET /v2/catalog/gpus": 1,
      },
    ]);
  });

  it("pods sharing a network volume read it once", async () => {
    const volume = await apiFor(emu).networkVolumes.create({ name: "data", size: 50, dataCenter: "EU-RO-1" });
    emu.control.clearRequests();
    const mounts = { network: [{ volumeId: volume.id, path: "/data" }] };
    await createAll(Array.from({ length: 8 }, (_, i) => fleetPod(i, { mounts })));
    expect(byRoute()).toEqual({
      "POST /v2/pods": 8,
      "GET /v2/catalog/datacenters": 1,
      "GET /v2/catalog/gpus": 1,
      "GET /v2/network-volumes/:id": 1,
    });
  });

  it("an answer serves asks for a minute of the host's clock, then is read again", async () => {
    for (let i = 0; i < 6; i += 1) {
      await Pod.create(fleetPod(i, { waitFor: "PLACED" }));
      emu.control.advance(20_000);
    }
    const at = (route: string) =>
      emu.control
        .requests()
        .entries.filter((e) => e.route === route)
        .map((e) => e.at);
    const reads = at("GET /v2/catalog/datacenters");
    const gaps = reads.slice(1).map((t, i) => t - (reads[i] ?? 0));
    // Six creates over more than a minute and a half: read again only once the last read is a
    // minute old, so more than once and fewer times than there are pods.
    expect([
      at("POST /v2/pods").length,
      reads.length > 1 && reads.length < 6,
      gaps.every((g) => g >= 60_000),
    ]).toEqual([6, true, true]);
  });

  it("a walk whose every candidate was out of capacity makes the next pod read the catalog again", async () => {
    for (const dataCenterId of ["EU-RO-1", "EU-SE-1"]) {
      for (const gpuTypeId of [A40, "NVIDIA L40S"]) {
        emu.control.setCapacity({ dataCenterId, gpuTypeId, free: 0, availability: "HIGH" });
      }
    }
    const err = await thrown(Pod.create(fleetPod(0)));
    emu.control.setCapacity({ dataCenterId: "EU-RO-1", gpuTypeId: A40, free: 5, availability: "HIGH" });
    await Pod.create(fleetPod(1));
    expect([err.code, byRoute()["GET /v2/catalog/datacenters"]]).toEqual(["RUNPOD_PLACEMENT_FAILED", 2]);
  });

  it("a failed read is kept for no one: the next ask sends it again", async () => {
    emu.control.addFault({ method: "GET", path: "^/v2/catalog/datacenters", status: 403, times: 1 });
    const err = await thrown(Pod.create(fleetPod(0)));
    await Pod.create(fleetPod(1));
    expect([err.status, byRoute()["GET /v2/catalog/datacenters"]]).toEqual([403, 2]);
  });
});
