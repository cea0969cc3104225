/** The Pod provider's methods against the emulator, in-process, on the emulator's clock. */
import { describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import { apiFor, type RunningEmulator, thrown } from "../support/emulator.js";
import { freshEmulatorForEachTest, type HostProviders } from "../support/provider.js";
import { jsonBytes, POD_REQUEST_LIMIT, paddedTo, WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

let Pod: HostProviders["Pod"];
const A40 = "NVIDIA A40";
const H100 = "NVIDIA H100 80GB HBM3";

let emu: RunningEmulator;
let progress: string[];
// Each test has its own emulator and host context: the same seed makes the same pod ids, and
// nothing a test claimed or learned reaches the next.
freshEmulatorForEachTest({ seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu, progress } = t);
  Pod = t.providers.Pod;
});

const inputs = (extra: Partial<PodInputs> = {}): PodInputs => ({
  name: "trainer",
  image: "img:1",
  gpu: { id: A40 },
  ...extra,
});
const count = (route: string) => emu.control.requests().summary.byRoute[route] ?? 0;
const podsInEmulator = () =>
  emu.control.snapshot().pods.filter((p) => p.status !== "TERMINATED" && !p.cluster);

describe("create", () => {
  it("creates a pod, waits until RUNNING and returns JSON-clean outputs with only declared env keys", async () => {
    await apiFor(emu).sshKeys.put(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK demo"]);
    // Public ports mapped as the pod starts: this test is about outputs, readiness.test.ts about waiting for them.
    // A minute of STARTING (1.2 s at this clock): the default's 60 real milliseconds can pass
    // between two of the watcher's reads on a busy machine, and the progress lines below show it.
    emu.control.setSettings({ portMappingMs: 0, startingMs: 60_000 });
    const res = await Pod.create(
      inputs({ env: { A: "1" }, startJupyter: true, startSsh: true, ports: ["22/tcp"] }),
    );
    const outs = res.outs as PodOutputs;
    expect([
      outs.status,
      outs.env,
      typeof outs.jupyterPassword,
      outs.ssh.direct?.username,
      outs.gpu?.vcpuCount,
    ]).toEqual(["RUNNING", { A: "1" }, "string", "root", 9]);
    expect(JSON.stringify(outs)).not.toContain("undefined");
    expect(Object.values(outs).includes(undefined as never)).toBe(false);
    // JSON-clean at every depth: no undefined, no class instance, nothing JSON would drop or change.
    expect(outs).toStrictEqual(JSON.parse(JSON.stringify(outs)));
    expect(progress.map((l) => l.replace(/\((\d+m)?\d+s\)$/, "(Ns)"))).toEqual([
      `runpod Pod trainer: created ${res.id} in US-KS-2 / NVIDIA A40`,
      `runpod Pod trainer: ${res.id} PROVISIONING -> STARTING (Ns)`,
      `runpod Pod trainer: ${res.id} STARTING -> RUNNING (Ns)`,
      `runpod Pod trainer: ${res.id} RUNNING; waiting 30 s to see it stay up (readiness.settle)`,
    ]);
  });

  it("returns once placed when waitFor is PLACED, and at once with NONE", async () => {
    const placed = await Pod.create(inputs({ waitFor: "PLACED" }));
    // A provisioning longer than the test: on a busy machine the default's few real milliseconds at
    // this clock could pass between the create and the answer it returns.
    emu.control.setSettings({ provisioningMs: 3_600_000 });
    const none = await Pod.create(inputs({ waitFor: "NONE" }));
    expect([(placed.outs as PodOutputs).status, (none.outs as PodOutputs).status]).toEqual([
      "STARTING",
      "PROVISIONING",
    ]);
  });

  it("locks the pod after it runs when asked", async () => {
    const res = await Pod.create(inputs({ locked: true }));
    expect([(res.outs as PodOutputs).locked, count("PATCH /v2/pods/:id")]).toEqual([true, 1]);
  });

  it("places a pod in its network volume's data center, and refuses candidates elsewhere before any create", async () => {
    const mounts = { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] };
    const ok = await Pod.create(inputs({ gpu: { id: H100 }, mounts }));
    const err = await thrown(
      Pod.create(
        inputs({ gpu: { id: H100 }, mounts, placement: { candidates: [{ dataCenterId: "EU-RO-1" }] } }),
      ),
    );
    expect([(ok.outs as PodOutputs).dataCenterId, err.message, count("POST /v2/pods")]).toEqual([
      "US-TX-3",
      "Pod trainer: no placement candidate is in US-TX-3, where network volume nv-tx3-datasets lives.",
      1,
    ]);
  });

  it("adopts an existing pod by id instead of creating one, applying what differs in place", async () => {
    const existing = await apiFor(emu).pods.create({ name: "old-name", image: "img:1", gpu: { id: A40 } });
    const res = await Pod.create(inputs({ adoptId: existing.id }));
    expect([res.id, (res.outs as PodOutputs).name, count("POST /v2/pods")]).toEqual([
      existing.id,
      "trainer",
      1,
    ]);
    const wrong = await thrown(Pod.create(inputs({ adoptId: existing.id, gpu: { id: H100 } })));
    expect(wrong.message).toBe(
      `Pod trainer: adoptId ${existing.id} cannot be adopted: it differs from the inputs in gpu.id, which cannot change in place.`,
    );
  });
});

