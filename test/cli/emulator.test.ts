import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand } from "../support/cli-in-process.js";

describe("runpod-dynamic emulator", () => {
  it.each([
    [["emulator", "--port", "abc"], /--port must be an integer between 0 and 65533/],
    [["emulator", "--clock-scale", "-1"], /--clock-scale must be a number between 0 and 10000/],
    [["emulator", "--bogus"], /unknown option '--bogus'/],
  ])("rejects %j with exit code 2", async (args, message) => {
    const res = await runCommand(args);
    expect([res.code, res.stderr]).toEqual([2, expect.stringMatching(message)]);
  });

  it("refuses --clock-scale 0 without the control plane that could move the frozen clock", async () => {
    const res = await runCommand(["emulator", "--clock-scale", "0"]);
    expect([res.code, res.stderr]).toEqual([
      2,
      expect.stringMatching(
        /--clock-scale 0 freezes emulator time, so no pod would ever start; add --control/,
      ),
    ]);
  });

  it("names the seed file, each wrong field and each unknown key, with exit code 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rp-seed-"));
    const wrongType = join(dir, "wrong.json");
    const typo = join(dir, "typo.json");
    writeFileSync(wrongType, JSON.stringify({ dataCenters: [{ id: 7, name: "x" }] }));
    writeFileSync(typo, JSON.stringify({ dataCentres: [], registries: [] }));
    const wrong = await runCommand(["emulator", "--seed", wrongType]);
    const unknown = await runCommand(["emulator", "--seed", typo]);
    expect([wrong.code, unknown.code]).toEqual([2, 2]);
    expect(wrong.stderr).toContain(
      `--seed ${wrongType}:\n  dataCenters.0.id: Invalid input: expected string, received number`,
    );
    expect(unknown.stderr).toContain(
      `--seed ${typo}:\n  dataCentres: not a seed key (the seed has apiKeys, dataCenters,`,
    );
  });

  it("fails with exit code 1 on an unreadable seed file", async () => {
    const res = await runCommand(["emulator", "--seed", "/nonexistent/seed.json"]);
    expect([res.code, res.stderr]).toEqual([
      1,
      expect.stringMatching(/--seed \/nonexistent\/seed.json: ENOENT/),
    ]);
  });
});
