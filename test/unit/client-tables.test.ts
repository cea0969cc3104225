import { describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import { ManualClock, RecordingClock } from "../support/fake-clock.js";

const {
  parseRateLimitHeaders,
  RateLimitBudget,
  RateLimitBudgets,
  ERROR_CODES,
  RunpodApiError,
  retryDecision,
  DEFAULT_RETRY,
  resolveSettings,
  requireApiKey,
  adviceFor,
  isRunpodApiError,
  isTransient,
  isUnanswered,
  mayHaveLanded,
} = clientLib;

describe("parseRateLimitHeaders", () => {
  it.each([
    [
      "all three windows",
      '"minute";r=0;t=12, "hour";r=2990;t=3400, "day";r=49990;t=86000',
      '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400',
      [
        { name: "minute", quota: 60, windowSeconds: 60, remaining: 0, resetSeconds: 12 },
        { name: "hour", quota: 3000, windowSeconds: 3600, remaining: 2990, resetSeconds: 3400 },
        { name: "day", quota: 50000, windowSeconds: 86400, remaining: 49990, resetSeconds: 86000 },
      ],
    ],
    [
      "tokens instead of strings",
      "minute;r=5;t=1",
      undefined,
      [{ name: "minute", remaining: 5, resetSeconds: 1 }],
    ],
    ["policy only", undefined, '"minute";q=60;w=60', [{ name: "minute", quota: 60, windowSeconds: 60 }]],
    ["a malformed header is ignored", '"minute";r=', undefined, []],
    ["a negative count is dropped", '"minute";r=-1;t=5', undefined, [{ name: "minute", resetSeconds: 5 }]],
    [
      "unknown parameters are ignored",
      '"minute";r=3;t=4;x=9',
      undefined,
      [{ name: "minute", remaining: 3, resetSeconds: 4 }],
    ],
    ["neither header", undefined, undefined, []],
  ])("%s", (_name, rateLimit, policy, expected) => {
    expect([...parseRateLimitHeaders(rateLimit, policy).values()]).toEqual(expected);
  });
});

/** These rows are about the rest of the budget: nothing left to other callers (the share has rows of its own). */
const NOTHING_LEFT = 0;

describe("RateLimitBudget", () => {
  const POLICY = '"minute";q=60;w=60';
  /** Answers without headers: past the first answers' ramp-up, so requests may go out together. */
  const pastRampUp = (budget: InstanceType<typeof RateLimitBudget>) => {
    for (let i = 0; i < 32; i += 1) budget.observe({});
  };

  it("lets requests through at once while plenty is left", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    budget.observe({ rateLimit: '"minute";r=50;t=30', policy: POLICY });
    for (let i = 0; i < 10; i += 1) (await budget.acquire()).release();
    expect(clock.sleeps).toEqual([]);
    expect(budget.snapshot().windows[0]?.remaining).toBe(40);
  });

  it("spreads the last part of a window evenly for background requests only", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    budget.observe({ rateLimit: '"minute";r=10;t=30', policy: POLICY }); // low water is 12
    (await budget.acquire(undefined, "background")).release();
    (await budget.acquire(undefined, "background")).release();
    // first grant goes at once; the second waits 30 s / 9 left
    expect(clock.sleeps).toEqual([3333]);
    (await budget.acquire()).release();
    (await budget.acquire()).release();
    // foreground requests (creates, deletes) are not held back while the quota has room
    expect(clock.sleeps).toEqual([3333]);
  });

  it("waits for the reset at zero, then uses the policy's quota", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    budget.observe({ rateLimit: '"minute";r=0;t=7', policy: POLICY });
    (await budget.acquire()).release();
    expect([clock.sleeps, budget.snapshot().windows[0]?.remaining]).toEqual([[7000], 59]);
  });

  it("pauses every request after a Retry-After", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=0;t=4', policy: POLICY });
    budget.pauseFor(4);
    await Promise.all([budget.acquire(), budget.acquire()].map((p) => p.then((t) => t.release())));
    // Both wait out the pause; then the window's first request goes alone (its ramp-up, below).
    expect(clock.sleeps.slice(0, 2)).toEqual([4000, 4000]);
  });

  it("counts other requests in flight against the remaining count", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=40;t=60', policy: POLICY });
    const tickets = [await budget.acquire(), await budget.acquire(), await budget.acquire()];
    budget.observe({ rateLimit: '"minute";r=30;t=60', policy: POLICY });
    expect(budget.snapshot().windows[0]?.remaining).toBe(28);
    for (const t of tickets) t.release();
  });

  it("lets one request probe an unknown quota before the rest go out", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    const first = await budget.acquire();
    const events: string[] = [];
    const second = budget.acquire().then((ticket) => {
      events.push("second granted");
      return ticket;
    });
    await new Promise((r) => setImmediate(r));
    expect(clock.sleeps.length).toBeGreaterThan(0);
    // Still held after several more of its waits, until the probe's answer is seen.
    for (let i = 0; i < 5; i += 1) await new Promise((r) => setImmediate(r));
    expect(events).toEqual([]);
    expect(clock.sleeps.length).toBeGreaterThan(1);
    events.push("probe answered");
    budget.observe({ rateLimit: '"minute";r=59;t=60', policy: POLICY });
    first.release();
    (await second).release();
    expect(budget.snapshot().windows[0]?.remaining).toBe(58);
    expect(events).toEqual(["probe answered", "second granted"]);
  });

  /** Moves `clock` on by `ms` a request's wait for an answer at a time, so held requests look again. */
  const waitOut = async (clock: InstanceType<typeof ManualClock>, ms: number) => {
    for (let t = 0; t < ms; t += 25) await clock.advance(25);
  };

  it("leaves the watcher's planned reads to it when the queue is bigger than the window", async () => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=0;t=5', policy: '"minute";q=20;w=60' });
    let planned = 3;
    budget.setBackgroundReader({ plannedReads: () => planned });
    let granted = 0;
    const queue = Array.from({ length: 30 }, () =>
      budget.acquire().then((t) => {
        granted += 1;
        t.release();
      }),
    );
    // The fresh window of 20 ramps up (no answers here: one in flight at a time); 16 go, 4 stay for
    // the watcher's 3 reads and a margin (up to its share, a fifth of 20) while 14 creates wait.
    await clock.advance(5000);
    await waitOut(clock, 1000);
    expect([granted, budget.snapshot().windows[0]]).toMatchObject([16, { remaining: 4, held: 4 }]);
    (await budget.acquire(undefined, "background")).release();
    planned = 2;
    await clock.advance(1000);
    expect([granted, budget.snapshot().windows[0]?.remaining]).toEqual([16, 3]);
    // The watcher needs less: the held-back creates look again within a second and take it (still
    // one at a time, no answer having come in this window).
    planned = 0;
    await clock.advance(1000);
    await waitOut(clock, 100);
    expect([granted, budget.snapshot().windows[0]?.remaining]).toEqual([19, 0]);
    budget.setBackgroundReader(undefined);
    await clock.advance(60_000);
    await waitOut(clock, 1000);
    await Promise.all(queue);
    expect(granted).toBe(30);
  });

  it("holds nothing back from a queue the window takes whole, nor beyond its share", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=50;t=60', policy: POLICY });
    budget.setBackgroundReader({ plannedReads: () => Number.POSITIVE_INFINITY });
    // A share of the window at most: a fifth of 60.
    expect(budget.snapshot().windows[0]?.held).toBe(12);
    await Promise.all(Array.from({ length: 45 }, () => budget.acquire().then((t) => t.release())));
    expect([clock.sleeps, budget.snapshot().windows[0]?.remaining]).toEqual([[], 5]);
  });

  it("lets a poller spend what is held for it", () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    budget.observe({ rateLimit: '"minute";r=6;t=60', policy: POLICY });
    expect(budget.affordableInterval(5)).toBe(60_000);
    budget.setBackgroundReader({ plannedReads: () => 6 });
    expect(budget.affordableInterval(5)).toBe(10_000);
  });

  it("ramps its first requests up one more in flight per answer", async () => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    const granted: number[] = [];
    const tickets = Array.from({ length: 4 }, (_, i) =>
      budget.acquire().then((t) => {
        granted.push(i);
        return t;
      }),
    );
    await clock.advance(25);
    expect(granted).toEqual([0]);
    budget.observe({ rateLimit: '"minute";r=59;t=60', policy: POLICY });
    // One answer in, one request in flight: the rest wait for the next answer.
    await clock.advance(25);
    expect(granted).toEqual([0]);
    (await tickets[0])?.release();
    await clock.advance(25);
    expect(granted).toEqual([0, 1]);
    budget.observe({ rateLimit: '"minute";r=58;t=60', policy: POLICY });
    await clock.advance(25);
    expect(granted).toEqual([0, 1, 2]);
    for (const t of tickets.slice(1, 3)) (await t)?.release();
    await clock.advance(25);
    expect(granted).toEqual([0, 1, 2, 3]);
  });

  it("alone, never takes its own requests for another caller's", async () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    budget.observe({ rateLimit: '"minute";r=59;t=60', policy: POLICY });
    for (let sent = 1; sent <= 40; sent += 1) {
      const ticket = await budget.acquire();
      ticket.release();
      budget.observe({ rateLimit: `"minute";r=${59 - sent};t=60`, policy: POLICY });
    }
    expect(budget.snapshot().windows[0]).toMatchObject({ remaining: 19, shared: false });
    expect(budget.describe()).not.toContain("other callers");
  });

  it("with another caller on the key, sends half its part of what is left before the next answer", async () => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=40;t=60', policy: POLICY });
    // Five of ours, then a header: 10 more used since the last one, 5 of them another caller's.
    for (let i = 0; i < 5; i += 1) (await budget.acquire()).release();
    budget.observe({ rateLimit: '"minute";r=30;t=60', policy: POLICY });
    expect(budget.snapshot().windows[0]).toMatchObject({ remaining: 30, shared: false });
    // Six more of ours, and the next header agrees: 12 more used, 6 of them another caller's.
    for (let i = 0; i < 6; i += 1) (await budget.acquire()).release();
    budget.observe({ rateLimit: '"minute";r=18;t=59', policy: POLICY });
    expect(budget.snapshot().windows[0]).toMatchObject({ remaining: 18, shared: true });
    expect(budget.describe()).toContain("shared with other callers of the key");
    // Our part is 11 of the 22: in flight at most a quarter of what is left, which falls as ours go
    // (18, 17, 16, 15 left: the fourth waits, with 3 in flight).
    let granted = 0;
    const tickets = Array.from({ length: 10 }, () =>
      budget.acquire().then((t) => {
        granted += 1;
        return t;
      }),
    );
    await clock.advance(25);
    expect(granted).toBe(3);
    // An answer says the others took the rest meanwhile: nothing more goes until the reset.
    budget.observe({ rateLimit: '"minute";r=0;t=50', policy: POLICY });
    await clock.advance(25);
    expect(granted).toBe(3);
    for (const t of tickets.slice(0, 3)) (await t).release();
    // After it, the window's first request goes alone: the others may have begun it already.
    await clock.advance(50_000);
    await clock.advance(25);
    expect(granted).toBe(4);
    for (const t of tickets) void t.then((x) => x.release());
  });

  /** Our requests, each answered, then a header showing the minute window with `left` requests left. */
  const answer = async (budget: InstanceType<typeof RateLimitBudget>, ours: number, left: number) => {
    for (let i = 0; i < ours; i += 1) (await budget.acquire()).release();
    budget.observe({ rateLimit: `"minute";r=${left};t=60`, policy: POLICY });
    const w = budget.snapshot().windows[0];
    return { shared: w?.shared, held: w?.held };
  };
  /** Past the ramp-up, a watcher wanting all it may hold, and a first header with `left` left, if any. */
  const watched = async (
    left: number | undefined,
    clock: RecordingClock | ManualClock = new RecordingClock(),
  ) => {
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.setBackgroundReader({ plannedReads: () => Number.POSITIVE_INFINITY });
    if (left !== undefined) await answer(budget, 0, left);
    return budget;
  };

  it("takes one header showing more used than it sent for a suspicion, which the next header clears", async () => {
    const clock = new RecordingClock();
    const budget = await watched(50, clock);
    // 10 used for our 5; then 2 for our next 5, so since the first header no more than ours after
    // all; then 4 for our next 1: more than ours again, but never in two headers in a row.
    expect(await answer(budget, 5, 40)).toEqual({ shared: false, held: 12 });
    expect(await answer(budget, 5, 38)).toEqual({ shared: false, held: 12 });
    expect(await answer(budget, 1, 34)).toEqual({ shared: false, held: 12 });
    expect(budget.describe()).not.toContain("other callers");
    // The watcher keeps its whole share, and a queue the window takes goes out at once, not in parts.
    await Promise.all(Array.from({ length: 20 }, () => budget.acquire().then((t) => t.release())));
    expect(clock.sleeps).toEqual([]);
  });

  it("takes two headers in a row showing more used than it sent for another caller", async () => {
    const budget = await watched(50);
    expect(await answer(budget, 5, 40)).toEqual({ shared: false, held: 12 });
    // Our part since the window's first header, 9 of 20; the watchers' share stays whole, and grows to
    // the shared one: three tenths.
    expect(await answer(budget, 4, 30)).toEqual({ shared: true, held: 18 });
    expect(budget.shared()).toBe(true);
  });

  it("takes a neighbour within the part left to others for no other deployment, and one beyond it for one", async () => {
    const budget = new RateLimitBudget(new RecordingClock(), 0.1);
    pastRampUp(budget);
    budget.setBackgroundReader({ plannedReads: () => Number.POSITIVE_INFINITY });
    await answer(budget, 0, 50);
    // Ours 5 and 10 more used: the neighbour's 5, and 3 of tolerance, are within the 6 it was left.
    expect(await answer(budget, 5, 40)).toEqual({ shared: false, held: 12 });
    expect(await answer(budget, 5, 31)).toEqual({ shared: false, held: 12 });
    // Then 13 and 15 beyond ours: more than a neighbour's part, twice, is another deployment.
    expect(await answer(budget, 2, 25)).toEqual({ shared: false, held: 12 });
    expect(await answer(budget, 2, 19)).toEqual({ shared: true, held: 18 });
  });

  /**
   * A create of ours waiting (every request paused for a second) until the returned function
   * withdraws it, which moves `clock` past the pause.
   */
  const createWaiting = (budget: InstanceType<typeof RateLimitBudget>, clock: ManualClock) => {
    budget.pauseFor(1);
    const withdraw = new AbortController();
    const settled = budget.acquire(withdraw.signal).catch(() => undefined);
    return async () => {
      withdraw.abort();
      await clock.advance(1000);
      await settled;
    };
  };

  it("affords a shared reader its part of what is left while its creates wait, and what it holds once none do", async () => {
    const clock = new ManualClock();
    const budget = await watched(50, clock);
    // 10 used for our 5, twice: another caller as busy as this process, whose part is a half.
    await answer(budget, 5, 40);
    expect(await answer(budget, 5, 30)).toEqual({ shared: true, held: 18 });
    // No create of ours waits: this process only watches what it created, and the 25 left above
    // what is kept for creates are what its schedule may read (its shared intervals keep it to a few
    // a minute), over the 60 s to the reset.
    expect(budget.affordableInterval(5)).toBe(60_000 / 25);
    // A create waits: half of the 25 is this reader's.
    const withdraw = createWaiting(budget, clock);
    expect(budget.affordableInterval(5)).toBe(60_000 / 12.5);
    await withdraw();
  });

  it("counts as its part only what a header can have counted of its requests, not those still in flight", async () => {
    const clock = new ManualClock();
    const budget = await watched(50, clock);
    await answer(budget, 5, 40);
    // 15 of ours since the first header and 30 used, but 6 of ours still in flight when the header
    // comes (the one it answers among them): 10 of ours counted, a third, where counting all 15
    // would make it a half and the callers' parts add up to more than the window.
    const tickets = await Promise.all(Array.from({ length: 10 }, () => budget.acquire()));
    for (const t of tickets.slice(0, 4)) t.release();
    budget.observe({ rateLimit: '"minute";r=20;t=60', policy: POLICY });
    for (const t of tickets.slice(4)) t.release();
    const withdraw = createWaiting(budget, clock);
    // 15 left (20 less the 5 others in flight), all of it held: a third of it over 60 s.
    expect(budget.affordableInterval(5)).toBe(60_000 / 5);
    await withdraw();
  });

  it("affords a reader with less than one read to the reset its next read at the reset, not beyond", async () => {
    const clock = new ManualClock();
    const budget = await watched(50, clock);
    await answer(budget, 1, 40);
    await answer(budget, 1, 30);
    budget.observe({ rateLimit: '"minute";r=2;t=60', policy: POLICY });
    const withdraw = createWaiting(budget, clock);
    // Our part, 2 of 20 used, at least an eighth: a quarter of a read of the 2 left. Spread, one
    // every 240 s, past a reset that makes the window whole.
    expect(budget.affordableInterval(5)).toBe(60_000);
    await withdraw();
  });

  it("counts from a window's start after its reset, not from the window before", async () => {
    const budget = await watched(0);
    // After the reset: 10 used for our 1, then 15 for our 2.
    expect(await answer(budget, 1, 50)).toEqual({ shared: false, held: 12 });
    expect(await answer(budget, 1, 45)).toEqual({ shared: true, held: 18 });
  });

  it.each([
    ["more than a quarter of the window used, at its first answer", 40, true, true],
    ["a quarter used, at its first answer", 45, true, false],
    ["more than a quarter used, at a later answer (counted from there)", 40, false, false],
  ])(
    "takes a window a process is told of with %s by others for a caller bursting there",
    async (_name, left, first, shared) => {
      const budget = new RateLimitBudget(new ManualClock(), NOTHING_LEFT);
      if (!first) pastRampUp(budget);
      budget.setBackgroundReader({ plannedReads: () => Number.POSITIVE_INFINITY });
      // Our one request in flight, answered: the rest of what the header shows used is the others'.
      const ticket = await budget.acquire();
      budget.observe({ rateLimit: `"minute";r=${left};t=60`, policy: POLICY });
      ticket.release();
      expect(budget.snapshot().windows[0]).toMatchObject({ shared, held: shared ? 18 : 12 });
    },
  );

  it("takes one header for another caller when it shows more than a quarter of the window beyond ours", async () => {
    const budget = await watched(58);
    // 15 beyond ours is a suspicion; 16 is another caller.
    expect(await answer(budget, 1, 42)).toEqual({ shared: false, held: 12 });
    expect(budget.shared()).toBe(false);
    const fresh = await watched(58);
    expect(await answer(fresh, 1, 41)).toEqual({ shared: true, held: 18 });
  });

  it("does not take its own requests in flight at a window's first header for another caller's", async () => {
    const budget = await watched(undefined);
    // 20 of ours go before any header; answered out of order, the first header counts one of them
    // and the next all 20: 19 more used than we sent since, but all ours.
    const tickets = await Promise.all(Array.from({ length: 20 }, () => budget.acquire()));
    budget.observe({ rateLimit: '"minute";r=59;t=60', policy: POLICY });
    budget.observe({ rateLimit: '"minute";r=40;t=60', policy: POLICY });
    expect(budget.snapshot().windows[0]).toMatchObject({ shared: false, held: 12 });
    for (const t of tickets) t.release();
  });

  it.each([
    ["within a window", false],
    ["across a reset", true],
  ])("alone, does not take its own requests counted late for another caller's (%s)", async (_name, reset) => {
    const clock = new RecordingClock();
    const budget = await watched(50, clock);
    // 20 go at once; their answers come back out of order (after the window's reset, for the second
    // case: they count in the new one), each header counting several more than the last while we
    // send nothing: all of it ours, counted late.
    const tickets = await Promise.all(Array.from({ length: 20 }, () => budget.acquire()));
    expect(clock.sleeps).toEqual([]);
    if (reset) clock.advance(60_000);
    const top = reset ? 60 : 50;
    for (const counted of [1, 8, 15, 20]) {
      budget.observe({ rateLimit: `"minute";r=${top - counted};t=60`, policy: POLICY });
    }
    expect(budget.snapshot().windows[0]).toMatchObject({ shared: false, held: 12 });
    for (const t of tickets) t.release();
  });

  it.each([
    ["alone so far", false],
    ["once a 429 told of another caller", true],
  ])(
    "%s, sends one request into a window after its reset, then one more in flight per answer",
    async (_name, had429) => {
      const clock = new ManualClock();
      const budget = await watched(60, clock);
      // Alone, it spent the window itself: but others may have started after its last request, and
      // be there at the next reset. The 429 of a caller that started when the others had spent the
      // window is its only sign of them.
      expect(await answer(budget, 60, 0)).toMatchObject({ shared: false });
      if (had429) budget.pauseFor(60);
      let granted = 0;
      const tickets = Array.from({ length: 10 }, () =>
        budget.acquire().then((t) => {
          granted += 1;
          return t;
        }),
      );
      // Another caller may have begun the window while we waited: one request asks first.
      await clock.advance(60_000);
      await waitOut(clock, 100);
      expect([granted, budget.snapshot().inFlight]).toEqual([1, 1]);
      // Each answer lets one more be in flight: the next header would show another caller's use.
      const answerOf = async (i: number, left: number) => {
        budget.observe({ rateLimit: `"minute";r=${left};t=60`, policy: POLICY });
        (await tickets[i])?.release();
        await waitOut(clock, 100);
        return [granted, budget.snapshot().inFlight];
      };
      expect(await answerOf(0, 59)).toEqual([2, 1]);
      expect(await answerOf(1, 58)).toEqual([4, 2]);
      expect(await answerOf(2, 57)).toEqual([6, 3]);
      for (const t of tickets) void t.then((x) => x.release());
    },
  );

  it.each([
    ["never met another caller nor a 429: all that is left", false, 10],
    ["after a 429, alone now: 10, 9, 8 left as they go, and with 7 left 3 is half", true, 3],
  ])("in flight before the next answer, %s", async (_name, had429, inFlight) => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=10;t=60', policy: POLICY });
    if (had429) budget.pauseFor(1);
    await clock.advance(1000);
    const tickets = Array.from({ length: 10 }, () => budget.acquire());
    expect(budget.snapshot().inFlight).toBe(inFlight);
    for (const t of tickets) void t.then((x) => x.release());
    await waitOut(clock, 500);
    await Promise.all(tickets);
  });

  /** A budget that has seen another caller (the headers of "takes two headers in a row" above). */
  const sharedWith = async (plannedReads: number) => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.setBackgroundReader({ plannedReads: () => plannedReads });
    await answer(budget, 0, 50);
    await answer(budget, 5, 40);
    await answer(budget, 4, 30);
    return { budget, clock };
  };
  /** The same requests alone: each header shows only ours. */
  const alone = async (plannedReads: number) => {
    const clock = new ManualClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    pastRampUp(budget);
    budget.setBackgroundReader({ plannedReads: () => plannedReads });
    await answer(budget, 0, 50);
    await answer(budget, 5, 45);
    await answer(budget, 4, 41);
    return { budget, clock };
  };

  it.each<[string, typeof alone, number, number, boolean]>([
    ["alone, no read planned before the reset", alone, 0, 0, false],
    ["alone, three reads planned, and a margin of two", alone, 3, 5, false],
    ["alone, reads as often as it can", alone, Number.POSITIVE_INFINITY, 12, false],
    ["shared, no read of ours planned: the others' watchers may read", sharedWith, 0, 18, true],
    ["shared, three reads of ours planned", sharedWith, 3, 18, true],
    ["shared, reads as often as it can", sharedWith, Number.POSITIVE_INFINITY, 18, true],
  ])("leaves the watchers' reads to them: %s", async (_name, make, planned, held, shared) => {
    const { budget } = await make(planned);
    expect([budget.snapshot().windows[0]?.held, budget.shared()]).toEqual([held, shared]);
  });

  it.each<[string, typeof alone, number]>([
    ["alone, a queue the window takes whole goes", alone, 1],
    ["shared, it waits: the others' queues are not seen", sharedWith, 0],
  ])("with only the watchers' share left, a create: %s", async (_name, make, sent) => {
    const { budget, clock } = await make(Number.POSITIVE_INFINITY);
    // Down to the share, through the others (shared) or ours (alone), in one header.
    budget.observe({ rateLimit: '"minute";r=12;t=50', policy: POLICY });
    let granted = 0;
    const create = budget.acquire().then((t) => {
      granted += 1;
      t.release();
    });
    await waitOut(clock, 500);
    expect(granted).toBe(sent);
    await clock.advance(60_000);
    await waitOut(clock, 100);
    await create;
  });

  it("tells a poller the interval it can afford", () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, NOTHING_LEFT);
    expect(budget.affordableInterval(5)).toBe(0);
    budget.observe({ rateLimit: '"minute";r=25;t=40', policy: POLICY });
    expect(budget.affordableInterval(5)).toBe(2000);
  });

  /** Room for the neighbours: the key's other callers, who know nothing of this budget, find their part. */
  it.each<[string, number, string, number, number]>([
    ["by default a tenth: a create waits for the reset with 6 of 60 left", 0.1, "r=6;t=20", 20_000, 5],
    ["by default, with 7 left one more goes at once", 0.1, "r=7;t=20", 0, 6],
    ["nothing left to others: the last request goes", 0, "r=1;t=20", 0, 0],
    ["a fifth: 12 of 60 stay", 0.2, "r=12;t=20", 20_000, 11],
  ])("leaves the others' part of a window: %s", async (_name, share, header, waited, left) => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, share);
    pastRampUp(budget);
    budget.observe({ rateLimit: `"minute";${header}`, policy: POLICY });
    (await budget.acquire()).release();
    // A wait for the reset rolls the window over to its full quota.
    expect([clock.sleeps.reduce((a, b) => a + b, 0), budget.snapshot().windows[0]?.remaining]).toEqual([
      waited,
      waited > 0 ? 59 : left,
    ]);
  });

  it.each<[string, number, string, boolean]>([
    ["no reader: nothing to cover", Number.NaN, "r=3;t=30", true],
    ["a plan the room covers", 4, "r=20;t=30", true],
    ["a plan the room covers only with the others' part", 16, "r=20;t=30", false],
    ["a reader that wants all it can get", Number.POSITIVE_INFINITY, "r=50;t=30", false],
  ])("covers the reader's plan to the reset: %s", (_name, planned, header, covered) => {
    const budget = new RateLimitBudget(new RecordingClock(), 0.1);
    if (!Number.isNaN(planned)) budget.setBackgroundReader({ plannedReads: () => planned });
    budget.observe({ rateLimit: `"minute";${header}`, policy: POLICY });
    expect(budget.coversPlan()).toBe(covered);
  });

  it.each<[string, string, number]>([
    // 5 of ours, 11 used since: the neighbour's 6 is its part. All 39 left are ours.
    ["one that used its part leaves the rest", "r=39", 39],
    // 5 of ours, 14 used since: 9 is more than a neighbour's part, a deployment already: the 6 stay
    // as the cushion, though the headers have not agreed on it twice yet.
    ["others beyond the part: the whole part stays", "r=36", 30],
    // 5 of ours, 9 used since: the neighbour's 4 leave 2 of its 6 to come. (Counted from the first
    // header, the excess cannot include ours: those then in flight are subtracted.)
    ["one that used 4 of its 6 keeps 2", "r=41", 39],
    ["one not seen yet keeps all 6", "r=45", 39],
  ])("leaves only what a neighbour has not used yet of its part: %s", async (_name, header, room) => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, 0.1);
    pastRampUp(budget);
    budget.observe({ rateLimit: '"minute";r=50;t=60', policy: POLICY });
    for (let i = 0; i < 5; i += 1) (await budget.acquire()).release();
    budget.observe({ rateLimit: `"minute";${header};t=60`, policy: POLICY });
    // What is ours to spend, 5 kept for creates, spread over the 60 s to the reset.
    expect([budget.shared(), budget.affordableInterval(5)]).toEqual([false, 60_000 / (room - 5)]);
  });

  it.each<[string, number, number, boolean]>([
    ["creates the window takes whole", 11, 5, false],
    ["a create waiting for the reset", 10, 5, true],
    ["nothing queued", 10, 4, false],
  ])(
    "tells whether creates wait for more than the window has left: %s",
    async (_name, left, creates, backlogged) => {
      const clock = new ManualClock();
      const budget = new RateLimitBudget(clock, 0.1);
      pastRampUp(budget);
      budget.observe({ rateLimit: `"minute";r=${left};t=30`, policy: POLICY });
      const queue = Array.from({ length: creates }, () => budget.acquire().then((t) => t.release()));
      await waitOut(clock, 100);
      expect(budget.backlogged()).toBe(backlogged);
      await clock.advance(30_000);
      await Promise.all(queue);
      expect(budget.backlogged()).toBe(false);
    },
  );

  it("spreads a poller's reads over the room above the others' part", () => {
    const clock = new RecordingClock();
    const budget = new RateLimitBudget(clock, 0.1);
    budget.observe({ rateLimit: '"minute";r=31;t=40', policy: POLICY });
    // 31 left, 6 of them the others', 5 kept for creates: 20 over 40 s.
    expect(budget.affordableInterval(5)).toBe(2000);
  });

  it("RateLimitBudgets hands every budget the share it was given, a tenth by default", async () => {
    const clock = new RecordingClock();
    const budgets = [new RateLimitBudgets(clock), new RateLimitBudgets(clock, 0)];
    const sleeps = [];
    for (const b of budgets) {
      const budget = b.for("https://api.example.com", "key");
      pastRampUp(budget);
      budget.observe({ rateLimit: '"minute";r=6;t=20', policy: POLICY });
      (await budget.acquire()).release();
      sleeps.push(clock.sleeps.length);
    }
    expect(sleeps).toEqual([1, 1]);
    expect(clock.sleeps).toEqual([20_000]);
  });
});