describe("placement walks the candidates as the Errors table says", () => {
  const candidates = [{ dataCenterId: "US-TX-3" }, { dataCenterId: "US-KS-2" }, { dataCenterId: "EU-RO-1" }];
  const place = (extra: Partial<PodInputs> = {}) =>
    Pod.create(inputs({ placement: { candidates }, ...extra }));

  it("400 (no capacity): next candidate", async () => {
    const res = await place();
    expect([(res.outs as PodOutputs).dataCenterId, count("POST /v2/pods")]).toEqual(["US-KS-2", 2]);
    expect(progress[0]).toBe(
      "runpod Pod trainer: US-TX-3 / NVIDIA A40 answered 400: There are no longer any instances available with the requested specifications. Please refresh and try again.; trying the next candidate",
    );
  });

  it("403: skip the candidate", async () => {
    emu.control.setCapacity({ dataCenterId: "US-TX-3", gpuTypeId: A40, free: 5 });
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", status: 403, times: 1 });
    const res = await place();
    expect([(res.outs as PodOutputs).dataCenterId, count("POST /v2/pods")]).toEqual(["US-KS-2", 2]);
  });

  it("402: stop at once", async () => {
    emu.control.setSettings({ balanceExhausted: true });
    const err = await thrown(place());
    expect([count("POST /v2/pods"), err.message]).toEqual([
      1,
      "Pod trainer: The account balance is exhausted (402); no candidate can succeed, so placement stopped. Add funds and run again. Tried: US-TX-3 / NVIDIA A40: 402 Your balance is too low to create this pod. Add funds to continue..",
    ]);
    expect(progress).toEqual([
      "runpod Pod trainer: US-TX-3 / NVIDIA A40 answered 402: Your balance is too low to create this pod. Add funds to continue.; stopping: with the balance exhausted no candidate can succeed",
    ]);
  });

  it.each([
    ["404 (unknown template)", { templateId: "no-such-template", image: undefined }, 404],
    ["422 (serverless template)", { templateId: "runpod-worker-sdxl", image: undefined }, 422],
  ])("%s: fail without trying another candidate", async (_name, extra, status) => {
    const err = await thrown(place(extra as Partial<PodInputs>));
    expect([count("POST /v2/pods"), (err as { status?: number }).status]).toEqual([1, status]);
  });

  it("413 (body plus template too large): fail without trying another candidate, with the size the service gave", async () => {
    const tpl = await apiFor(emu).templates.create({
      name: "big",
      image: "img",
      env: { A: "a".repeat(60_000) },
    });
    const err = await thrown(place({ templateId: tpl.id, image: undefined, env: { B: "b".repeat(50_000) } }));
    expect([count("POST /v2/pods"), err.status, err.message]).toEqual([
      1,
      413,
      `Pod trainer: POST /v2/pods: 413 Payload Too Large: The request expanded with template '${tpl.id}' is 110264 bytes, over the 102400-byte limit. A pod create's body, and the request it expands to with its template, may each be 102400 bytes at most; reduce the JSON body, environment variables or command values in the request or the template.`,
    ]);
  });

  it("429: wait Retry-After and retry the same candidate", async () => {
    emu.control.setCapacity({ dataCenterId: "US-TX-3", gpuTypeId: A40, free: 5 });
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", status: 429, retryAfter: 2, times: 1 });
    const res = await place();
    expect([(res.outs as PodOutputs).dataCenterId, count("POST /v2/pods")]).toEqual(["US-TX-3", 2]);
    // The retry went out only after Retry-After (2 s) had passed, in the emulator's time.
    const [refused, retried] = emu.control.requests().entries.filter((e) => e.route === "POST /v2/pods");
    expect([refused?.status, retried?.status]).toEqual([429, 201]);
    expect((retried?.at ?? 0) - (refused?.at ?? 0)).toBeGreaterThanOrEqual(2_000);
  });

  it("5xx: look the pod up by its create key, then retry the same candidate", async () => {
    emu.control.setCapacity({ dataCenterId: "US-TX-3", gpuTypeId: A40, free: 5 });
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", status: 503, times: 2 });
    const res = await place();
    expect([(res.outs as PodOutputs).dataCenterId, count("POST /v2/pods"), podsInEmulator().length]).toEqual([
      "US-TX-3",
      3,
      1,
    ]);
    // One look-up by create key after each 5xx, and one for a duplicate once both have settled;
    // the lone pod's wait then lists the pods once (are there pods of its kind on the account, to
    // say when it is due?) and reads GET /v2/pods/:id after.
    expect(count("GET /v2/pods")).toBe(4);
    // Progress says the same candidate is tried again, not the next.
    expect(progress.slice(0, 2).map((l) => l.replace(/in \d+\.\d s/, "in N s"))).toEqual([
      "runpod Pod trainer: US-TX-3 / NVIDIA A40 answered 503: Injected upstream failure.; no pod of it was found; trying US-TX-3 / NVIDIA A40 again in N s (retry 1 of 3)",
      "runpod Pod trainer: US-TX-3 / NVIDIA A40 answered 503: Injected upstream failure.; no pod of it was found; trying US-TX-3 / NVIDIA A40 again in N s (retry 2 of 3)",
    ]);
  });

  it("all 400 for capacity, in the service's words: every candidate is out of capacity", async () => {
    for (const dc of ["US-KS-2", "EU-RO-1"])
      emu.control.setCapacity({ dataCenterId: dc, gpuTypeId: A40, free: 0 });
    const err = await thrown(place());
    expect(err.message).toMatch(
      /^Pod trainer: Every candidate is out of capacity \("There are no longer any instances available[^"]*"\)\. Tried: US-TX-3 \/ NVIDIA A40, US-KS-2 \/ NVIDIA A40, EU-RO-1 \/ NVIDIA A40\. Add candidates .*placement\.retryFor/,
    );
    // The service's sentence once, not once per candidate.
    expect(err.message.split("There are no longer any instances available").length - 1).toBe(1);
    expect(count("POST /v2/pods")).toBe(3);
  });

  it("all 400 otherwise: report the last detail as a problem with the request", async () => {
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", status: 400 });
    const err = await thrown(place());
    expect(err.message).toMatch(
      /^Pod trainer: No candidate accepted the pod: every one answered 400\. A rule violation fails the same way on every candidate, so treat the last answer as a problem with the request: ".+"\. Tried: US-TX-3 \/ NVIDIA A40, US-KS-2 \/ NVIDIA A40, EU-RO-1 \/ NVIDIA A40: 400 /,
    );
    expect(count("POST /v2/pods")).toBe(3);
  });

  it("builds candidates from the catalog by region and availability, GPU fallbacks after gpu.id", async () => {
    emu.control.setCapacity({ dataCenterId: "EU-RO-1", gpuTypeId: A40, free: 0, availability: "HIGH" });
    const res = await Pod.create(inputs({ placement: { regions: ["EUROPE"], gpuTypeIds: ["NVIDIA L40S"] } }));
    // EU-RO-1/A40 (HIGH, but really full) fails, then EU-SE-1/L40S (LOW) is the only other European candidate.
    expect([
      (res.outs as PodOutputs).dataCenterId,
      (res.outs as PodOutputs).gpu?.id,
      count("GET /v2/catalog/datacenters"),
      count("POST /v2/pods"),
    ]).toEqual(["EU-SE-1", "NVIDIA L40S", 1, 2]);
  });
});

