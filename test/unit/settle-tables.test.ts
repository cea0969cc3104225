/** The settle policy for unanswered writes (provider/client/create-once.ts), read as a table. */
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";

const { settling } = loadDist<typeof import("../../provider/client/create-once.js")>(
  "provider/client/create-once.js",
);

describe("settling", () => {
  it.each([
    // startedAt, failedAt: first look as long again after the failure, settled three times as long.
    [0, 2_000, 4_000, 8_000],
    [10_000, 40_000, 70_000, 130_000],
    // At most a minute of waiting counts, however long the request hung.
    [0, 300_000, 360_000, 480_000],
    // A write that failed at once settles at once.
    [5_000, 5_000, 5_000, 5_000],
    // A wall clock stepped back never gives a settle time before the failure.
    [9_000, 8_000, 8_000, 8_000],
  ])("sent at %i, failed at %i: look at %i, settled at %i", (startedAt, failedAt, lookAt, settlesAt) => {
    expect(settling(startedAt, failedAt)).toEqual({ lookAt, settlesAt });
  });
});
