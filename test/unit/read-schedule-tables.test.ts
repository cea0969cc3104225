/** When the pod watcher reads next (provider/host/read-schedule.ts), read as a table. */
import { describe, expect, it } from "vitest";
import type { ReadPace, ReadState } from "../../provider/host/read-schedule.js";
import { loadDist } from "../support/dist.js";

const { nextReadAt } = loadDist<typeof import("../../provider/host/read-schedule.js")>(
  "provider/host/read-schedule.js",
);

const INTERVALS = { minIntervalMs: 1000, maxIntervalMs: 10_000, followUpMs: 400, idleIntervalMs: 30_000 };
const CALM: ReadState = { followUp: false, affordable: 0, late: "read" };

describe("nextReadAt, the last read at 0 and now at 0", () => {
  it.each<[string, readonly ReadPace[], Partial<ReadState>, number]>([
    ["no wait", [], {}, Number.POSITIVE_INFINITY],
    ["a steady wait: the shortest interval", ["steady"], {}, 1000],
    ["a steady wait: what the budget affords", ["steady"], { affordable: 5000 }, 5000],
    ["a steady wait: never past the longest interval", ["steady"], { affordable: 20_000 }, 10_000],
    ["a relaxed wait: the longest interval", ["relaxed"], {}, 10_000],
    ["a relaxed wait: or what the budget affords", ["relaxed"], { affordable: 20_000 }, 20_000],
    ["a due pod: the shortest interval", [{ start: -1000, end: 5000 }], { affordable: 5000 }, 1000],
    ["a pod due soon: when it falls due", [{ start: 12_000, end: 20_000 }], {}, 12_000],
    ["a pod due later: the idle interval", [{ start: 50_000, end: 60_000 }], {}, 30_000],
    ["a pod due at once: not before the shortest interval", [{ start: 300, end: 5000 }], {}, 1000],
    ["a late pod: the normal interval", [{ start: -5000, end: -1000 }], { affordable: 3000 }, 3000],
    [
      "a late pod, taken for arrived",
      [{ start: -5000, end: -1000 }],
      { late: "arrived" },
      Number.POSITIVE_INFINITY,
    ],
    ["after a change: the follow-up", ["steady", "relaxed"], { followUp: true }, 400],
    [
      "after a change, a pod not due yet: when it falls due",
      [{ start: 12_000, end: 20_000 }],
      { followUp: true },
      12_000,
    ],
    ["the soonest of several", ["relaxed", { start: 12_000, end: 20_000 }, "steady"], {}, 1000],
  ])("%s", (_, paces, state, expected) => {
    expect(nextReadAt(0, 0, paces, { ...CALM, ...state }, INTERVALS)).toBe(expected);
  });
});