describe("a GPU type the catalog does not know", () => {
  it("is named with the nearest known ids instead of being dropped without a word", async () => {
    const res = await Pod.create(
      inputs({ placement: { regions: ["NORTH_AMERICA"], gpuTypeIds: ["NVIDIA GeForce RTX 4O90"] } }),
    );
    expect([(res.outs as PodOutputs).gpu?.id, progress[0]]).toEqual([
      A40,
      'runpod Pod trainer: placement.gpuTypeIds[0] "NVIDIA GeForce RTX 4O90" is not a GPU type the catalog knows (nearest: "NVIDIA GeForce RTX 4090", "NVIDIA RTX A5000"); no candidate can use it',
    ]);
  });

  it("when no candidate is left, the error names it", async () => {
    const err = await thrown(
      Pod.create(inputs({ gpu: { id: "NVIDIA A4O" }, placement: { regions: ["EUROPE"] } })),
    );
    expect(err.message).toContain(
      'gpu.id "NVIDIA A4O" is not a GPU type the catalog knows (nearest: "NVIDIA A40", "NVIDIA L4")',
    );
    expect(count("POST /v2/pods")).toBe(0);
  });
});

describe("placement ordered by price", () => {
  it("tries the cheapest GPU type with stock first, reading the GPU catalog for its prices", async () => {
    const placement = {
      regions: ["NORTH_AMERICA" as const],
      gpuTypeIds: ["NVIDIA A100 80GB PCIe", A40],
    };
    const byStock = await Pod.create(inputs({ gpu: { id: H100 }, placement }));
    const byPrice = await Pod.create(
      inputs({ gpu: { id: H100 }, placement: { ...placement, order: "price" } }),
    );
    const at = (r: { outs?: unknown }) => [
      (r.outs as PodOutputs).dataCenterId,
      (r.outs as PodOutputs).gpu?.id,
    ];
    // The seed: H100 $2.99, A100 $1.64 (the most stock, in US-TX-3), A40 $0.44 (none free in
    // US-TX-3, 12 in US-KS-2).
    expect([at(byStock), at(byPrice), count("GET /v2/catalog/gpus"), count("POST /v2/pods")]).toEqual([
      ["US-TX-3", "NVIDIA A100 80GB PCIe"],
      ["US-KS-2", A40],
      1,
      2,
    ]);
  });
});

