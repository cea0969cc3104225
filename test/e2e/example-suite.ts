/** The phases every example goes through with the real Pulumi CLI, as a vitest suite driven by an ExampleSpec. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  type ExampleRun,
  type ExampleSpec,
  exampleRun,
  INSTALL_TIMEOUT_MS,
  leftovers,
  TIME_SCALE,
} from "./phases.js";

export function exampleSuite(spec: ExampleSpec, randomSeed: number): void {
  let emu: RunningEmulator;
  let run: ExampleRun;
  const all = (op: string, names: readonly string[] = spec.resources) =>
    names.map((n) => `${op} ${n}`).sort();

  beforeAll(async () => {
    emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed });
    run = await exampleRun(emu, spec.example, spec.config ?? {}, spec.secretConfig ?? []);
  }, INSTALL_TIMEOUT_MS);
  afterAll(async () => {
    run?.close();
    await emu.close();
    // E2E_REPORT_DIR=dir npx vitest run test/e2e writes each phase's operations and API calls.
    const dir = process.env.E2E_REPORT_DIR;
    if (dir && run) {
      const reports = run.reports.map(({ result: _result, ...r }) => r);
      writeFileSync(join(dir, `${spec.example}.json`), JSON.stringify(reports, null, 2));
    }
  });

  describe(`examples/${spec.example} through the real CLI`, { timeout: 180_000 }, () => {
    it("pulumi preview: all to create, no API writes", async () => {
      const r = await run.up("preview", {}, true);
      expect([r.code, r.ops, r.writes]).toEqual([0, all("create"), 0]);
    });

    it("pulumi up: creates everything", async () => {
      const r = await run.up("up");
      expect([r.code, r.errors, r.ops, r.writes]).toEqual([0, [], all("create"), spec.writes.up]);
      spec.afterUp(await run.outputs());
    });

    it("pulumi up --expect-no-changes: all the same, zero API writes", async () => {
      const r = await run.up("no-op");
      expect([r.code, r.ops, r.writes]).toEqual([0, all("same"), 0]);
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
      const updated = spec.replace.updated ?? [];
      const others = spec.resources.filter((n) => !replaced.includes(n) && !updated.includes(n));
      expect([r.code, r.ops, r.details, r.writes]).toEqual([
        0,
        [...all("replace", replaced), ...all("update", updated), ...all("same", others)].sort(),
        spec.replace.replaced,
        spec.writes.replace,
      ]);
      // Create before delete: each object the replace deletes goes only after a create in the same
      // collection (its replacement); a delete with no create before it, or none at all, fails.
      const createdFirst = r.writeRoutes.flatMap((route, at) => {
        if (!route.startsWith("DELETE ")) return [];
        const create = `POST ${route.slice("DELETE ".length).replace(/\/:id$/, "")}`;
        const created = r.writeRoutes.indexOf(create);
        return [[route, created >= 0 && created < at]];
      });
      expect(createdFirst).toEqual(createdFirst.map(([route]) => [route, true]));
    });

    it("pulumi refresh after an out-of-band change shows the drift", async () => {
      await spec.drift.change(emu, run.idOf);
      emu.control.clearRequests();
      const r = await run.refresh("refresh");
      const drifted = Object.keys(spec.drift.drifted);
      const gone = spec.drift.gone ?? [];
      const others = spec.resources.filter((n) => !drifted.includes(n) && !gone.includes(n));
      expect([r.code, r.ops, r.details, r.writes]).toEqual([
        0,
        [...all("drift", drifted), ...all("gone", gone), ...all("refresh", others)].sort(),
        spec.drift.drifted,
        0,
      ]);
    });

    it("pulumi destroy: the emulator holds nothing of the stack", async () => {
      const r = await run.destroy("destroy");
      const remaining = spec.resources.filter((n) => !(spec.drift.gone ?? []).includes(n));
      expect([r.code, r.writes, r.ops, leftovers(emu)]).toEqual([
        0,
        spec.writes.destroy,
        all("delete", remaining),
        { pods: [], endpoints: [], sshKeys: [], templates: [], networkVolumes: [] },
      ]);
    });

    it("pulumi stack export: no API key and no secret in plain text", async () => {
      const { text } = await run.stack.exportState();
      const secrets = [emu.apiKey, ...(spec.secretConfig ?? []).map((k) => String(spec.config?.[k]))];
      expect(secrets.filter((s) => text.includes(s))).toEqual([]);
    });

    // Last: the compile runs beside the phases above (it reads only the program's files).
    it("installs the dependencies its package.json declares and compiles under its own tsconfig", async () => {
      expect(await run.compiled).toBe("compiles");
    });
  });
}
