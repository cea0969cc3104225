import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";

describe("runpod-dynamic emulator", () => {
  it("prints its three base URLs and a test key, serves the seed it was given, and stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rp-seed-"));
    const seedFile = join(dir, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify({
        dataCenters: [
          {
            id: "XX-TEST-1",
            name: "Test 1",
            region: "EUROPE",
            globalNetwork: false,
            networkVolumeTypes: [],
            compliance: [],
          },
        ],
      }),
    );
    const { child, output, exited } = await startCli(
      ["emulator", "--seed", seedFile, "--control"],
      /RUNPOD_SERVERLESS_URL=\S+\n/,
    );
    const text = output();
    const env = Object.fromEntries([...text.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(env).sort()).toEqual([
      "RUNPOD_API_KEY",
      "RUNPOD_BASE_URL",
      "RUNPOD_PROXY_URL",
      "RUNPOD_SERVERLESS_URL",
    ]);
    expect(text).toMatch(/pod proxy\s+http:\/\/127\.0\.0\.1:\d+\/\{podId\}-\{port\}/);
    expect(text).toMatch(/base_url\s+http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).toMatch(
      /rest_url\s+http:\/\/127\.0\.0\.1:\d+ {3}\(REST v1, retired: answers 410 naming the v2 route\)\n/,
    );
    const res = await fetch(`${env.RUNPOD_BASE_URL}/v2/catalog/datacenters`, {
      headers: { authorization: `Bearer ${env.RUNPOD_API_KEY}` },
    });
    const body = (await res.json()) as { dataCenters: { id: string }[] };
    const control = await fetch(`${env.RUNPOD_BASE_URL}/__emulator/clock`);
    expect([res.status, body.dataCenters.map((d) => d.id), control.status]).toEqual([
      200,
      ["XX-TEST-1"],
      200,
    ]);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it.each([
    [["emulator", "--port", "abc"], /--port must be an integer between 0 and 65533/],
    [["emulator", "--clock-scale", "-1"], /--clock-scale must be a number between 0 and 10000/],
    [["emulator", "--bogus"], /unknown option '--bogus'/],
  ])("rejects %j with exit code 2", async (args, message) => {
    const res = await runCli(args);
    expect([res.code, res.stderr]).toEqual([2, expect.stringMatching(message)]);
  });

  it("refuses --clock-scale 0 without the control plane that could move the frozen clock", async () => {
    const res = await runCli(["emulator", "--clock-scale", "0"]);
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
    const wrong = await runCli(["emulator", "--seed", wrongType]);
    const unknown = await runCli(["emulator", "--seed", typo]);
    expect([wrong.code, unknown.code]).toEqual([2, 2]);
    expect(wrong.stderr).toContain(
      `--seed ${wrongType}:\n  dataCenters.0.id: Invalid input: expected string, received number`,
    );
    expect(unknown.stderr).toContain(
      `--seed ${typo}:\n  dataCentres: not a seed key (the seed has apiKeys, dataCenters,`,
    );
  });

  it("fails with exit code 1 on an unreadable seed file", async () => {
    const res = await runCli(["emulator", "--seed", "/nonexistent/seed.json"]);
    expect([res.code, res.stderr]).toEqual([
      1,
      expect.stringMatching(/--seed \/nonexistent\/seed.json: ENOENT/),
    ]);
  });
});
