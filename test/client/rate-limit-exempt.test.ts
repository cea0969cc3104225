/**
 * A rate-limit-exempt caller (docs/api-model.md, Limits: `RateLimit` and `RateLimit-Policy` are "omitted for
 * rate-limit-exempt callers") against the emulator's exempt key: the client's budget
 * (provider/client/rate-limit.ts) learns no window, so requests flow without waiting, and a 429
 * that still comes is honoured through its Retry-After. The client's clock records its waits and
 * returns at once, so nothing here sleeps.
 */
import { afterEach, describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { RecordingClock } from "../support/fake-clock.js";
import { raw } from "../support/http.js";

const { RunpodApi, RunpodClient, RateLimitBudget, resolveSettings } = clientLib;
/** Requests before the slow start lets the budget send without waiting for answers. */
const SLOW_START_WAIT_MS = 25;

let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

/** An emulator whose counted keys get 3 requests a minute, on a frozen clock. */
async function tightEmulator(): Promise<RunningEmulator> {
  emu = await emulatorLib.startEmulator({
    clockScale: 0,
    rateLimit: [{ name: "minute", quota: 3, seconds: 60 }],
  });
  return emu;
}

function clientFor(e: RunningEmulator, key: string) {
  const clock = new RecordingClock();
  const budget = new RateLimitBudget(clock);
  const settings = resolveSettings(() => undefined, { ...e.env(), RUNPOD_API_KEY: key });
  const api = new RunpodApi(
    new RunpodClient(settings, {
      clock,
      budget,
      retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false },
    }),
  );
  return { api, clock, budget };
}

describe("a rate-limit-exempt key", () => {
  it("gets no RateLimit headers and no quota, where a counted key gets both", async () => {
    const e = await tightEmulator();
    const url = `${e.baseUrl}/v2/pods`;
    const exempt = [];
    for (let i = 0; i < 5; i += 1) exempt.push(await raw(url, { key: emulatorLib.EXEMPT_API_KEY }));
    const counted = [];
    for (let i = 0; i < 4; i += 1) counted.push(await raw(url));
    expect(
      exempt.map((r) => [r.status, r.headers.get("ratelimit"), r.headers.get("ratelimit-policy")]),
    ).toEqual(Array.from({ length: 5 }, () => [200, null, null]));
    expect(counted.map((r) => [r.status, r.headers.get("ratelimit")])).toEqual([
      [200, '"minute";r=2;t=60'],
      [200, '"minute";r=1;t=60'],
      [200, '"minute";r=0;t=60'],
      [429, '"minute";r=0;t=60'],
    ]);
  });

  it("lets the client's requests flow one after another without a wait, its budget knowing no window", async () => {
    const e = await tightEmulator();
    const { api, clock, budget } = clientFor(e, emulatorLib.EXEMPT_API_KEY);
    const answers = [];
    for (let i = 0; i < 20; i += 1) answers.push(await api.pods.list());
    expect([answers.length, clock.sleeps, budget.snapshot()]).toEqual([
      20,
      [],
      { windows: [], pausedForMs: 0, inFlight: 0 },
    ]);
  });

  it("lets many requests at once through: only the slow start spaces the first of them, nothing stalls", async () => {
    const e = await tightEmulator();
    const { api, clock, budget } = clientFor(e, emulatorLib.EXEMPT_API_KEY);
    const answers = await Promise.all(Array.from({ length: 40 }, () => api.pods.list()));
    expect([answers.length, [...new Set(clock.sleeps)], budget.snapshot().windows]).toEqual([
      40,
      [SLOW_START_WAIT_MS],
      [],
    ]);
    expect(e.control.requests().summary).toEqual({
      total: 40,
      byRoute: { "GET /v2/pods": 40 },
      byStatus: { 200: 40 },
    });
  });

  it("honours a 429's Retry-After, then goes on without waiting", async () => {
    const e = await tightEmulator();
    e.control.addFault({ method: "GET", path: "^/v2/pods$", status: 429, retryAfter: 2, times: 1 });
    const { api, clock, budget } = clientFor(e, emulatorLib.EXEMPT_API_KEY);
    await api.pods.list();
    await api.pods.list();
    expect([
      clock.sleeps,
      budget.snapshot().pausedForMs,
      e.control.requests().entries.map((r) => r.status),
    ]).toEqual([[2000], 0, [429, 200, 200]]);
  });
});
