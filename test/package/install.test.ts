/**
 * The README's Quick start path: the packed package installed into a fresh program folder next to
 * another @pulumi/pulumi 3.x than ours, type-checked under the tsconfig of `pulumi new typescript`
 * (a program written against 0.3.0 too, previewed),
 * run through the real CLI, and the pull-request flow of examples/gitops exactly as its workflow
 * runs it (the policy pack copied out of the installed package).
 */
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PACK_IN_SUMMARY as PACK } from "../support/policy.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { TIME_SCALE } from "../support/stack.js";
import { copiesOf, installProgram, packTarball } from "./installed.js";

const GITOPS = join(__dirname, "..", "..", "examples", "gitops");
const PROGRAMS = join(__dirname, "programs");
/** A @pulumi/pulumi 3.x other than the one this repository's lockfile pins (3.270.0). */
const USERS_PULUMI = "3.269.0";

let scratch: string;
let dir: string;
let stack: ProgramStack;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "runpod-pack-"));
  const tarball = await packTarball();
  dir = await installProgram(GITOPS, {
    dependencies: { "@pulumi/pulumi": USERS_PULUMI, "runpod-dynamic": `file:${tarball}` },
    devDependencies: { "@pulumi/policy": "1.21.0", "@types/node": "20.19.43", typescript: "5.9.3" },
  });
  stack = await ProgramStack.create({ programDir: dir, inPlace: true, env: { RUNPOD_API_KEY: "" } });
  await stack.setConfig({}, { "runpod-gitops:hfToken": "hf_PACKAGE_TEST" });
}, 300_000);
afterAll(() => {
  stack?.dispose();
  for (const d of [dir, scratch]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The program's index.ts replaced by one of test/package/programs, or the example's own. */
const useProgram = (file: string) => copyFileSync(file, join(dir, "index.ts"));

describe("the packed package in a user's program", { timeout: 180_000 }, () => {
  it("shares the program's @pulumi/pulumi: one copy in node_modules", () => {
    expect(copiesOf(dir, "@pulumi/pulumi")).toEqual([`node_modules/@pulumi/pulumi@${USERS_PULUMI}`]);
  });

  it("ships the built code, the policy pack and the license, and no sources or tests", () => {
    const pkg = join(dir, "node_modules", "runpod-dynamic");
    expect(
      [
        "dist/provider/index.js",
        "dist/provider/index.d.ts",
        "dist/cli/main.js",
        "policy/index.ts",
        "LICENSE",
      ].map((f) => existsSync(join(pkg, f))),
    ).toEqual([true, true, true, true, true]);
    expect(
      ["provider", "test", "harness", "dist/test", "tsconfig.base.json"].map((f) => existsSync(join(pkg, f))),
    ).toEqual([false, false, false, false, false]);
  });

  it("type-checks under the unchanged tsconfig of `pulumi new typescript` (no esModuleInterop, no skipLibCheck)", async () => {
    const tsc = join(dir, "node_modules", ".bin", "tsc");
    const result = await promisify(execFile)(tsc, ["-p", dir, "--noEmit"]).then(
      () => ({ code: 0, output: "" }),
      (err: { code: number; stdout: string }) => ({ code: err.code, output: err.stdout }),
    );
    expect(result).toEqual({ code: 0, output: "" });
  });

  it("a program written against 0.3.0, every type it exported in use, type-checks and previews unchanged", async () => {
    useProgram(join(PROGRAMS, "api-0.3.0.ts"));
    const tsc = join(dir, "node_modules", ".bin", "tsc");
    const compiled = await promisify(execFile)(tsc, ["-p", dir, "--noEmit"]).then(
      () => ({ code: 0, output: "" }),
      (err: { code: number; stdout: string }) => ({ code: err.code, output: err.stdout }),
    );
    const preview = await stack.run(["preview"]);
    expect([compiled, preview.code, preview.stdout]).toEqual([
      { code: 0, output: "" },
      0,
      expect.stringMatching(/\+ 14 to create/),
    ]);
  });
});

describe("the declarations the package ships", { timeout: 180_000 }, () => {
  it("each type-checks on its own: nothing refers to what stripInternal left out", async () => {
    const pkg = join(dir, "node_modules", "runpod-dynamic");
    const declarations = readdirSync(join(pkg, "dist"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".d.ts"))
      .map((f) => join(pkg, "dist", f));
    expect(declarations.length).toBeGreaterThan(100);
    const tsc = join(dir, "node_modules", ".bin", "tsc");
    const args = ["--noEmit", "--strict", "--module", "node16", "--target", "es2022", "--types", "node"];
    const result = await promisify(execFile)(tsc, [...args, ...declarations], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => ({ code: 0, output: "" }),
      (err: { code: number; stdout: string }) => ({ code: err.code, output: err.stdout }),
    );
    expect(result).toEqual({ code: 0, output: "" });
  });
});

describe("the pull-request flow of examples/gitops, as its workflow runs it", { timeout: 180_000 }, () => {
  beforeAll(() => {
    // The workflow's step: `rm -rf policy && cp -R node_modules/runpod-dynamic/policy policy`.
    rmSync(join(dir, "policy"), { recursive: true, force: true });
    cpSync(join(dir, "node_modules", "runpod-dynamic", "policy"), join(dir, "policy"), { recursive: true });
  });
  const preview = (...extra: string[]) => stack.run(["preview", "--policy-pack", "policy", ...extra]);
  const withConfig = ["--policy-pack-config", "policy-config.json"];

  it("the example passes every policy of the pack, configured, with nothing installed in the pack's folder", async () => {
    useProgram(join(GITOPS, "index.ts"));
    const r = await preview(...withConfig);
    expect([existsSync(join(dir, "policy", "node_modules")), r.code, r.stdout]).toEqual([
      false,
      0,
      expect.stringMatching(new RegExp(`✅ ${PACK} \\(local: policy\\)`)),
    ]);
  });

  it("a pod with a persistent and a network volume fails the preview, naming the policy", async () => {
    useProgram(join(PROGRAMS, "persistent-network.ts"));
    const r = await preview(...withConfig);
    expect([r.code, r.stdout]).toEqual([
      1,
      expect.stringMatching(
        new RegExp(
          `❌ ${PACK}[\\s\\S]*- \\[mandatory\\] +pod-persistent-with-network[\\s\\S]*Pod "notebook", mounts\\.persistent: cannot be combined with mounts\\.network`,
        ),
      ),
    ]);
  });

  it("an advisory passes with its warning; --policy-pack-config makes it mandatory", async () => {
    useProgram(join(PROGRAMS, "plaintext-credential.ts"));
    const advisory = await preview();
    const configured = await preview(...withConfig);
    expect([advisory.code, advisory.stdout, configured.code, configured.stdout]).toEqual([
      0,
      expect.stringMatching(
        new RegExp(`⚠️ ${PACK}[\\s\\S]*- \\[advisory\\] +env-secrets[\\s\\S]*env\\.WANDB_API_KEY`),
      ),
      1,
      expect.stringMatching(new RegExp(`❌ ${PACK}[\\s\\S]*- \\[mandatory\\] +env-secrets`)),
    ]);
  });
});

describe("the pack left where npm installed it", { timeout: 180_000 }, () => {
  it("is not compiled: ts-node skips files under node_modules, which is why the pack is copied out", async () => {
    useProgram(join(PROGRAMS, "persistent-network.ts"));
    const r = await stack.run(["preview", "--policy-pack", "node_modules/runpod-dynamic/policy"]);
    expect([r.code, r.stdout]).toEqual([
      1,
      expect.stringMatching(
        /Running program '[^']*\/node_modules\/runpod-dynamic\/policy' failed with an unhandled exception/,
      ),
    ]);
  });
});

describe("pulumi up of the installed package against the emulator", { timeout: 180_000 }, () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulatorLib.startEmulator({
      clockScale: TIME_SCALE,
      randomSeed: 101,
      seed: WITHOUT_HISTORY_RESOURCES,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("creates the pod, reads it back, and destroys it", async () => {
    useProgram(join(GITOPS, "index.ts"));
    const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
    await stack.setConfig(urls, { "runpod:apiKey": String(apiKey) });
    const env = { RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) };
    const up = await stack.run(["up", "--yes", "--skip-preview", "--policy-pack", "policy"], env);
    const outputs = await stack.outputs();
    const down = await stack.run(["destroy", "--yes", "--skip-preview"], env);
    const live = emu.control.snapshot().pods.filter((p) => !p.cluster && p.status !== "TERMINATED");
    expect([up.code, outputs.status, down.code, live]).toEqual([0, "RUNNING", 0, []]);
  });
});
