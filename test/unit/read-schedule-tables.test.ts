/** When the pod watcher reads next (provider/host/read-schedule.ts), read as a table. */
import { describe, expect, it } from "vitest";
import type { ReadPace, ReadState } from "../../provider/host/read-schedule.js";
import { loadDist } from "../support/dist.js";

const { ArrivalTimes, DEFAULT_READ_INTERVALS, nextReadAt, serviceStartTime, arrivalKind } = loadDist<
  typeof import("../../provider/host/read-schedule.js")
>("provider/host/read-schedule.js");

/**
 * The rows read the defaults: 1 s shortest, 10 s longest, 400 ms follow-up, 30 s idle, 20 s shared;
 * first of a kind 2 s alone, 6 s shared, 10 s while creates wait for room.
 */
const INTERVALS = DEFAULT_READ_INTERVALS;
const CALM: ReadState = {
  followUp: false,
  started: false,
  affordable: 0,
  shared: false,
  backlog: false,
  dueReads: "affordable",
};

describe("nextReadAt, the last read at 0 and now at 0", () => {
  it.each<[string, readonly ReadPace[], Partial<ReadState>, number]>([
    ["no wait", [], {}, Number.POSITIVE_INFINITY],
    ["a steady wait: the shortest interval", ["steady"], {}, 1000],
    ["a steady wait: what the budget affords", ["steady"], { affordable: 5000 }, 5000],
    ["a steady wait: never past the longest interval", ["steady"], { affordable: 20_000 }, 10_000],
    ["a relaxed wait: the longest interval", ["relaxed"], {}, 10_000],
    ["a relaxed wait: or what the budget affords", ["relaxed"], { affordable: 20_000 }, 20_000],
    ["a due pod: the shortest interval", [{ start: -1000, end: 5000 }], {}, 1000],
    [
      "a due pod: what the budget affords, when longer (creates left it the held part)",
      [{ start: -1000, end: 5000 }],
      { affordable: 2500 },
      2500,
    ],
    [
      "a due pod, in the plan: the shortest interval (what to hold for the watcher)",
      [{ start: -1000, end: 5000 }],
      { affordable: 5000, dueReads: "shortest" },
      1000,
    ],
    ["a pod due soon: when it falls due", [{ start: 12_000, end: 20_000 }], {}, 12_000],
    ["a pod due later: the idle interval", [{ start: 50_000, end: 60_000 }], {}, 30_000],
    ["a pod due at once: not before the shortest interval", [{ start: 300, end: 5000 }], {}, 1000],
    ["a late pod: the normal interval", [{ start: -5000, end: -1000 }], { affordable: 3000 }, 3000],
    [
      "a late pod, in the plan (reads counted at the longest interval): still read, at the longest",
      [{ start: -5000, end: -1000 }],
      { affordable: 10_000, dueReads: "shortest" },
      10_000,
    ],
    ["after a change: the follow-up", ["steady", "relaxed"], { followUp: true }, 400],
    [
      "after a change, a pod not due yet: when it falls due",
      [{ start: 12_000, end: 20_000 }],
      { followUp: true },
      12_000,
    ],
    ["the soonest of several", ["relaxed", { start: 12_000, end: 20_000 }, "steady"], {}, 1000],
    [
      "a pod falling due just after a read, the budget affording one in 2.5 s: at 2.5 s",
      [{ start: 300, end: 1300 }],
      { affordable: 2500 },
      2500,
    ],
    [
      "a due pod after a change: no follow-up, the due pace",
      [{ start: -1000, end: 5000 }],
      { followUp: true },
      1000,
    ],
    [
      "a pod early (its window not begun), far off: the idle interval, read for failures only",
      [{ start: 90_000, end: 91_000 }],
      { affordable: 1200 },
      30_000,
    ],
    ["a pod late, after a change: the follow-up", [{ start: -5000, end: -1000 }], { followUp: true }, 400],
    ["a pod of a kind never seen arrive: the first-of-kind interval", ["first"], {}, 2000],
    [
      "a pod of a kind never seen: what the budget affords, when longer",
      ["first"],
      { affordable: 5000 },
      5000,
    ],
    [
      "a pod of a kind never seen: never past the longest interval",
      ["first"],
      { affordable: 20_000 },
      10_000,
    ],
    ["a pod of a kind never seen, after a change: the follow-up", ["first"], { followUp: true }, 400],
    [
      "after a change, the budget affording one in 20 s: the longest interval, no later than without it",
      ["steady"],
      { followUp: true, affordable: 20_000 },
      10_000,
    ],
    [
      "a late pod after a change, the budget affording one in 3 s: at 3 s",
      [{ start: -5000, end: -1000 }],
      { followUp: true, affordable: 3000 },
      3000,
    ],
    [
      "a pod of a kind never seen, creates waiting for room: the backlog first-of-kind interval",
      ["first"],
      { backlog: true },
      10_000,
    ],
    [
      "a pod of a kind never seen, creates waiting for room, after a change: no follow-up",
      ["first"],
      { backlog: true, followUp: true },
      10_000,
    ],
    [
      "a pod of a kind never seen, creates waiting for room: what the budget affords, when longer",
      ["first"],
      { backlog: true, affordable: 15_000 },
      15_000,
    ],
    [
      "a kind never seen beside a pod due later: the first-of-kind read",
      ["first", { start: 50_000, end: 60_000 }],
      {},
      2000,
    ],
    ["a kind never seen, its log followed: the idle interval", ["logged"], {}, 30_000],
    [
      "a kind never seen, its log followed: what the budget affords, when longer",
      ["logged"],
      { affordable: 45_000 },
      45_000,
    ],
    [
      "a kind never seen, its log followed, after a change: no follow-up",
      ["logged"],
      { followUp: true },
      30_000,
    ],
    [
      "a kind never seen, its log said it started: the shortest interval",
      ["logged"],
      { started: true },
      1000,
    ],
    [
      "its log said it started, after a change: the follow-up",
      ["logged", "steady"],
      { started: true, followUp: true },
      400,
    ],
  ])("%s", (_, paces, state, expected) => {
    expect(nextReadAt(0, 0, paces, { ...CALM, ...state }, INTERVALS)).toBe(expected);
  });
});

