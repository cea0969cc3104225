/**
 * Every example as the README says to use it: from its own folder, `npm install` (its package.json
 * unchanged, runpod-dynamic from this repository through `file:../..`), its own tsconfig compiling
 * its program, and `pulumi preview` then `up` and `destroy` through the real CLI in that folder.
 * Each runs in a sibling folder of the example (examples/.install-<name>, so `file:../..` means the
 * same), never in the example itself, whose node_modules the whole-program tests would pick up.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { TIME_SCALE } from "../support/stack.js";
import { npm } from "./installed.js";

const run = promisify(execFile);
const EXAMPLES = join(REPO_ROOT, "examples");
// The Node programs: examples/yaml and examples/python run on the provider plugin (test/plugin/).
const names = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && !d.name.startsWith(".") && existsSync(join(EXAMPLES, d.name, "package.json")),
  )
  .map((d) => d.name);
const folderOf = (name: string) => join(EXAMPLES, `.install-${name}`);
/** The config an example requires (its README says how to set it). */
const REQUIRED: Record<string, { plain?: Record<string, string>; secret?: Record<string, string> }> = {
  gitops: { secret: { "runpod-gitops:hfToken": "hf_EXAMPLE_INSTALL" } },
  "private-image": {
    plain: { "runpod-private-image:registryUser": "acme-bot" },
    secret: { "runpod-private-image:registryPassword": "ghp_EXAMPLE_INSTALL" },
  },
};

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 77 });
});
afterAll(async () => {
  await emu?.close();
  for (const name of names) rmSync(folderOf(name), { recursive: true, force: true });
});

describe("every example installs and runs from its folder", { timeout: 300_000 }, () => {
  it.each(names)("%s: npm install, its tsconfig, then preview, up and destroy", async (name) => {
    const dir = folderOf(name);
    rmSync(dir, { recursive: true, force: true });
    cpSync(join(EXAMPLES, name), dir, {
      recursive: true,
      filter: (src) => !/[\\/](node_modules|package-lock\.json)$/.test(src),
    });
    // --ignore-scripts: packing the repository would run its `prepare` (a build of dist/) while
    // other suites read dist/; `npm test` has built it already, and the pack takes it as it is.
    await npm(dir, ["install", "--prefer-offline", "--ignore-scripts"]);
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    const compiled = await run(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: dir }).then(
      () => "compiles",
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(compiled).toBe("compiles");

    const stack = await ProgramStack.create({
      programDir: dir,
      inPlace: true,
      env: { RUNPOD_API_KEY: "", RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
    });
    try {
      const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
      await stack.setConfig(
        { ...urls, ...REQUIRED[name]?.plain },
        { "runpod:apiKey": String(apiKey), ...REQUIRED[name]?.secret },
      );
      const results = [];
      for (const args of [
        ["preview"],
        ["up", "--yes", "--skip-preview"],
        ["destroy", "--yes", "--skip-preview"],
      ]) {
        const r = await stack.run(args);
        results.push([args[0], r.code, r.code === 0 ? "" : `${r.stdout}\n${r.stderr}`.slice(-2000)]);
      }
      expect(results).toEqual([
        ["preview", 0, ""],
        ["up", 0, ""],
        ["destroy", 0, ""],
      ]);
    } finally {
      stack.dispose();
    }
  });
});
