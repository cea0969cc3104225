/** The phases every example goes through, as a vitest suite driven by an ExampleSpec. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { UNKNOWN } from "./engine.js";
import { type ExampleRun, type ExampleSpec, exampleRun, leftovers, TIME_SCALE } from "./phases.js";

export function exampleSuite(spec: ExampleSpec, randomSeed: number): void {
  let emu: RunningEmulator;
  let run: ExampleRun;
  const all = (op: string, names: readonly string[] = spec.resources) =>
    names.map((n) => `${op} ${n}`).sort();
  const idOf = (name: string) => String([...run.state.resources.values()].find((r) => r.name === name)?.id);

  beforeAll(async () => {
    emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed });
    run = exampleRun(emu, spec.example, spec.project, spec.config ?? {}, spec.secretConfig ?? []);
  });
  afterAll(async () => {
    await emu.close();
    // E2E_REPORT_DIR=dir npx vitest run test/e2e writes each phase's operations and API calls.
    const dir = process.env.E2E_REPORT_DIR;
    if (dir) writeFileSync(join(dir, `${spec.example}.json`), JSON.stringify(run.reports, null, 2));
  });

  describe(`examples/${spec.example}`, { timeout: 120_000 }, () => {
    it("preview: all to create, computed outputs unknown, no API writes", async () => {
      const r = await run.up("preview", {}, true);
      expect([r.code, r.ops, r.writes, r.stackOutputs[spec.unknownInPreview]]).toEqual([
        0,
        all("create"),
        0,
        UNKNOWN,
      ]);
    });

    it("up: creates everything", async () => {
      const r = await run.up("up");
      expect([r.code, r.errors, r.ops, r.writes]).toEqual([0, [], all("create"), spec.writes.up]);
      spec.afterUp(r.stackOutputs);
    });

    it("up again unchanged: all the same, zero API writes", async () => {
      const r = await run.up("no-op");
      expect([r.ops, r.writes]).toEqual([all("same"), 0]);
      expect([r.code, r.errors]).toEqual([0, []]);
    });

    it("an edit that updates in place", async () => {
      const r = await run.up("update", spec.update.config);
      const others = spec.resources.filter((n) => !spec.update.updated.includes(n));
      expect([r.code, r.ops, r.writes]).toEqual([
        0,
        [...all("update", spec.update.updated), ...all("same", others)].sort(),
        spec.writes.update,
      ]);
    });

    it("an edit that replaces", async () => {
      const r = await run.up("replace", spec.replace.config);
      const replaced = Object.keys(spec.replace.replaced);
      const others = spec.resources.filter((n) => !replaced.includes(n));
      expect([r.code, r.ops, r.details, r.writes]).toEqual([
        0,
        [...all("replace", replaced), ...all("same", others)].sort(),
        spec.replace.replaced,
        spec.writes.replace,
      ]);
    });

    it("refresh after an out-of-band change shows the drift", async () => {
      await spec.drift.change(emu, idOf);
      emu.control.clearRequests();
      const r = await run.refresh("refresh");
      const drifted = Object.keys(spec.drift.drifted);
      const gone = spec.drift.gone ?? [];
      const others = spec.resources.filter((n) => !drifted.includes(n) && !gone.includes(n));
      expect([r.ops, r.details, r.writes]).toEqual([
        [...all("drift", drifted), ...all("gone", gone), ...all("refresh", others)].sort(),
        spec.drift.drifted,
        0,
      ]);
    });

    it("destroy: the emulator holds nothing of the stack", async () => {
      const r = await run.destroy("destroy");
      const remaining = spec.resources.filter((n) => !(spec.drift.gone ?? []).includes(n));
      expect([r.writes, r.ops, leftovers(emu)]).toEqual([
        spec.writes.destroy,
        all("delete", remaining),
        { pods: [], endpoints: [], sshKeys: [], templates: [], networkVolumes: [] },
      ]);
    });
  });
}