/**
 * Shared with other callers of the key, every caller's watcher reads from what creates leave: pods
 * of a known kind only in their due window, a few reads spread over it, the rest at the shared
 * interval.
 */
describe("nextReadAt in a shared window, the last read at 0", () => {
  const SHARED: ReadState = { ...CALM, shared: true };
  it.each<[string, readonly ReadPace[], Partial<ReadState> & { now?: number }, number]>([
    [
      "a steady wait: the shared interval, though the budget affords more",
      ["steady"],
      { affordable: 5000 },
      20_000,
    ],
    ["a steady wait: what the budget affords, when that is less", ["steady"], { affordable: 45_000 }, 45_000],
    ["a relaxed wait: the shared interval", ["relaxed"], {}, 20_000],
    ["a late pod: the shared interval", [{ start: -5000, end: -1000 }], { affordable: 3000 }, 20_000],
    ["a pod due later: no idle read, a fifth into its window", [{ start: 50_000, end: 62_000 }], {}, 52_400],
    [
      "a due pod, a wide window: a fifth of it after the last read",
      [{ start: -3000, end: 18_000 }],
      {},
      4200,
    ],
    ["a due pod, a narrow window: the shortest interval", [{ start: -1000, end: 1500 }], {}, 1000],
    [
      "a due pod last read more than a step ago: at once (a time already past)",
      [{ start: -3000, end: 18_000 }],
      { now: 9000 },
      4200,
    ],
    ["after a wait ended: the shortest interval, not the follow-up", ["steady"], { followUp: true }, 1000],
    [
      "after a wait ended, a pod due later: still not before its window",
      [{ start: 12_000, end: 15_000 }],
      { followUp: true },
      13_000,
    ],
    [
      "after a wait ended, a due pod: the step, though the budget affords less",
      [{ start: -1000, end: 1500 }],
      { followUp: true, affordable: 30_000 },
      1000,
    ],
    [
      "after a wait ended, a due pod, a wide window: the follow-up, when sooner than the step",
      [{ start: -3000, end: 18_000 }],
      { followUp: true, affordable: 2000 },
      2000,
    ],
    ["a pod of a kind never seen: the shared first-of-kind interval", ["first"], {}, 6000],
    [
      "a pod of a kind never seen, creates waiting for room: the backlog first-of-kind interval",
      ["first"],
      { backlog: true, affordable: 3000 },
      10_000,
    ],
    [
      "a pod of a kind never seen: what the budget affords, when longer",
      ["first"],
      { affordable: 45_000 },
      45_000,
    ],
    [
      "a pod of a kind never seen, after a wait ended: the shortest interval",
      ["first"],
      { followUp: true },
      1000,
    ],
    [
      "a kind never seen, its log followed: the idle interval, not the shared first-of-kind",
      ["logged"],
      { affordable: 3000 },
      30_000,
    ],
    [
      "a kind never seen, its log said it started: the shortest interval, whatever the budget affords",
      ["logged"],
      { started: true, affordable: 15_000 },
      1000,
    ],
    [
      "its log said it started, the last read 7 s ago: at once",
      ["logged"],
      { started: true, now: 7000 },
      7000,
    ],
    [
      "a pod due later and a steady wait: the steady wait's read",
      [{ start: 50_000, end: 62_000 }, "steady"],
      {},
      20_000,
    ],
  ])("%s", (_, paces, { now = 0, ...state }, expected) => {
    expect(nextReadAt(0, now, paces, { ...SHARED, ...state }, INTERVALS)).toBe(expected);
  });
});