describe("an unknown outcome never creates two pods", () => {
  it("a reset after the create took effect: found by name, not created again", async () => {
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "after", times: 1 });
    const res = await Pod.create(inputs());
    expect([podsInEmulator().map((p) => p.id), count("POST /v2/pods")]).toEqual([[res.id], 1]);
  });

  it("a reset before it took effect: nothing found, created once on retry", async () => {
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "before", times: 1 });
    const res = await Pod.create(inputs());
    expect([podsInEmulator().map((p) => p.id), count("POST /v2/pods")]).toEqual([[res.id], 2]);
  });

  it("does not adopt a same-named pod made a moment before: only its own create key tells", async () => {
    const other = await apiFor(emu).pods.create({ name: "trainer", image: "img:1", gpu: { id: A40 } });
    emu.control.addFault({ method: "POST", path: "^/v2/pods$", reset: "before", times: 1 });
    const res = await Pod.create(inputs());
    expect([res.id === other.id, podsInEmulator().length, count("POST /v2/pods")]).toEqual([false, 2, 3]);
  });
});

describe("a pod an interrupted run left", () => {
  // Create keys as two stacks' programs compute them for the same resource name.
  const MINE = "0123456789abcdef0123456789abcdef";
  const THEIRS = "fedcba9876543210fedcba9876543210";
  const leftWith = (key: string) =>
    apiFor(emu).pods.create({
      name: "trainer",
      image: "img:1",
      gpu: { id: A40 },
      env: { RUNPOD_DYNAMIC_CREATE_KEY: key },
    });

  it("carrying this resource's create key: taken over, nothing created", async () => {
    const left = await leftWith(MINE);
    emu.control.clearRequests();
    const res = await Pod.create(inputs({ __createKey: MINE } as Partial<PodInputs>));
    expect([res.id, count("POST /v2/pods"), progress[0]]).toEqual([
      left.id,
      0,
      `runpod Pod trainer: taking over pod ${left.id} (PROVISIONING), created by an interrupted run`,
    ]);
  });

  it("carrying another stack's key for the same name: left alone, even when it differs", async () => {
    const theirs = await leftWith(THEIRS);
    const res = await Pod.create(
      inputs({ __createKey: MINE, gpu: { id: A40, count: 2 } } as Partial<PodInputs>),
    );
    expect([
      res.id === theirs.id,
      podsInEmulator()
        .map((p) => p.id)
        .sort(),
      progress.filter((l) => /taking over|interrupted run/.test(l)),
    ]).toEqual([false, [theirs.id, res.id].sort(), []]);
  });

  it("a create given no key resumes nothing: a pod with any key stays another's", async () => {
    const left = await leftWith(MINE);
    const res = await Pod.create(inputs());
    expect([res.id === left.id, progress.filter((l) => /taking over|interrupted run/.test(l))]).toEqual([
      false,
      [],
    ]);
  });
});

