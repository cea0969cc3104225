/**
 * The plugin fetched by the engine, on a machine with no Node.js: the rehearsal's folder served
 * from 127.0.0.1 in the place of the GitHub release the schema names (Pulumi's download-URL
 * override), every command run where `node` does not exist (test/support/release.ts).
 *
 * - `pulumi plugin install resource runpod-dynamic <version> --server <download location>`, no
 *   `--file`: installed, and it runs (Pulumi reads its schema from it).
 * - examples/yaml as a YAML team runs it: `pulumi install` fetches the plugin from what the
 *   program's `packages` names; then, with an empty plugin folder, `pulumi up` fetches it by itself:
 *   a pod RUNNING on a network volume; `pulumi destroy` leaves nothing.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_EXECUTABLE } from "../../harness/plugin-executables.js";
import { REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/plugin/tokens.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginConfig } from "../support/plugin.js";
import {
  machineWithoutNodeEnv,
  rehearsal,
  runWithoutNode,
  type ServedFolder,
  servedArchive,
  serveFolder,
} from "../support/release.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

let release: Rehearsal;
let served: ServedFolder;
let emu: RunningEmulator;
let work: string;

beforeAll(async () => {
  release = await rehearsal();
  served = await serveFolder(release.dir);
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 46,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  work = mkdtempSync(join(tmpdir(), "runpod-fetch-"));
}, 600_000);
afterAll(async () => {
  await served?.close();
  await emu?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `pulumi args` in `cwd` with Pulumi's home at `home`, on a machine without Node.js. */
function pulumi(args: string[], home: string, cwd = work): Promise<{ stdout: string; stderr: string }> {
  const env = { ...machineWithoutNodeEnv(served, work), PULUMI_HOME: home };
  return runWithoutNode(join(requirePulumiCli().dir, "pulumi"), args, { cwd, env });
}

const installedPlugin = (home: string) =>
  join(home, "plugins", `resource-runpod-dynamic-v${release.version}`, PLUGIN_EXECUTABLE);

describe("the engine fetches the plugin, with no Node.js on the machine", { timeout: 300_000 }, () => {
  it("`pulumi plugin install resource runpod-dynamic <version> --server <download location>`: installed, and it runs", async () => {
    const home = join(work, "home-install");
    await pulumi(
      ["plugin", "install", "resource", "runpod-dynamic", release.version, "--server", PLUGIN_DOWNLOAD_URL],
      home,
    );
    const { stdout } = await pulumi(["package", "get-schema", `runpod-dynamic@${release.version}`], home);
    const schema = JSON.parse(stdout) as { name: string; version: string; pluginDownloadURL: string };
    expect({
      fetched: served.asked.includes(servedArchive(release)),
      installed: existsSync(installedPlugin(home)),
      schema: [schema.name, schema.version, schema.pluginDownloadURL],
    }).toEqual({
      fetched: true,
      installed: true,
      schema: ["runpod-dynamic", release.version, PLUGIN_DOWNLOAD_URL],
    });
  });

  it("examples/yaml: `pulumi install` fetches it, `pulumi up` with no plugin fetches it again, a pod RUNNING on its volume; destroy leaves nothing", async () => {
    const project = join(work, "yaml");
    cpSync(join(REPO_ROOT, "examples", "yaml"), project, { recursive: true });
    mkdirSync(join(work, "backend"), { recursive: true });
    const installHome = join(work, "home-yaml-install");
    await pulumi(["install"], installHome, project);
    const declared = join(project, "sdks", "runpod-dynamic", `runpod-dynamic-${release.version}.yaml`);
    const fetchedByInstall = existsSync(installedPlugin(installHome));

    // A machine that ran nothing yet: no plugin, the program as committed with what install wrote.
    const home = join(work, "home-yaml-up");
    const askedBefore = served.asked.length;
    await pulumi(["stack", "init", "dev"], home, project);
    const { plain, secret } = pluginConfig(emu);
    for (const [key, value] of Object.entries(plain)) {
      await pulumi(["config", "set", "--stack", "dev", key, value], home, project);
    }
    for (const [key, value] of Object.entries({ ...secret, hfToken: "hf_fetch_test_token" })) {
      await pulumi(["config", "set", "--stack", "dev", "--secret", key, value], home, project);
    }
    await pulumi(["up", "--stack", "dev", "--yes", "--skip-preview"], home, project);
    const { stdout } = await pulumi(["stack", "output", "--stack", "dev", "--json"], home, project);
    const outputs = JSON.parse(stdout) as Record<string, unknown>;
    const pod = emu.control.snapshot().pods.find((p) => p.id === outputs.podId);
    expect({
      fetchedByInstall,
      declared: existsSync(declared) && readFileSync(declared, "utf8").includes(PLUGIN_DOWNLOAD_URL),
      fetchedByUp: served.asked.slice(askedBefore).includes(servedArchive(release)),
      installed: existsSync(installedPlugin(home)),
      podStatus: [outputs.podStatus, pod?.status],
      onVolume:
        (outputs.mounts as { network?: { volumeId: string }[] }).network?.[0]?.volumeId === outputs.volumeId,
    }).toEqual({
      fetchedByInstall: true,
      declared: true,
      fetchedByUp: true,
      installed: true,
      podStatus: ["RUNNING", "RUNNING"],
      onVolume: true,
    });

    await pulumi(["destroy", "--stack", "dev", "--yes", "--skip-preview"], home, project);
    expect([
      livePodIds(emu),
      emu.control.snapshot().networkVolumes.some((v) => v.id === outputs.volumeId),
    ]).toEqual([[], false]);
  });
});
