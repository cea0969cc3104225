/**
 * The policy pack in its own folder, as `pulumi policy publish` and Pulumi Cloud's policy groups
 * use it: the `policy/` folder of the packed package copied out on its own and `npm install`ed
 * there from its package.json's version ranges (runpod-dynamic from a local registry in front of the
 * public one, since this version is not published yet), then run by the real CLI's
 * `pulumi preview --policy-pack <folder>` on a program against the emulator.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { PACK_IN_SUMMARY } from "../support/policy.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";
import { copiesOf, npm, packTarball } from "./installed.js";
import { type LocalRegistry, startLocalRegistry } from "./registry.js";

const GITOPS = join(__dirname, "..", "..", "examples", "gitops");
const PROGRAMS = join(__dirname, "programs");

let scratch: string;
let packDir: string;
let manifest: { name: string; version: string };
let registry: LocalRegistry;
let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "runpod-policy-pack-"));
  const tarball = await packTarball();
  await promisify(execFile)("tar", ["-xzf", tarball, "-C", scratch]);
  manifest = JSON.parse(readFileSync(join(scratch, "package", "package.json"), "utf8")) as typeof manifest;
  registry = await startLocalRegistry(tarball, manifest);
  // Its own folder, with no node_modules above it (the first test makes sure).
  packDir = join(scratch, "runpod-policies");
  cpSync(join(scratch, "package", "policy"), packDir, { recursive: true });
  await npm(packDir, ["install", "--registry", registry.url]);
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 102,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  stack = await stackOnEmulator(emu, GITOPS);
  await stack.setConfig({}, { "runpod-gitops:hfToken": "hf_POLICY_PACK_TEST" });
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
  await registry?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const useProgram = (file: string) => cpSync(file, join(stack.dir, "index.ts"));
const preview = () => stack.run(["preview", "--policy-pack", packDir]);
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the pack installed in its own folder", { timeout: 300_000 }, () => {
  it("gets runpod-dynamic from the registry by version, and a TypeScript of its own", () => {
    const above: string[] = [];
    for (let d = dirname(packDir); d !== dirname(d); d = dirname(d)) above.push(join(d, "node_modules"));
    const typescript = copiesOf(packDir, "typescript");
    const lock = JSON.parse(readFileSync(join(packDir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; integrity?: string }>;
    };
    const locked = lock.packages["node_modules/runpod-dynamic"];
    expect([
      above.filter((d) => existsSync(d)),
      copiesOf(packDir, "runpod-dynamic"),
      lstatSync(join(packDir, "node_modules", "runpod-dynamic")).isSymbolicLink(),
      [locked?.version, locked?.integrity],
      registry.served.includes("/runpod-dynamic"),
      typescript.length,
    ]).toEqual([
      [],
      [`node_modules/runpod-dynamic@${manifest.version}`],
      false,
      [manifest.version, registry.integrity],
      true,
      1,
    ]);
    expect(typescript[0]).toMatch(/^node_modules\/typescript@5\./);
  });

  it("a pod with a persistent and a network volume fails the preview with the pack's message", async () => {
    useProgram(join(PROGRAMS, "persistent-network.ts"));
    const r = await preview();
    expect([r.code, r.stdout]).toEqual([
      1,
      expect.stringMatching(
        new RegExp(
          `❌ ${PACK_IN_SUMMARY}[\\s\\S]*- \\[mandatory\\] +pod-persistent-with-network[\\s\\S]*Pod "notebook", mounts\\.persistent: cannot be combined with mounts\\.network`,
        ),
      ),
    ]);
  });

  it("the example program passes every policy", async () => {
    useProgram(join(GITOPS, "index.ts"));
    const r = await preview();
    expect([r.code, r.stdout]).toEqual([
      0,
      expect.stringMatching(new RegExp(`✅ ${PACK_IN_SUMMARY} \\(local: ${escaped(packDir)}\\)`)),
    ]);
  });

  it("compiles with its own TypeScript: without it, the fallback the engine has (3.8) cannot parse the pack", async () => {
    const aside = join(packDir, "node_modules", ".typescript-aside");
    renameSync(join(packDir, "node_modules", "typescript"), aside);
    try {
      const r = await preview();
      expect([r.code, r.stdout]).toEqual([
        1,
        expect.stringMatching(
          /TSError: ⨯ Unable to compile TypeScript:\n.*-policies\.ts\(\d+,\d+\): error TS1005: ',' expected\./,
        ),
      ]);
    } finally {
      renameSync(aside, join(packDir, "node_modules", "typescript"));
    }
  });
});