describe("a pod that fails after the API accepted it", () => {
  it("ERROR: terminated, and the error names the pod id and its last status", async () => {
    emu.control.setSettings({ errorShare: 1 });
    const err = await thrown(Pod.create(inputs()));
    const id = /pod (\w+) did not become ready/.exec(err.message)?.[1];
    expect(err.message).toBe(
      `Pod trainer: pod ${id} did not become ready (pod ${id} went to ERROR; last status ERROR). It was terminated so it does not bill; set onCreateFailure: "keep" to keep a failed pod for inspection.`,
    );
    expect([err.id, podsInEmulator()]).toEqual([undefined, []]);
  });

  it("a timeout: terminated, named with its last status", async () => {
    emu.control.setSettings({ provisioningMs: 3_600_000 });
    const err = await thrown(Pod.create(inputs({ timeouts: { create: 30 } })));
    expect(err.message).toMatch(
      /^Pod trainer: pod \w+ did not become ready \(pod \w+ did not reach RUNNING within timeouts\.create \(30 s\); last status PROVISIONING\)\. It was terminated/,
    );
    expect(podsInEmulator()).toEqual([]);
  });

  it("kept when asked: a partial failure carrying the id and outputs, so state records it", async () => {
    emu.control.setSettings({ errorShare: 1 });
    const err = await thrown<{ id?: string; properties?: PodOutputs }>(
      Pod.create(inputs({ onCreateFailure: "keep" })),
    );
    expect([typeof err.id, err.properties?.status, podsInEmulator().map((p) => p.id)]).toEqual([
      "string",
      "ERROR",
      [err.id],
    ]);
    expect(err.message).toContain(`pod ${err.id} was created but did not become ready`);
  });

  it("when terminating fails too: a partial failure, never a lost pod", async () => {
    emu.control.setSettings({ errorShare: 1 });
    emu.control.addFault({ method: "DELETE", path: "^/v2/pods/", status: 500 });
    const err = await thrown(Pod.create(inputs()));
    expect([typeof err.id, podsInEmulator().map((p) => p.id)]).toEqual(["string", [err.id]]);
    expect(err.message).toMatch(
      /terminating it failed too .* It is recorded in state; run `pulumi destroy` or delete pod \w+ in the RunPod console/,
    );
  });
});