/** When the next pod of a kind is due, from when pods of its kind were last missed and first seen. */
describe("ArrivalTimes.dueWindow, counted from 0", () => {
  const times = (lo: number, hi: number, n: number) => Array.from({ length: n }, () => [lo, hi] as const);
  it.each<[string, (readonly [number, number])[], { start: number; end: number } | undefined]>([
    ["none seen yet", [], undefined],
    [
      "one pod: after its last miss, by its sighting and a second",
      [[80_000, 90_000]],
      { start: 80_000, end: 91_000 },
    ],
    [
      "pods read far apart give way to pods read seconds apart",
      [...times(70_000, 90_000, 4), ...times(88_000, 89_000, 4)],
      { start: 88_000, end: 90_000 },
    ],
    [
      "the narrower half, its medians",
      [...times(60_000, 90_000, 3), [86_000, 89_000], [87_000, 89_500], [85_000, 88_000]],
      { start: 86_000, end: 90_000 },
    ],
  ])("%s", (_, samples, expected) => {
    const arrivals = new ArrivalTimes();
    for (const [lo, hi] of samples) arrivals.learn("img gpu dc", lo, hi);
    expect(arrivals.dueWindow("img gpu dc", 0)).toEqual(expected);
  });
});

/**
 * A pod on the account says how long its kind took by the service's own clock, read once it runs:
 * exact, where the watcher's reads only bracket it.
 */
describe("serviceStartTime: how long a pod took from create to RUNNING", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s)).toISOString();
  it.each<[string, { status: string; createdAt: string; startedAt?: string | null }, number | undefined]>([
    [
      "a running pod: startedAt less createdAt",
      { status: "RUNNING", createdAt: at(0), startedAt: at(90) },
      90_000,
    ],
    ["not running yet", { status: "STARTING", createdAt: at(0), startedAt: null }, undefined],
    [
      "stopped: its start time is of a start long gone",
      { status: "EXITED", createdAt: at(0), startedAt: at(90) },
      undefined,
    ],
    ["no startedAt", { status: "RUNNING", createdAt: at(0) }, undefined],
    ["a time that is no time", { status: "RUNNING", createdAt: "yesterday", startedAt: at(90) }, undefined],
    [
      "started before it was created: clocks disagree",
      { status: "RUNNING", createdAt: at(90), startedAt: at(0) },
      undefined,
    ],
    [
      "started again long after: no first start",
      {
        status: "RUNNING",
        createdAt: at(0),
        startedAt: new Date(Date.UTC(2026, 10, 29, 13, 0, 0)).toISOString(),
      },
      undefined,
    ],
  ])("%s", (_, pod, expected) => {
    expect(serviceStartTime(pod as Parameters<typeof serviceStartTime>[0])).toBe(expected);
  });

  it("names a kind by image, GPU type (or CPU) and data center", () => {
    expect([
      arrivalKind({ image: "img:1", gpu: { id: "NVIDIA A40" }, dataCenterId: "US-KS-2" } as never),
      arrivalKind({ image: "img:1", dataCenterId: null } as never),
    ]).toEqual(["img:1 NVIDIA A40 US-KS-2", "img:1 cpu "]);
  });

  it("exact times make a window a second wide: the pod is read when it arrives", () => {
    const arrivals = new ArrivalTimes();
    arrivals.learn("k", 90_000, 90_000);
    arrivals.learn("k", 91_000, 91_000);
    arrivals.learn("k", 89_000, 89_000);
    expect([arrivals.knows("k"), arrivals.knows("other"), arrivals.dueWindow("k", 1000)]).toEqual([
      true,
      false,
      { start: 91_000, end: 92_000 },
    ]);
  });
});
