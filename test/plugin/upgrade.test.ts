/**
 * A create interrupted under one plugin version and finished under the next. The next version is
 * a new default provider with a new id, so its own take-over of an interrupted create (by a key
 * made from that id) cannot find the pod; the key the interrupted run computed is in the pending
 * create Pulumi keeps, and `runpod-dynamic pending-creates` pairs it with the pod for Pulumi's own
 * `refresh --import-pending-creates` (docs/reliability.md).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildLocalPluginArchive, type PluginArchive } from "../../harness/plugin-executables.js";
import type { ProgramStack } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PLUGIN_VERSION, pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { livePodIds, TIME_SCALE, until } from "../support/stack.js";

const PROGRAM = join(__dirname, "yaml-one-pod");
/** The release after this one: its plugin is this code built under the next patch version. */
const NEXT_VERSION = PLUGIN_VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1));

/** The name the engine gives the default provider of a version (`default_0_3_0`). */
const defaultProvider = (version: string) => `default_${version.replaceAll(".", "_")}`;

let emu: RunningEmulator;
let stack: ProgramStack;
let next: PluginArchive;

/** The program with its pod pinned to plugin `version`, as an SDK of that release pins it. */
function pinTo(version: string): void {
  const program = readFileSync(join(PROGRAM, "Pulumi.yaml"), "utf8");
  writeFileSync(join(stack.dir, "Pulumi.yaml"), `${program}    options:\n      version: ${version}\n`);
}

const stateOf = async () => (await stack.exportState()).deployment;
const pods = async () =>
  ((await stateOf()).resources ?? [])
    .filter((r) => r.type === "runpod-dynamic:index:Pod")
    .map((r) => [r.id, r.outputs?.status, r.provider?.split("::").at(-2)]);

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 93 });
  [stack, next] = await Promise.all([
    pluginAsset().then((asset) => pluginStackOnEmulator(emu, asset, PROGRAM)),
    buildLocalPluginArchive(NEXT_VERSION),
  ]);
  await stack.expect(["plugin", "install", "resource", "runpod-dynamic", NEXT_VERSION, "--file", next.file]);
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  next?.dispose();
  await emu?.close();
});

describe("a create interrupted under one plugin version", { timeout: 240_000 }, () => {
  it("is finished under the next: the pod found by its key, imported, created once", async () => {
    pinTo(PLUGIN_VERSION);
    // The pod takes 5 minutes of emulator time (6 s of wall time) to start.
    emu.control.setSettings({ provisioningMs: 300_000 });
    const up = stack.start(["up", "--yes", "--skip-preview"]);
    await until(() => livePodIds(emu).length === 1);
    await until(() => up.cliPid() !== undefined);
    process.kill(up.cliPid() ?? 0, "SIGKILL");
    expect((await up.done).code).toBe(137);
    const orphan = livePodIds(emu);
    await stack.expect(["cancel", "--yes"]);

    pinTo(NEXT_VERSION);
    const exported = (await stack.expect(["stack", "export"])).stdout;
    const importFile = join(stack.workDir, "pods.json");
    const found = await runCli(
      ["pending-creates", "--json", "--import-file", importFile],
      emu.env(),
      exported,
    );
    const report = JSON.parse(found.stdout) as { pendingCreates: { urn: string }[] };
    const provider = `urn:pulumi:dev::plugin-yaml-one-pod::pulumi:providers:runpod-dynamic::${defaultProvider(PLUGIN_VERSION)}`;
    expect([found.code, report, JSON.parse(readFileSync(importFile, "utf8"))]).toEqual([
      0,
      {
        pendingCreates: [
          {
            urn: "urn:pulumi:dev::plugin-yaml-one-pod::runpod-dynamic:index:Pod::a",
            type: "runpod-dynamic:index:Pod",
            verdict: "found",
            podId: orphan[0],
            status: expect.any(String),
            duplicates: [],
          },
        ],
        importFile: expect.any(Object),
        clearAfter: true,
      },
      {
        nameTable: { [`${defaultProvider(PLUGIN_VERSION)}-0`]: provider },
        resources: [
          {
            type: "runpod-dynamic:index:Pod",
            name: "a",
            id: orphan[0],
            provider: `${defaultProvider(PLUGIN_VERSION)}-0`,
          },
        ],
      },
    ]);

    // The commands it prints for people, run as they are printed.
    const told = await runCli(["pending-creates", "--import-file", importFile], emu.env(), exported);
    const commands = told.stdout
      .split("\n")
      .filter((line) => line.startsWith("  pulumi "))
      .map((line) => line.trim().split(" ").slice(1));
    expect(commands.map((c) => c[0])).toEqual(["import", "refresh"]);
    for (const command of commands) await stack.expect(command);
    const resumed = await stack.expect(["up", "--refresh", "--yes", "--skip-preview"]);
    await stack.expect(["preview", "--expect-no-changes"]);
    expect([
      (await stateOf()).pending_operations ?? [],
      await pods(),
      livePodIds(emu),
      `${resumed.stdout}${resumed.stderr}`.includes("created "),
    ]).toEqual([[], [[orphan[0], "RUNNING", defaultProvider(NEXT_VERSION)]], orphan, false]);
  });
});