describe("waiting pods share one watcher", () => {
  it.each([1, 20])("%i concurrent creates: one list request serves all waiting pods", async (n) => {
    const started = emu.control.now();
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => Pod.create(inputs({ name: `w${i}` }))),
    );
    const { byRoute, byStatus } = emu.control.requests().summary;
    const list = byRoute["GET /v2/pods"] ?? 0;
    const single = byRoute["GET /v2/pods/:id"] ?? 0;
    expect(results.every((r) => (r.outs as PodOutputs).status === "RUNNING")).toBe(true);
    expect([byRoute["POST /v2/pods"], byStatus["429"]]).toEqual([n, undefined]);
    // One read per second of emulator time at most (the minimum interval), whatever the number of
    // pods; the wait lasts longer than the pods' 5 s when the machine is busy, so it is measured.
    const seconds = (emu.control.now() - started) / 1000;
    expect(list + single).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    // Many waiting pods are read with the list; a single read is for a pod left waiting alone, which
    // happens more than once on a busy machine, where the pods finish apart: never one per pod. A
    // lone pod is read by id, but for one list read that looks for pods of its kind on the account.
    if (n > 1) expect(single).toBeLessThan(n / 4);
    else expect(list).toBe(1);
  });

  it("learns how long a kind of pod takes to start and reads the next one of that kind less", async () => {
    const reads = () => count("GET /v2/pods/:id") + count("GET /v2/pods");
    await Pod.create(inputs({ name: "first" }));
    const first = reads();
    await Pod.create(inputs({ name: "second" }));
    const second = reads() - first;
    // The first is read every two seconds until RUNNING; the second only once it is due.
    expect(second).toBeGreaterThanOrEqual(1);
    expect(second).toBeLessThan(first);
    // Another kind (another image) is not predicted by the first: read every two seconds again.
    const before = reads();
    await Pod.create(inputs({ name: "third", image: "img:2" }));
    expect(reads() - before).toBeGreaterThanOrEqual(first - 1);
  });
});

describe("a pod of a kind nobody runs: its log says when it starts", () => {
  it("is read when its log says the container started, not every few seconds before", async () => {
    // Placed after 2 s, RUNNING 45 s later: between the reads for failures, 30 s apart.
    emu.control.setSettings({ startingMs: 45_000 });
    const res = await Pod.create(inputs({ readiness: { settle: 0 } }));
    const runningAt = emu.control.snapshot().pods.find((p) => p.id === res.id)?.runningAt ?? 0;
    const reads = emu.control
      .requests()
      .entries.filter((e) => e.route === "GET /v2/pods/:id" || e.route === "GET /v2/pods");
    const sawIt = reads.find((e) => e.at >= runningAt);
    // Every 2 s, as a kind never seen is read without its log, is 24 reads; here one list read (are
    // pods of its kind on the account?), one or two for failures, and the one the log called for,
    // well before the next read for failures would have seen it.
    expect([
      count("GET /v2/pods/:id/logs"),
      reads.length <= 4,
      (sawIt?.at ?? Infinity) - runningAt < 10_000,
    ]).toEqual([1, true, true]);
  });

  it("is read every few seconds when the log cannot be read (no log route)", async () => {
    emu.control.setSettings({ startingMs: 45_000 });
    emu.control.addFault({ path: "^/v2/pods/[^/]+/logs$", status: 404 });
    await Pod.create(inputs({ readiness: { settle: 0 } }));
    expect(count("GET /v2/pods/:id") + count("GET /v2/pods")).toBeGreaterThanOrEqual(20);
  });
});

