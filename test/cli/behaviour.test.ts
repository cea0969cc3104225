/**
 * What every command shares: help on every level, exit codes, output formats,
 * configuration from the provider's environment variables and the API key never printed. What
 * only the binary's process shows (its exit status, its environment, the spinner on a terminal) is
 * process.test.ts's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests, runCommand } from "../support/cli-in-process.js";
import { emulatorLib } from "../support/emulator.js";

const SECRET = "rpa_CLI_TEST_SECRET_KEY_0123456789abcdef";

// hub-vllm's description carries the default key: a response echoing a key must not print it.
const hubListings = emulatorLib
  .defaultSeed()
  .hubListings.map((l) =>
    l.id === "hub-vllm" ? { ...l, description: `ask ${emulatorLib.DEFAULT_API_KEY} for access` } : l,
  );
const h = cliHarnessForAllTests({ seed: { hubListings } });
beforeAll(() => {
  h.emu.control.addApiKey(SECRET);
});

describe("help", () => {
  it.each([
    [[], "runpod-dynamic [options] [command]"],
    [["billing"], "runpod-dynamic billing [options] [command]"],
    [["billing", "all"], "runpod-dynamic billing all [options]"],
    [["billing", "pods"], "runpod-dynamic billing pods [options]"],
    [["billing", "serverless"], "runpod-dynamic billing serverless|sls [options]"],
    [["billing", "network-volume"], "runpod-dynamic billing network-volume|nv [options]"],
    [["pods"], "runpod-dynamic pods [options] [command]"],
    [["pods", "list"], "runpod-dynamic pods list [options]"],
    [["pods", "stop"], "runpod-dynamic pods stop [options] <pod-id>"],
    [["pods", "start"], "runpod-dynamic pods start [options] <pod-id>"],
    [["pods", "restart"], "runpod-dynamic pods restart [options] <pod-id>"],
    [["pods", "logs"], "runpod-dynamic pods logs [options] <pod-id>"],
    [["registries"], "runpod-dynamic registries [options] [command]"],
    [["registries", "list"], "runpod-dynamic registries list [options]"],
    [["registries", "delete"], "runpod-dynamic registries delete [options] <id>"],
    [["registries", "delegations"], "runpod-dynamic registries delegations [options] [command]"],
    [["registries", "delegations", "list"], "runpod-dynamic registries delegations list [options]"],
    [
      ["registries", "delegations", "create"],
      "runpod-dynamic registries delegations create [options] <repository>",
    ],
    [
      ["registries", "delegations", "delete"],
      "runpod-dynamic registries delegations delete|revoke [options] <id>",
    ],
    [["hub"], "runpod-dynamic hub [options] [command]"],
    [["hub", "list"], "runpod-dynamic hub list [options]"],
    [["hub", "search"], "runpod-dynamic hub search [options] <name>"],
    [["hub", "get"], "runpod-dynamic hub get [options] <ref>"],
    [["serverless"], "runpod-dynamic serverless [options] [command]"],
    [["serverless", "create"], "runpod-dynamic serverless create [options]"],
    [["serverless", "workers"], "runpod-dynamic serverless workers [options] <endpoint-id>"],
    [["serverless", "releases"], "runpod-dynamic serverless releases [options] <endpoint-id>"],
    [["serverless", "logs"], "runpod-dynamic serverless logs [options] <endpoint-id>"],
    [["jobs"], "runpod-dynamic jobs [options] [command]"],
    [["jobs", "run"], "runpod-dynamic jobs run [options]"],
    [["jobs", "status"], "runpod-dynamic jobs status [options]"],
    [["emulator"], "runpod-dynamic emulator [options]"],
  ])("%j --help prints usage on stdout and exits 0", async (path, usage) => {
    const res = await runCommand([...path, "--help"]);
    expect([res.code, res.stdout.split("\n")[0], res.stderr]).toEqual([0, `Usage: ${usage}`, ""]);
  });

  it("documents the flags' choices and defaults, and the JSON field names", async () => {
    const pods = await runCommand(["billing", "pods", "--help"]);
    const list = await runCommand(["hub", "list", "--help"]);
    expect(pods.stdout).toMatch(
      /--bucket-size <size>\s+length of one billing bucket \(choices: hour, day,\s+week,\s+month, year\) \(default: "day"\)/,
    );
    expect(pods.stdout).toContain("JSON fields (one object): query, records, totals, unattributed.");
    expect(list.stdout).toMatch(/applied client-side to the\s+fetched page, so --limit may return fewer/);
  });

  it("the top level lists the configuration variables and exit codes", async () => {
    const res = await runCommand(["--help"]);
    expect(res.stdout).toContain(
      "RUNPOD_API_KEY         API key (required by every command but emulator and cost --prices; never printed)",
    );
    expect(res.stdout).toContain("Exit codes: 0 success, 1 API or command failure, 2 usage error.");
    expect(res.stdout).toContain("  RUNPOD_REST_URL        ignored: REST v1 was retired on 2026-11-15\n");
  });

  it.each([
    [[], /^Usage: runpod-dynamic \[options\] \[command\]\n/],
    [["billing"], /^Usage: runpod-dynamic billing \[options\] \[command\]\n/],
    [["hub"], /^Usage: runpod-dynamic hub \[options\] \[command\]\n/],
    [["jobs"], /^Usage: runpod-dynamic jobs \[options\] \[command\]\n/],
    [["catalog"], /^Usage: runpod-dynamic catalog \[options\] \[command\]\n/],
  ])("%j without a subcommand shows help on stderr and exits 2", async (path, usage) => {
    const res = await runCommand(path);
    expect([res.code, res.stdout, res.stderr]).toEqual([
      2,
      "",
      expect.stringMatching(/^Usage: runpod-dynamic/),
    ]);
    expect(res.stderr).toMatch(usage);
  });
});

describe("output formats", () => {
  it("-o json, --output json and --json print the same document; -o yaml the same data", async () => {
    const args = ["hub", "list", "--limit", "3"];
    const short = await h.run([...args, "-o", "json"]);
    const long = await h.run([...args, "--output", "json"]);
    const flag = await h.run([...args, "--json"]);
    const yaml = await h.run([...args, "-o", "YAML"]);
    expect([short.stdout, long.stdout]).toEqual([flag.stdout, flag.stdout]);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(flag.stdout));
  });

  it.each([
    [
      ["hub", "list", "-o", "xml"],
      "error: option '-o, --output <format>' argument 'xml' is invalid. --output must be one of table, json, yaml.",
    ],
    [
      ["hub", "list", "--json", "-o", "yaml"],
      "error: option '--json' cannot be used with option '-o, --output <format>'",
    ],
  ])("%j exits 2", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res)]).toEqual([2, message]);
  });
});

describe("configuration and the API key", () => {
  it("sends no X-Team-Id without RUNPOD_TEAM_ID", async () => {
    const res = await h.run(["hub", "get", "hub-sdxl", "--json"], { RUNPOD_API_KEY: SECRET });
    const [first] = h.recorder.requests;
    expect([res.code, first?.headers["x-team-id"], first?.headers.authorization]).toEqual([
      0,
      undefined,
      `Bearer ${SECRET}`,
    ]);
  });

  it("a bad base URL is a configuration error naming the variable, exit 1", async () => {
    const res = await runCommand(["hub", "list"], {
      RUNPOD_API_KEY: SECRET,
      RUNPOD_BASE_URL: "ftp://api.example",
    });
    expect([res.code, errorText(res)]).toEqual([
      1,
      "Error: runpod:baseUrl / RUNPOD_BASE_URL must be an http(s) URL, got ftp:.",
    ]);
  });

  it("a rejected key exits 1 with the 401 detail and without the key", async () => {
    const wrong = "rpa_WRONG_KEY_THAT_MUST_NOT_LEAK_000000";
    const res = await h.run(["billing", "pods"], { RUNPOD_API_KEY: wrong });
    expect([res.code, errorText(res)]).toEqual([
      1,
      expect.stringMatching(
        /^Error: GET \/v2\/billing\/pods\?bucketSize=day: 401 Unauthorized: The API key is invalid or expired\. Check RUNPOD_API_KEY: it is missing, malformed, expired or invalid/,
      ),
    ]);
    expect(res.stdout + res.stderr).not.toContain(wrong);
    expect(res.stderr).not.toContain("pulumi config");
  });

  it("no command prints the key, even when a response carries it", async () => {
    const key = emulatorLib.DEFAULT_API_KEY;
    const table = await h.run(["hub", "get", "hub-vllm"]);
    const json = await h.run(["hub", "get", "hub-vllm", "--json"]);
    expect(table.stdout).toContain("Description     ask [redacted] for access\n");
    expect(JSON.parse(json.stdout).description).toBe("ask [redacted] for access");
    for (const res of [table, json]) expect(res.stdout + res.stderr).not.toContain(key);
  });

  it.each([
    [["billing", "pods"], 0],
    [["billing", "all", "--last-n", "2"], 0],
    [["billing", "serverless", "--json"], 0],
    [["pods", "list"], 0],
    [["pods", "stop", "nope", "--json"], 1],
    [["registries", "list", "--json"], 0],
    [["billing", "network-volume", "-o", "yaml"], 0],
    [["hub", "list"], 0],
    [["hub", "search", "comfy", "--json"], 0],
    [["hub", "get", "hub-nope"], 1],
    [["serverless", "create", "--hub-id", "hub-whisper", "--name", "secret-check"], 0],
    [["serverless", "create", "--hub-id", "hub-draft", "--name", "secret-check", "--json"], 1],
    [["jobs", "run", "--endpoint-id", "black-forest-labs-flux-1-schnell", "--input", "{}", "--sync"], 0],
    [["jobs", "status", "--endpoint-id", "nope", "--job-id", "nope", "--json"], 1],
  ])("%j never prints the key (exit %i)", async (args, code) => {
    const res = await h.run(args, { RUNPOD_API_KEY: SECRET });
    expect(res.code === 0 || res.code === 1).toBe(true);
    expect(res.code).toBe(code);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
  });
});

describe("REST v1 is gone", () => {
  it.each([
    ["not a URL", "not a url"],
    ["a v1 address", "https://rest.runpod.io"],
  ])("RUNPOD_REST_URL set to %s is ignored", async (_name, value) => {
    const window = ["--start-time", "2026-11-01T00:00:00Z", "--end-time", "2026-11-02T00:00:00Z"];
    const res = await h.run(["billing", "pods", ...window, "--json"], { RUNPOD_REST_URL: value });
    expect([res.code, res.stderr, h.recorder.requests.map((r) => r.base)]).toEqual([0, "", ["base", "base"]]);
  });

  it("no command calls a /v1 route", async () => {
    h.emu.control.clearRequests();
    const bases = new Set<string>();
    for (const args of [
      ["billing", "all"],
      ["billing", "pods", "--grouping", "gpuId"],
      ["billing", "serverless", "--grouping", "gpuId"],
      ["billing", "network-volume"],
      ["pods", "list"],
      ["registries", "list"],
      ["hub", "list"],
      ["serverless", "create", "--hub-id", "hub-sdxl", "--name", "no-rest"],
      ["jobs", "run", "--endpoint-id", "black-forest-labs-flux-1-schnell", "--input", "{}"],
    ]) {
      const res = await h.run(args);
      expect([args, res.code]).toEqual([args, 0]);
      for (const r of h.recorder.requests) bases.add(r.base);
    }
    const v1 = h.emu.control.requests().entries.filter((e) => e.path.startsWith("/v1"));
    expect([[...bases].sort(), v1]).toEqual([["base", "serverless"], []]);
  });
});
