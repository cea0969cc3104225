/**
 * What only the binary's own process shows, so these tests spawn dist/cli/main.js (the rest of
 * test/cli runs commands in the test's process, support/cli-in-process.ts): the exit status, the
 * configuration it reads from its environment, standard error as a pipe or as a terminal, and
 * Ctrl-C or SIGTERM ending a command that waits.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { errorText, hasScript, runCli, runCliOnTty, spawnCli, startCli } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { REPO_ROOT } from "../support/dist.js";
import { START } from "../support/emulator.js";
import { APP_POD } from "../support/seed-facts.js";

const SECRET = "rpa_CLI_TEST_SECRET_KEY_0123456789abcdef";

// Emulator time is frozen: a pod logs only when a test moves the clock.
const h = cliHarnessForAllTests({ clockScale: 0, startTime: START });
beforeAll(() => {
  h.emu.control.addApiKey(SECRET);
});

/** Runs the binary with the recorder's RUNPOD_* variables plus `env`; clears the recorded requests first. */
function runBinary(args: readonly string[], env: Record<string, string> = {}) {
  h.recorder.requests.length = 0;
  return runCli(args, { ...h.recorder.env, ...env });
}

describe("exit status", () => {
  it("--version prints the package version", async () => {
    const res = await runCli(["--version"]);
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect([res.code, res.stdout]).toEqual([0, `${version}\n`]);
  });

  it("a missing API key is one clear error, exit 1, before any request", async () => {
    h.recorder.requests.length = 0;
    const res = await runCli(["hub", "list"], { RUNPOD_BASE_URL: h.recorder.env.RUNPOD_BASE_URL ?? "" });
    const json = await runCli(["billing", "pods", "--json"]);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([
      1,
      "Error: No RunPod API key: set the RUNPOD_API_KEY environment variable (create a key in the RunPod console under Settings > API Keys). For the local emulator, `runpod-dynamic emulator` prints the variables to export.",
      [],
    ]);
    expect([json.code, JSON.parse(json.stderr).code]).toEqual([1, "NO_API_KEY"]);
  });

  it("a usage error wins over a missing key: the flags are checked first", async () => {
    const res = await runCli(["billing", "pods", "--bucket-size", "decade"]);
    expect(res.code).toBe(2);
    expect(errorText(res)).toBe(
      "error: option '--bucket-size <size>' argument 'decade' is invalid. --bucket-size must be one of hour, day, week, month, year.",
    );
  });
});

describe("the environment", () => {
  it("reads the same variables as the provider, including RUNPOD_TEAM_ID", async () => {
    const res = await runBinary(["hub", "get", "hub-sdxl", "--json"], {
      RUNPOD_API_KEY: SECRET,
      RUNPOD_TEAM_ID: "team-7",
    });
    expect([res.code, JSON.parse(res.stdout).id]).toEqual([0, "hub-sdxl"]);
    const [first] = h.recorder.requests;
    expect([first?.headers["x-team-id"], first?.headers.authorization]).toEqual([
      "team-7",
      `Bearer ${SECRET}`,
    ]);
  });

  // The client reads RUNPOD_DYNAMIC_DEBUG from its process (provider/client/rate-limit.ts).
  it("RUNPOD_DYNAMIC_DEBUG=ratelimit prints what each answer left of the quota to stderr, and nothing without it", async () => {
    const debug = await runBinary(["pods", "list"], { RUNPOD_DYNAMIC_DEBUG: "ratelimit" });
    const quiet = await runBinary(["pods", "list"]);
    expect([debug.code, quiet.code, quiet.stderr]).toEqual([0, 0, ""]);
    expect(debug.stderr).toMatch(
      /^runpod-dynamic ratelimit: observed minute \d+\/100000 left, resets in \d+ s, 0 in flight$/m,
    );
    expect(debug.stderr).not.toContain(h.emu.apiKey);
  });
});

describe("spinner", () => {
  it("stays off when stderr is not a terminal", async () => {
    const res = await runBinary(["hub", "list", "--limit", "1"]);
    expect([res.code, res.stderr]).toEqual([0, ""]);
  });

  it.skipIf(!hasScript())("spins on a terminal, and not in CI", async () => {
    const tty = await runCliOnTty(["hub", "list", "--limit", "1"], h.recorder.env);
    const ci = await runCliOnTty(["hub", "list", "--limit", "1"], { ...h.recorder.env, CI: "true" });
    expect([tty.code, tty.stdout]).toEqual([0, expect.stringContaining("Searching the hub")]);
    expect(tty.stdout).toContain("hub-comfy");
    expect([ci.code, ci.stdout.includes("Searching the hub"), ci.stdout]).toEqual([
      0,
      false,
      expect.stringContaining("hub-comfy"),
    ]);
  });
});

describe("standard input", () => {
  it("`pulumi preview --json | runpod-dynamic cost` waits for a writer that has not written yet", async () => {
    // A pipe whose writer is still running: the read must block, not fail with EAGAIN (cli/main.ts).
    const cli = spawnCli(["cost", "--json", "-"], h.recorder.env, { stdinOpen: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stack = "urn:pulumi:dev::demo::pulumi:pulumi:Stack::demo-dev";
    cli.child.stdin.end(
      JSON.stringify({ config: {}, steps: [{ op: "same", urn: stack }], changeSummary: { same: 1 } }),
    );
    const { code, stdout, stderr } = await cli.exited;
    expect([code, stderr, (JSON.parse(stdout) as { kind: string }).kind]).toEqual([0, "", "preview"]);
  });
});

describe("signals", () => {
  it("Ctrl-C (SIGINT) ends a followed log with exit 0 and what it printed", async () => {
    const pod = await h.api.pods.create(APP_POD);
    h.emu.control.advance(10_000);
    const cli = spawnCli(["pods", "logs", pod.id, "--follow", "--tail", "1"], h.recorder.env);
    await cli.waitFor(/Ready\n$/);
    cli.child.kill("SIGINT");
    const res = await cli.exited;
    expect([res.code, res.stderr, res.stdout]).toEqual([
      0,
      "",
      `${new Date(START + 5002).toISOString()}  container  Ready\n`,
    ]);
  });

  it("the emulator prints its three base URLs and a test key, serves the seed it was given, and stops on SIGTERM", async () => {
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
});
