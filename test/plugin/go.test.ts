/**
 * A Go program on the provider plugin through Pulumi's Go Automation API (test/plugin/go: an inline
 * program, so no Go language host is needed) with the generated Go SDK (sdk/go), the Go SDK of
 * Pulumi from the module proxy, and the plugin installed from the packed package's release asset:
 * the SDK builds and vets, every Go example of the schema builds against it, and the program (which
 * reads a pod's disk as the `pulumi.IntOutput` the SDK types it as) brings a pod up and takes it
 * down on the emulator.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quietEnv, REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PLUGIN_VERSION, pluginAsset, pluginConfig } from "../support/plugin.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
const MODULE = join(__dirname, "go");
const SDK_PACKAGE = "github.com/runpod-dynamic/runpod-dynamic/sdk/go/runpoddynamic/...";

let emu: RunningEmulator;
let work: string;
let driver: string;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 37,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  work = mkdtempSync(join(tmpdir(), "runpod-go-"));
  driver = join(work, "driver");
  const cli = requirePulumiCli();
  mkdirSync(join(work, "backend"));
  mkdirSync(join(work, "project"));
  env = quietEnv({
    PATH: [cli.dir, process.env.PATH ?? ""].join(delimiter),
    PULUMI_BACKEND_URL: `file://${join(work, "backend")}`,
    PULUMI_HOME: join(work, "home"),
    PULUMI_CONFIG_PASSPHRASE: "runpod-dynamic-tests",
    RUNPOD_API_KEY: "",
    RUNPOD_BASE_URL: "",
    RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
  });
  const [asset] = await Promise.all([
    pluginAsset(),
    run("go", ["build", "-o", driver, "."], { cwd: MODULE, maxBuffer: 16 * 1024 * 1024 }),
  ]);
  await run(cli.bin, ["plugin", "install", "resource", "runpod-dynamic", PLUGIN_VERSION, "--file", asset], {
    env,
  });
}, 300_000);
afterAll(async () => {
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function drive(operation: "up" | "destroy") {
  const { plain, secret } = pluginConfig(emu);
  try {
    const { stdout } = await run(
      driver,
      [operation, join(work, "project"), JSON.stringify({ plain, secret })],
      {
        env,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
      changes: Record<string, number>;
      outputs: Record<string, unknown>;
    };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${operation} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

describe("a Go program on the provider plugin", { timeout: 300_000 }, () => {
  it("the generated SDK passes go vet", async () => {
    await run("go", ["vet", ".", SDK_PACKAGE], { cwd: MODULE });
  });

  it("every Go example of the schema builds and vets against the SDK", async () => {
    // A copy of this module, the SDK's path made absolute, with each example a package of its own.
    const module = join(work, "examples");
    mkdirSync(module);
    for (const f of ["go.mod", "go.sum"]) cpSync(join(MODULE, f), join(module, f));
    const mod = readFileSync(join(module, "go.mod"), "utf8").replace(
      "../../../sdk/go",
      join(REPO_ROOT, "sdk", "go"),
    );
    writeFileSync(join(module, "go.mod"), mod);
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, "sdk", "schema.json"), "utf8")) as {
      resources: Record<string, { description: string }>;
    };
    const examples = Object.entries(schema.resources).flatMap(([token, r]) =>
      [...r.description.matchAll(/```go\n([\s\S]*?)```/g)].map((m, i) => {
        const dir = join(module, `${token.split(":").pop()?.toLowerCase()}${i}`);
        mkdirSync(dir);
        writeFileSync(join(dir, "main.go"), m[1] ?? "");
        return dir;
      }),
    );
    expect(examples.length).toBe(9);
    // -mod=mod: the examples import a package of the Go SDK (config) the driver does not.
    await run("go", ["vet", "-mod=mod", "./..."], { cwd: module, maxBuffer: 16 * 1024 * 1024 });
  });

  it("brings a pod up and takes it down", async () => {
    const up = await drive("up");
    const podId = up.outputs.podId;
    expect([
      up.changes,
      up.outputs.status,
      emu.control.snapshot().pods.find((p) => p.id === podId)?.status,
      up.outputs.diskGb,
    ]).toEqual([{ create: 2 }, "RUNNING", "RUNNING", 20]);
    const down = await drive("destroy");
    expect([down.changes, livePodIds(emu)]).toEqual([{ delete: 2 }, []]);
  });
});