describe("retryDecision", () => {
  const err = (code: string, extra: Record<string, unknown> = {}) =>
    new RunpodApiError({ code: code as never, message: "m", ...extra });
  it.each([
    ["5xx, idempotent", err(ERROR_CODES.SERVER_ERROR, { status: 503 }), true, "backoff"],
    ["5xx, creating POST", err(ERROR_CODES.SERVER_ERROR, { status: 503 }), false, "fail"],
    ["501 is final", err(ERROR_CODES.SERVER_ERROR, { status: 501 }), true, "fail"],
    ["network, idempotent", err(ERROR_CODES.NETWORK, { outcome: "unknown" }), true, "backoff"],
    ["network, POST, never sent", err(ERROR_CODES.NETWORK, { outcome: "not-sent" }), false, "backoff"],
    ["network, POST, maybe applied", err(ERROR_CODES.NETWORK, { outcome: "unknown" }), false, "fail"],
    ["timeout, idempotent", err(ERROR_CODES.TIMEOUT), true, "backoff"],
    ["timeout, POST", err(ERROR_CODES.TIMEOUT, { outcome: "unknown" }), false, "fail"],
    ["429", err(ERROR_CODES.RATE_LIMITED, { retryAfterSeconds: 5 }), false, "wait"],
    ["429 past the cap", err(ERROR_CODES.RATE_LIMITED, { retryAfterSeconds: 91 }), true, "fail"],
    ["400", err(ERROR_CODES.BAD_REQUEST), true, "fail"],
    ["401", err(ERROR_CODES.UNAUTHORIZED), true, "fail"],
    ["402", err(ERROR_CODES.PAYMENT_REQUIRED), true, "fail"],
    ["403", err(ERROR_CODES.FORBIDDEN), true, "fail"],
    ["404", err(ERROR_CODES.NOT_FOUND), true, "fail"],
    ["413", err(ERROR_CODES.PAYLOAD_TOO_LARGE), true, "fail"],
    ["422", err(ERROR_CODES.UNPROCESSABLE), true, "fail"],
    ["invalid response", err(ERROR_CODES.INVALID_RESPONSE), true, "fail"],
  ])("%s", (_name, error, idempotent, kind) => {
    expect(retryDecision(error, idempotent, 0, DEFAULT_RETRY).kind).toBe(kind);
  });

  it("stops waiting out 429s after maxRateLimitRetries", () => {
    const e = err(ERROR_CODES.RATE_LIMITED, { retryAfterSeconds: 1 });
    expect(retryDecision(e, true, 10, DEFAULT_RETRY).kind).toBe("fail");
  });
});

