/**
 * Room for the neighbours (docs/decisions.md): our client drains the emulator's per-user minute
 * window with list reads while another caller on the same key, which knows nothing of ours (plain
 * `fetch`, no budget), reads `GET /v2/pods` every 10 s of emulator time as a notebook or runpodctl
 * in a loop would. The budget leaves the share of each window the settings give to others
 * (provider/client/rate-limit.ts): with the default tenth the neighbour meets no 429; leaving
 * nothing, it does. The emulator's clock runs 20 times faster than real time.
 */
import { afterEach, describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { emulatorClock } from "../support/provider.js";

const { RunpodApi, RunpodClient, RateLimitBudgets, resolveSettings } = clientLib;

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** Our requests: enough to need three minute windows at 60 a minute. */
const OURS = 150;
/** How many of ours are in flight at once, as a fleet's creates would be. */
const CONCURRENCY = 8;
const NEIGHBOUR_EVERY_MS = 10_000;

/** Our list reads and the neighbour's until ours are done: the neighbour's answers and ours, by status. */
async function drainBesideANeighbour(share: string | undefined) {
  emu = await emulatorLib.startEmulator({ clockScale: 20 });
  const e = emu;
  const clock = emulatorClock(e);
  const settings = resolveSettings((k) => (k === "runpod:quotaShareForOthers" ? share : undefined), e.env());
  const api = new RunpodApi(
    new RunpodClient(settings, {
      clock,
      budgets: new RateLimitBudgets(clock, settings.quotaShareForOthers),
      retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false },
    }),
  );
  const neighbour: number[] = [];
  let done = false;
  const reader = (async () => {
    while (!done) {
      const res = await fetch(`${e.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${e.apiKey}` } });
      await res.arrayBuffer();
      neighbour.push(res.status);
      await clock.sleep(NEIGHBOUR_EVERY_MS);
    }
  })();
  const started = clock.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < OURS) {
        next += 1;
        await api.pods.list();
      }
    }),
  );
  const minutes = (clock.now() - started) / 60_000;
  done = true;
  await reader;
  const all = e.control.requests().summary.byStatus;
  return { neighbour, minutes, all429: all["429"] ?? 0 };
}

describe("a neighbour on the same key, reading every 10 s", () => {
  it("meets no 429 while our client takes what the windows leave, a tenth of each left to it by default", async () => {
    const { neighbour, minutes, all429 } = await drainBesideANeighbour(undefined);
    // Ours needed its three windows (54 of each), and the neighbour kept reading through them.
    expect(minutes).toBeGreaterThan(2);
    expect(neighbour.length).toBeGreaterThanOrEqual(12);
    expect([neighbour.filter((s) => s !== 200), all429]).toEqual([[], 0]);
  });

  it("meets 429s when our client leaves nothing (quotaShareForOthers 0)", async () => {
    const { neighbour } = await drainBesideANeighbour("0");
    expect(neighbour.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