describe("creates the engine paces, counted by the host", () => {
  const warnings = () => progress.filter((l) => l.startsWith("warning: the engine, not the API quota"));
  const engineCheck = (news: PodInputs) => Pod.check({} as PodInputs, news);

  it("pods the engine checked together and then created one at a time: one warning", async () => {
    const pods = ["a", "b", "c", "d"].map((name) => inputs({ name, waitFor: "NONE" }));
    for (const pod of pods) await engineCheck(pod);
    for (const pod of pods) await Pod.create(pod);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain("it runs at most 1 operation at once");
  });

  it("a check that failed and an adopted pod leave no create waiting: each pod checked just before its create, no warning", async () => {
    const failed = await engineCheck(inputs({ gpu: { id: A40, count: 0 } }));
    expect(failed.failures?.length).toBeGreaterThan(0);
    const existing = await apiFor(emu).pods.create({ name: "old-name", image: "img:1", gpu: { id: A40 } });
    await engineCheck(inputs({ adoptId: existing.id }));
    await Pod.create(inputs({ adoptId: existing.id }));
    for (const name of ["a", "b", "c"]) {
      await engineCheck(inputs({ name, waitFor: "NONE" }));
      await Pod.create(inputs({ name, waitFor: "NONE" }));
    }
    expect(warnings()).toEqual([]);
  });
});

describe("update", () => {
  it("changes a mount path with full entries and waits for RUNNING after the restart", async () => {
    const mounts = { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] };
    const created = await Pod.create(inputs({ gpu: { id: H100 }, mounts }));
    const news = inputs({
      gpu: { id: H100 },
      mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] },
      image: "img:2",
    });
    const updated = await Pod.update(created.id, created.outs as PodOutputs, news);
    const outs = updated.outs as PodOutputs;
    expect([outs.mounts, outs.image, outs.status]).toEqual([
      { network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] },
      "img:2",
      "RUNNING",
    ]);
    expect(progress.slice(-2).map((l) => l.replace(/\(\d+s\)$/, "(Ns)"))).toEqual([
      `runpod Pod trainer: ${created.id} STARTING -> RUNNING (Ns)`,
      `runpod Pod trainer: ${created.id} RUNNING; waiting 30 s to see it stay up (readiness.settle)`,
    ]);
  });

  it("replaces env without dropping what the service injected", async () => {
    await apiFor(emu).sshKeys.put(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK demo"]);
    const created = await Pod.create(inputs({ env: { A: "1", B: "2" }, startSsh: true }));
    const updated = await Pod.update(
      created.id,
      created.outs as PodOutputs,
      inputs({ env: { A: "9" }, startSsh: true }),
    );
    const live = await apiFor(emu).pods.get(created.id);
    expect([(updated.outs as PodOutputs).env, live.env]).toEqual([
      { A: "9" },
      {
        A: "9",
        PUBLIC_KEY: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK demo",
        // The create key stays on the pod: it is how its stack tells it from others.
        RUNPOD_DYNAMIC_CREATE_KEY: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
    ]);
  });

  it("says that a globalNetworking change waits for the next start", async () => {
    const created = await Pod.create(inputs({ gpu: { id: H100 }, dataCenterIds: ["US-TX-3"] }));
    const updated = await Pod.update(
      created.id,
      created.outs as PodOutputs,
      inputs({ gpu: { id: H100 }, dataCenterIds: ["US-TX-3"], globalNetworking: true }),
    );
    const outs = updated.outs as PodOutputs;
    expect([outs.requestedGlobalNetworking, outs.globalNetworking.enabled]).toEqual([true, false]);
    expect(progress).toContain(
      `runpod Pod trainer: ${created.id}: the globalNetworking change takes effect at the pod's next start or restart`,
    );
  });
});

describe("read (refresh)", () => {
  it("shows an out-of-band change in both outputs and inputs, so the next diff sees the drift", async () => {
    const created = await Pod.create(inputs({ env: { A: "1" } }));
    await apiFor(emu).pods.update(created.id, { image: "img:drift", env: { A: "changed", EXTRA: "x" } });
    const read = await Pod.read(created.id, created.outs as PodOutputs);
    const props = read.props as PodOutputs;
    const again = Pod.diff(created.id, props, inputs({ env: { A: "1" } }));
    expect([read.id, props.image, props.env, (read.inputs as unknown as PodInputs).image]).toEqual([
      created.id,
      "img:drift",
      { A: "changed" },
      "img:drift",
    ]);
    expect(await again).toEqual({
      changes: true,
      replaces: [],
      updates: ["image", "env"],
      deleteBeforeReplace: false,
    });
  });

  it("returns no id for a pod deleted out of band", async () => {
    const created = await Pod.create(inputs());
    await apiFor(emu).pods.delete(created.id);
    expect(await Pod.read(created.id, created.outs as PodOutputs)).toEqual({});
  });

  it("reads a pod for Pod.get from the program's inputs alone", async () => {
    const existing = await apiFor(emu).pods.create({
      name: "seen",
      image: "img:1",
      gpu: { id: A40 },
      env: { K: "v" },
      startJupyter: true,
    });
    const read = await Pod.read(existing.id, { name: "seen" } as unknown as PodOutputs);
    expect([(read.props as PodOutputs).name, (read.props as PodOutputs).env]).toEqual(["seen", { K: "v" }]);
  });
});