describe("unanswered and transient failures, defined once", () => {
  const error = (code: string, outcome?: "not-sent" | "unknown" | "rejected") =>
    new RunpodApiError({ code: code as never, message: code, ...(outcome ? { outcome } : {}) });
  it.each([
    // code, outcome, unanswered, may have landed, transient
    [ERROR_CODES.SERVER_ERROR, "unknown", true, true, true],
    [ERROR_CODES.NETWORK, "unknown", true, true, true],
    [ERROR_CODES.NETWORK, "not-sent", true, false, true],
    [ERROR_CODES.TIMEOUT, "unknown", true, true, true],
    [ERROR_CODES.INVALID_RESPONSE, "unknown", true, true, false],
    [ERROR_CODES.RATE_LIMITED, "rejected", false, false, true],
    [ERROR_CODES.BAD_REQUEST, "rejected", false, false, false],
    [ERROR_CODES.NOT_FOUND, "rejected", false, false, false],
  ] as const)("%s (%s)", (code, outcome, unanswered, landed, transient) => {
    const err = error(code, outcome);
    expect([isUnanswered(err), mayHaveLanded(err), isTransient(err)]).toEqual([
      unanswered,
      landed,
      transient,
    ]);
  });
  it("is false for anything that is not an API error", () => {
    expect([isUnanswered(new Error("x")), mayHaveLanded(undefined), isTransient("NETWORK")]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe("errors are recognised by code, across module copies", () => {
  it.each([
    [{ name: "RunpodApiError", code: "RUNPOD_NOT_FOUND" }, true],
    [{ name: "Error", code: "RUNPOD_NOT_FOUND" }, false],
    [new Error("x"), false],
    [null, false],
  ])("%o", (value, expected) => {
    expect(isRunpodApiError(value)).toBe(expected);
  });
});

describe("resolveSettings", () => {
  it("defaults to the real service", () => {
    expect(resolveSettings(() => undefined, {})).toEqual({
      apiKey: undefined,
      baseUrl: "https://api.runpod.io",
      serverlessUrl: "https://api.runpod.ai",
      proxyUrl: "https://{podId}-{port}.proxy.runpod.net",
      teamId: undefined,
      allowInsecureHttp: false,
      quotaShareForOthers: 0.1,
      configNamespace: "runpod",
    });
  });

  it.each<[string, string | undefined, string | number | undefined, number | string]>([
    ["from config", undefined, "0.25", 0.25],
    ["as a YAML number", undefined, 0.3, 0.3],
    ["from the environment", "0", undefined, 0],
    ["config over the environment", "0.4", "0.2", 0.2],
    [
      "more than half",
      undefined,
      "0.6",
      'runpod:quotaShareForOthers / RUNPOD_QUOTA_SHARE_FOR_OTHERS must be a number from 0 to 0.5, got "0.6".',
    ],
    [
      "not a number",
      "lots",
      undefined,
      'runpod:quotaShareForOthers / RUNPOD_QUOTA_SHARE_FOR_OTHERS must be a number from 0 to 0.5, got "lots".',
    ],
    [
      "negative",
      undefined,
      "-0.1",
      'runpod:quotaShareForOthers / RUNPOD_QUOTA_SHARE_FOR_OTHERS must be a number from 0 to 0.5, got "-0.1".',
    ],
  ])("reads the share of each window left to others: %s", (_name, env, given, expected) => {
    const read = () =>
      resolveSettings(
        (k) => (k === "runpod:quotaShareForOthers" ? given : undefined),
        env === undefined ? {} : { RUNPOD_QUOTA_SHARE_FOR_OTHERS: env },
      ).quotaShareForOthers;
    if (typeof expected === "number") expect(read()).toBe(expected);
    else expect(read).toThrow(expected);
  });

  it("takes a pod proxy template with both placeholders, and refuses one without", () => {
    const emulator = resolveSettings(
      (k) => (k === "runpod:proxyUrl" ? "http://127.0.0.1:4000/{podId}-{port}" : undefined),
      {},
    );
    expect(emulator.proxyUrl).toBe("http://127.0.0.1:4000/{podId}-{port}");
    expect(() =>
      resolveSettings(() => undefined, { RUNPOD_PROXY_URL: "https://proxy.example/{podId}" }),
    ).toThrow(
      'runpod:proxyUrl / RUNPOD_PROXY_URL must contain {podId} and {port}, got "https://proxy.example/{podId}".',
    );
  });

  it("ignores the address of the retired REST v1, even when it is not a URL", () => {
    expect(
      resolveSettings((k) => (k === "runpod:restUrl" ? "nonsense" : undefined), {
        RUNPOD_REST_URL: "ftp://x",
      }),
    ).toEqual(resolveSettings(() => undefined, {}));
  });

  it("refuses the official provider's runpod:apiUrl when it names another host than baseUrl, and takes it when it names the same", () => {
    const config = (c: Record<string, string>) => (k: string) => c[k];
    const same = resolveSettings(config({ "runpod:apiUrl": "https://api.runpod.io/graphql" }), {});
    const emulator = resolveSettings(
      config({ "runpod:apiUrl": "http://127.0.0.1:4000/graphql", "runpod:baseUrl": "http://127.0.0.1:4000" }),
      {},
    );
    // The provider plugin's namespace is its own: runpod:apiUrl is nothing to it.
    const plugin = resolveSettings(
      config({ "runpod:apiUrl": "https://staging.example/graphql" }),
      {},
      "runpod-dynamic",
    );
    expect([same.baseUrl, emulator.baseUrl, plugin.baseUrl]).toEqual([
      "https://api.runpod.io",
      "http://127.0.0.1:4000",
      "https://api.runpod.io",
    ]);
    expect(() => resolveSettings(config({ "runpod:apiUrl": "https://staging.example/graphql" }), {})).toThrow(
      "runpod:apiUrl is \"https://staging.example/graphql\": that is RunPod's official Pulumi provider's (GraphQL) address, which runpod-dynamic does not read, and runpod-dynamic's requests would go to https://api.runpod.io (runpod:baseUrl / RUNPOD_BASE_URL), another host. Set runpod:baseUrl to the v2 address of the same service, or remove runpod:apiUrl once the official provider's resources have left the stack.",
    );
  });

  it("prefers Pulumi config over the environment", () => {
    const s = resolveSettings((k) => (k === "runpod:apiKey" ? "from-config" : undefined), {
      RUNPOD_API_KEY: "from-env",
      RUNPOD_TEAM_ID: "t1",
      RUNPOD_BASE_URL: "http://127.0.0.1:9999/",
    });
    expect([s.apiKey, s.teamId, s.baseUrl]).toEqual(["from-config", "t1", "http://127.0.0.1:9999"]);
  });

  it.each([
    [{ RUNPOD_BASE_URL: "http://api.example.com" }, /plain http to api\.example\.com/],
    [
      { RUNPOD_SERVERLESS_URL: "ftp://x" },
      /runpod:serverlessUrl \/ RUNPOD_SERVERLESS_URL must be an http\(s\) URL/,
    ],
    [{ RUNPOD_SERVERLESS_URL: "not a url" }, /runpod:serverlessUrl \/ RUNPOD_SERVERLESS_URL is not a URL/],
    [{ RUNPOD_BASE_URL: "https://user:pw@api.runpod.io" }, /must not carry credentials/],
  ])("rejects %o", (env, message) => {
    expect(() => resolveSettings(() => undefined, env)).toThrow(message);
  });

  it("reads the plugin's namespace, values as set, and names its keys in every message", () => {
    const config: Record<string, unknown> = {
      "runpod-dynamic:baseUrl": "http://api.example.com",
      "runpod-dynamic:allowInsecureHttp": true,
      "runpod:apiKey": "the dynamic door's key, not read here",
    };
    const s = resolveSettings((k) => config[k], {}, "runpod-dynamic");
    expect([s.baseUrl, s.allowInsecureHttp, s.apiKey, s.configNamespace]).toEqual([
      "http://api.example.com",
      true,
      undefined,
      "runpod-dynamic",
    ]);
    expect(() =>
      resolveSettings(
        (k) => (k === "runpod-dynamic:baseUrl" ? "http://api.example.com" : undefined),
        {},
        "runpod-dynamic",
      ),
    ).toThrow(
      "runpod-dynamic:baseUrl / RUNPOD_BASE_URL uses plain http to api.example.com; the API key would travel unencrypted. Use https, or set runpod-dynamic:allowInsecureHttp / RUNPOD_ALLOW_INSECURE_HTTP=true if you really mean it.",
    );
    expect(() => requireApiKey(s)).toThrow(
      "No RunPod API key. Set it with `pulumi config set --secret runpod-dynamic:apiKey <key>` or the RUNPOD_API_KEY environment variable.",
    );
  });

  it.each([
    ["runpod", ERROR_CODES.UNAUTHORIZED, "`pulumi config set --secret runpod:apiKey ...` or RUNPOD_API_KEY"],
    [
      "runpod-dynamic",
      ERROR_CODES.UNAUTHORIZED,
      "`pulumi config set --secret runpod-dynamic:apiKey ...` or RUNPOD_API_KEY",
    ],
    ["runpod-dynamic", ERROR_CODES.FORBIDDEN, "set runpod-dynamic:teamId (or RUNPOD_TEAM_ID)"],
    [
      "runpod-dynamic",
      ERROR_CODES.INVALID_CONFIG,
      "runpod-dynamic:* config keys or RUNPOD_* environment variables",
    ],
  ] as const)("advice in the %s namespace for %s names its own setting", (namespace, code, text) => {
    expect(adviceFor(code, namespace)).toContain(text);
  });

  it("allows plain http elsewhere only when told to", () => {
    const s = resolveSettings(() => undefined, {
      RUNPOD_BASE_URL: "http://api.example.com",
      RUNPOD_ALLOW_INSECURE_HTTP: "true",
    });
    expect(s.baseUrl).toBe("http://api.example.com");
  });
});
