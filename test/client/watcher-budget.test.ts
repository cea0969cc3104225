/**
 * The pod watcher and the rate-limit budget together, against a scripted server on a manual clock:
 * when the watcher reads next depends on when its last read was answered.
 */
import { afterEach, describe, expect, it } from "vitest";
import { clientLib, loadDist } from "../support/dist.js";
import { ManualClock } from "../support/fake-clock.js";
import { json, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";

const { RunpodClient, RunpodApi, resolveSettings, RateLimitBudget } = clientLib;
const { PodWatcher } = loadDist<typeof import("../../provider/host/watcher.js")>("provider/host/watcher.js");

const POLICY = '"minute";q=60;w=60';
const pod = (id: string, status = "PROVISIONING") => ({
  id,
  name: id,
  status,
  actions: ["terminate"],
  image: "img:1",
  args: "",
  disk: 20,
  mounts: {},
  ports: [],
  env: {},
  registry: null,
  gpu: { id: "NVIDIA A40", count: 1, vcpuCount: 8, memory: 48 },
  cloud: "SECURE",
  dataCenterId: null,
  cudaVersion: null,
  ssh: { proxy: null, direct: null },
  template: null,
  cost: 0.4,
  locked: false,
  globalNetworking: { enabled: false },
  runtime: null,
  createdAt: "2026-11-21T00:00:00Z",
  startedAt: null,
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A watcher reading the scripted server through a client on `clock` and `budget`. */
function watcherOf(clock: ManualClock, budget: InstanceType<typeof RateLimitBudget>) {
  const settings = resolveSettings(
    (k) => ({ "runpod:apiKey": "rpa_TEST", "runpod:baseUrl": server?.url })[k],
    {},
  );
  return new PodWatcher(new RunpodApi(new RunpodClient(settings, { clock, budget })), clock, budget);
}

/** Lets I/O and the watcher's loop run until `done` holds (an event, not a span of time). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setImmediate(r));
}

describe("the watcher's reads and the budget", () => {
  it("counts a read the budget held until the window's reset as made when answered", async () => {
    // Two pods still provisioning, every read: the watcher reads on until the test ends.
    server = await startScriptedServer(() =>
      json(
        200,
        { pods: [pod("pod-1"), pod("pod-2")] },
        {
          ratelimit: '"minute";r=59;t=60',
          "ratelimit-policy": POLICY,
        },
      ),
    );
    const clock = new ManualClock(0);
    const budget = new RateLimitBudget(clock);
    for (let i = 0; i < 32; i += 1) budget.observe({});
    // The window is spent until 30 s from now.
    budget.observe({ rateLimit: '"minute";r=0;t=30', policy: POLICY });
    const watcher = watcherOf(clock, budget);
    const statuses: string[] = [];
    const waits = ["pod-1", "pod-2"].map((podId) =>
      watcher
        .waitFor({ podId, target: "RUNNING", timeoutMs: 600_000, onStatus: (st) => statuses.push(st) })
        .catch(() => undefined),
    );
    // Its first read is due at the longest interval, 10 s; the budget holds it until the reset.
    await until(() => clock.wakes().length > 0);
    expect(clock.wakes()).toEqual([10_000]);
    await clock.advance(10_000);
    await until(() => clock.wakes().includes(30_000));
    expect(server.requests).toHaveLength(0);
    await clock.advance(20_000);
    await until(() => server?.requests.length === 1 && clock.wakes().length > 0);
    // Answered at 30 s with 59 left: the next read is what the budget affords after it (60 s over
    // 48 requests: six left to the key's other callers, five kept for creates), not at once for a
    // read "made" at 10 s.
    expect([statuses, clock.wakes()]).toEqual([["PROVISIONING", "PROVISIONING"], [30_000 + 60_000 / 48]]);
    watcher.close();
    await Promise.all(waits);
  });

  it("shared with another caller, reads at the shared interval and follows up only on a wait that ended", async () => {
    const clock = new ManualClock(0);
    // 30 left of a window that resets at 60 s, whatever the time of the answer.
    const headers = () => ({
      ratelimit: `"minute";r=30;t=${Math.ceil((60_000 - clock.now()) / 1000)}`,
      "ratelimit-policy": POLICY,
    });
    // The first read finds the pods provisioning, the next ones starting: a change, no wait ended.
    server = await startScriptedServer(
      (n) => (req, res, body) =>
        json(
          200,
          {
            pods: [
              pod("pod-1", n === 0 ? "PROVISIONING" : "STARTING"),
              pod("pod-2", n === 0 ? "PROVISIONING" : "STARTING"),
            ],
          },
          headers(),
        )(req, res, body),
    );
    // Nothing left to others: whatever the headers show beyond ours is another deployment's.
    const budget = new RateLimitBudget(clock, 0);
    for (let i = 0; i < 32; i += 1) budget.observe({});
    // Headers showing twice as many used as we sent: another caller on the key.
    budget.observe({ rateLimit: '"minute";r=50;t=60', policy: POLICY });
    for (const [ours, left] of [
      [5, 40],
      [4, 30],
    ] as const) {
      for (let i = 0; i < ours; i += 1) (await budget.acquire()).release();
      budget.observe({ rateLimit: `"minute";r=${left};t=60`, policy: POLICY });
    }
    expect(budget.shared()).toBe(true);
    const watcher = watcherOf(clock, budget);
    const statuses: string[] = [];
    const waits = ["pod-1", "pod-2"].map((podId) =>
      watcher
        .waitFor({ podId, target: "RUNNING", timeoutMs: 600_000, onStatus: (st) => statuses.push(st) })
        .catch(() => undefined),
    );
    // Pods of a kind never seen arrive: every 20 s, though the budget would afford one in 2.4 s.
    await until(() => clock.wakes().length > 0);
    expect(clock.wakes()).toEqual([20_000]);
    await clock.advance(20_000);
    await until(() => server?.requests.length === 1 && clock.wakes().length > 0);
    expect(clock.wakes()).toEqual([40_000]);
    // The second read sees both pods move on to STARTING: no follow-up 400 ms later.
    await clock.advance(20_000);
    await until(() => server?.requests.length === 2 && clock.wakes().length > 0);
    expect([statuses, clock.wakes()]).toEqual([
      ["PROVISIONING", "PROVISIONING", "STARTING", "STARTING"],
      [60_000],
    ]);
    watcher.close();
    await Promise.all(waits);
  });

  it("plans reads of a kind never seen at the backlog first-of-kind interval while creates wait for room", async () => {
    server = await startScriptedServer(() =>
      json(
        200,
        { pods: [pod("pod-1"), pod("pod-2")] },
        { ratelimit: '"minute";r=40;t=60', "ratelimit-policy": POLICY },
      ),
    );
    const clock = new ManualClock(0);
    const budget = new RateLimitBudget(clock);
    for (let i = 0; i < 32; i += 1) budget.observe({});
    budget.observe({ rateLimit: '"minute";r=40;t=60', policy: POLICY });
    const watcher = watcherOf(clock, budget);
    const waits = ["pod-1", "pod-2"].map((podId) =>
      watcher
        .waitFor({ podId, target: "RUNNING", timeoutMs: 600_000, kind: "img:1 NVIDIA A40 " })
        .catch(() => undefined),
    );
    const now = clock.now();
    // Alone and nothing waiting, its reads go as often as the budget affords: no plan to hold.
    expect([budget.backlogged(), watcher.plannedReads(now, now + 60_000)]).toEqual([
      false,
      Number.POSITIVE_INFINITY,
    ]);
    // 40 creates, more than the 34 of the window left to this process (6 stay for the others).
    for (let i = 0; i < 40; i += 1) void budget.acquire().then((t) => t.release());
    await until(() => budget.backlogged());
    // Every 10 s to the window's reset: the reads at 10, 20, ..., 50 s.
    expect(watcher.plannedReads(now, now + 60_000)).toBe(5);
    watcher.close();
    await Promise.all(waits);
  });
});
