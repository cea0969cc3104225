/**
 * The packed package under yarn 1 and pnpm, the versions this repository pins: `pulumi new` from
 * the template with `packagemanager` set, which installs with that package manager (its lockfile,
 * its node_modules layout), then `pulumi up` and `pulumi destroy` through the real CLI on the
 * emulator. npm is what template.test.ts and the other tests here install with.
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";
import { packageManagersBin, packTarball, templateWith } from "./installed.js";

let scratch: string;
let template: string;
let bin: string;
let emu: RunningEmulator;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "runpod-package-managers-"));
  template = templateWith(scratch, await packTarball());
  bin = packageManagersBin(scratch);
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 137,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
}, 120_000);
afterAll(async () => {
  await emu?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const LOCKFILE = { yarn: "yarn.lock", pnpm: "pnpm-lock.yaml" } as const;

describe("a program installed with yarn or pnpm", { timeout: 600_000 }, () => {
  it.each(["yarn", "pnpm"] as const)(
    "%s: pulumi new installs with it, then up and destroy",
    async (manager) => {
      const stack = ProgramStack.forNewProject({
        stack: manager,
        env: {
          PATH: [bin, process.env.PATH ?? ""].join(delimiter),
          // yarn 1 fails the install on a package whose `engines` the running Node does not meet, and
          // @pulumi/pulumi declares node >=22 (docs/install.md, "Package managers").
          YARN_IGNORE_ENGINES: "true",
          RUNPOD_API_KEY: "",
          RUNPOD_BASE_URL: "",
          RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE),
        },
      });
      try {
        const created = await stack.run([
          "new",
          template,
          "--yes",
          "--name",
          `gpu-${manager}`,
          "--runtime-options",
          `packagemanager=${manager}`,
        ]);
        expect([created.code, created.code === 0 ? "" : created.stdout + created.stderr]).toEqual([0, ""]);
        const project = parseYaml(readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8")) as {
          runtime: unknown;
        };
        const pkg = join(stack.dir, "node_modules", "runpod-dynamic");
        expect([
          project.runtime,
          existsSync(join(stack.dir, LOCKFILE[manager])),
          existsSync(join(stack.dir, "package-lock.json")),
          // pnpm links each package from its store (node_modules/.pnpm); yarn 1 copies, as npm does.
          lstatSync(pkg).isSymbolicLink(),
        ]).toEqual([
          { name: "nodejs", options: { typescript: true, packagemanager: manager } },
          true,
          false,
          manager === "pnpm",
        ]);

        const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
        await stack.setConfig(urls, { "runpod:apiKey": String(apiKey) });
        const up = await stack.run(["up", "--yes", "--skip-preview"]);
        const outputs = await stack.outputs();
        const live = livePodIds(emu);
        const { deployment } = await stack.exportState();
        const provider = deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/runpod:Pod")
          ?.inputs?.__provider;
        const down = await stack.run(["destroy", "--yes", "--skip-preview"]);
        expect([up.code, up.code === 0 ? "" : up.stdout + up.stderr]).toEqual([0, ""]);
        expect([outputs.status, outputs.podId, live.length, down.code, livePodIds(emu)]).toEqual([
          "RUNNING",
          live[0],
          1,
          0,
          [],
        ]);
        // The serialized provider loads the package by name, so no path of this install is in state.
        expect(provider).toEqual(expect.stringContaining('require("runpod-dynamic/runtime")'));
        expect(provider).not.toMatch(/node_modules|\.pnpm/);
      } finally {
        stack.dispose();
      }
    },
  );
});