describe("delete", () => {
  it("deletes, waits until gone, and treats a second delete (404) as success", async () => {
    const created = await Pod.create(inputs());
    await Pod.delete(created.id, created.outs as PodOutputs);
    await Pod.delete(created.id, created.outs as PodOutputs);
    expect([podsInEmulator(), count("DELETE /v2/pods/:id")]).toEqual([[], 2]);
  });

  it("explains a locked pod", async () => {
    const created = await Pod.create(inputs({ locked: true }));
    const err = await thrown(Pod.delete(created.id, created.outs as PodOutputs));
    expect(err.message).toMatch(
      new RegExp(
        `^Pod trainer: pod ${created.id} cannot be deleted: it is locked; set locked: false and run \`pulumi up\` first, then destroy\\.`,
      ),
    );
  });

  it("explains a cluster member", async () => {
    const err = await thrown(
      Pod.delete("clu-demo-ray-node0", {
        name: "n0",
        cluster: { id: "clu-demo-ray", rank: 0, role: null, ip: null },
      } as PodOutputs),
    );
    expect(err.message).toMatch(
      /^Pod n0: pod clu-demo-ray-node0 cannot be deleted: it belongs to cluster clu-demo-ray; delete the cluster through \/v2\/clusters\/clu-demo-ray\./,
    );
  });
});

describe("the create body's 102400 bytes: the check, the client and the emulator agree", () => {
  // Inputs whose body as the provider sends it (the create key of 32 hex digits in env included)
  // is `bytes` long; "é" is two bytes.
  const sized = (bytes: number) =>
    paddedTo(
      bytes,
      (pad) => inputs({ waitFor: "NONE", env: { ACCENT: "é", PAD: pad } }),
      (i) =>
        jsonBytes({
          name: i.name,
          image: i.image,
          gpu: i.gpu,
          env: { ...i.env, RUNPOD_DYNAMIC_CREATE_KEY: "0".repeat(32) },
        }),
    );

  it("exactly 102400 bytes: the check passes and the emulator creates the pod (201)", async () => {
    const pod = sized(POD_REQUEST_LIMIT);
    const checked = await Pod.check({} as PodInputs, pod);
    const res = await Pod.create(pod);
    const posts = emu.control.requests().entries.filter((e) => e.route === "POST /v2/pods");
    expect([checked.failures, posts.map((e) => e.status), (res.outs as PodOutputs).env.PAD?.length]).toEqual([
      undefined,
      [201],
      pod.env?.PAD?.length,
    ]);
  });

  it("102401 bytes: the check fails naming the size, and a create regardless is refused unsent", async () => {
    const pod = sized(POD_REQUEST_LIMIT + 1);
    const checked = await Pod.check({} as PodInputs, pod);
    const err = await thrown<{ code?: string; outcome?: string }>(Pod.create(pod));
    expect([checked.failures, err.code, err.outcome, err.message, emu.control.requests().entries]).toEqual([
      [
        {
          property: "env",
          reason:
            "the create body would be 102401 bytes as sent (the create key in env included), over the API's 102400-byte limit; reduce env, args or other large values",
        },
      ],
      "RUNPOD_PAYLOAD_TOO_LARGE",
      "not-sent",
      expect.stringContaining(
        "POST /v2/pods: the request body is 102401 bytes, over the 102400-byte limit; it was not sent.",
      ),
      [],
    ]);
  });
});
