/**
 * When the provider host says the engine paces a fleet (provider/host/engine-pacing.ts): the
 * engine's ways of sending checks and creates, played step by step on the tracker.
 */
import { describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";

const { EnginePacing } = loadDist<typeof import("../../provider/host/engine-pacing.js")>(
  "provider/host/engine-pacing.js",
);

/** A tracker, what it said, and creates the test starts and ends by hand. */
function engine(room = true) {
  const said: string[] = [];
  const pacing = new EnginePacing((m) => said.push(m));
  const open: (() => void)[] = [];
  const ended: Promise<unknown>[] = [];
  return {
    said,
    check: (n: number) => {
      for (let i = 0; i < n; i++) pacing.checkedNew();
    },
    start: (n: number) => {
      for (let i = 0; i < n; i++) {
        ended.push(
          pacing.create(() => new Promise<void>((resolve) => open.push(resolve)), { hasSpare: () => room }),
        );
      }
    },
    /** Ends the `n` oldest creates still running and lets their ends run. */
    end: async (n: number) => {
      for (const resolve of open.splice(0, n)) resolve();
      await Promise.all(ended.splice(0, n));
    },
  };
}

describe("the engine pacing a fleet", () => {
  it("a fleet of 10 going 2 at a time: said once, naming 2, after the second hand-over", async () => {
    const e = engine();
    e.check(10);
    e.start(2);
    await e.end(2);
    e.start(2);
    expect(e.said).toEqual([]);
    await e.end(2);
    e.start(2);
    expect(e.said).toHaveLength(1);
    expect(e.said[0]).toMatch(/runs at most 2 operations at once/);
    expect(e.said[0]).toContain("pulumi up --parallel <number of pods>");
    await e.end(2);
    e.start(2);
    await e.end(2);
    e.start(2);
    expect(e.said).toHaveLength(1);
  });

  it("a fleet the engine creates all at once: nothing said", async () => {
    const e = engine();
    e.check(10);
    e.start(10);
    await e.end(10);
    expect(e.said).toEqual([]);
  });

  it("pods that depend on each other, each checked when the one before ends: nothing said", async () => {
    const e = engine();
    for (let i = 0; i < 5; i++) {
      e.check(1);
      e.start(1);
      await e.end(1);
    }
    expect(e.said).toEqual([]);
  });

  it("the quota without room: the quota paces, nothing said", async () => {
    const e = engine(false);
    e.check(10);
    for (let i = 0; i < 5; i++) {
      e.start(2);
      await e.end(2);
    }
    expect(e.said).toEqual([]);
  });

  it("a create that fails counts as ended", async () => {
    const said: string[] = [];
    const pacing = new EnginePacing((m) => said.push(m));
    for (let i = 0; i < 4; i++) pacing.checkedNew();
    const failing = () => Promise.reject(new Error("no capacity"));
    for (let i = 0; i < 3; i++) await pacing.create(failing, { hasSpare: () => true }).catch(() => undefined);
    expect(said).toHaveLength(1);
  });
});
