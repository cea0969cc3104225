/**
 * examples/nodejs-sdk as a TypeScript team runs it on the plugin's Node.js SDK: the rehearsed
 * `@runpod-dynamic/pulumi` package installed with npm beside Pulumi's Node SDK, the program
 * type-checked against it and run through the real CLI, the engine fetching the plugin from the
 * rehearsal's folder served on 127.0.0.1 (test/support/release.ts): up of a pod on a network volume,
 * `pulumi import` of a pod made outside the stack, destroy of both. (`pulumi import` loads Pulumi's
 * Node.js language host, which the module proxy does not serve: the launcher serves what the import
 * asks of it, harness/new-project-runtime.ts, so it runs with `--generate-code=false`.)
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { Rehearsal } from "../../harness/release-rehearse.js";
import { ProgramStack } from "../../harness/stack.js";
import { installProgram } from "../package/installed.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginConfig } from "../support/plugin.js";
import { fetchingEnv, rehearsal, type ServedFolder, servedArchive, serveFolder } from "../support/release.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);

let release: Rehearsal;
let served: ServedFolder;
let emu: RunningEmulator;
let dir: string;
let stack: ProgramStack;

beforeAll(async () => {
  release = await rehearsal();
  served = await serveFolder(release.dir);
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 47,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  const pulumiVersion = (
    JSON.parse(
      readFileSync(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ) as {
      version: string;
    }
  ).version;
  dir = await installProgram(join(REPO_ROOT, "examples", "nodejs-sdk"), {
    dependencies: {
      "@pulumi/pulumi": pulumiVersion,
      "@runpod-dynamic/pulumi": `file:${join(release.dir, `runpod-dynamic-pulumi-${release.version}.tgz`)}`,
    },
    devDependencies: { "@types/node": "20.19.43", typescript: "5.9.3" },
  });
  stack = await ProgramStack.create({
    programDir: dir,
    inPlace: true,
    env: fetchingEnv(served),
  });
  const { plain, secret } = pluginConfig(emu);
  await stack.setConfig(plain, secret);
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await served?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a TypeScript program on the plugin's Node.js SDK", { timeout: 300_000 }, () => {
  it("type-checks against the installed SDK: a pod's disk is a number", async () => {
    await run(process.execPath, [
      join(dir, "node_modules", "typescript", "bin", "tsc"),
      "--noEmit",
      "-p",
      dir,
    ]);
    const typed = readFileSync(join(dir, "node_modules", "@runpod-dynamic", "pulumi", "pod.d.ts"), "utf8");
    expect(typed).toMatch(/readonly disk: pulumi\.Output<number>;/);
  });

  it("fetches the plugin and brings a pod up on its volume", async () => {
    await stack.expect(["up", "--yes", "--skip-preview"]);
    const outputs = await stack.outputs();
    expect({
      fetched: served.asked.includes(servedArchive(release)),
      status: [outputs.status, emu.control.snapshot().pods.find((p) => p.id === outputs.podId)?.status],
    }).toEqual({ fetched: true, status: ["RUNNING", "RUNNING"] });
  });

  it("imports a pod made outside the stack, with its fields as the API has them", async () => {
    const outside = await apiFor(emu).pods.create({
      name: "made-by-hand",
      image: "runpod/base:0.6.2-cpu",
      cpu: { id: "cpu3c", vcpuCount: 2 },
    });
    await stack.expect([
      "import",
      "runpod-dynamic:index:Pod",
      "by-hand",
      outside.id,
      "--yes",
      "--protect=false",
      "--generate-code=false",
    ]);
    const imported = ((await stack.exportState()).deployment.resources ?? []).find((r) =>
      r.urn.endsWith("::runpod-dynamic:index:Pod::by-hand"),
    );
    expect([imported?.id, imported?.inputs?.name, imported?.inputs?.image]).toEqual([
      outside.id,
      "made-by-hand",
      "runpod/base:0.6.2-cpu",
    ]);
  });

  it("destroys everything, the imported pod too", async () => {
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
    expect(livePodIds(emu)).toEqual([]);
  });
});
