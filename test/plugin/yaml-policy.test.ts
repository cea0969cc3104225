/**
 * The policy pack and `runpod-dynamic cost` on a YAML program's preview, through the real CLI: the
 * provider plugin's resource types (`runpod-dynamic:index:Pod`) are the same resources to every
 * rule and to the estimate as the dynamic provider's, and env-secrets tells a value the program
 * wrote from one it took from secret config, as it does for a TypeScript program. The pack is the
 * release's own folder (`runpod-policies-v<version>.tar.gz`, `npm ci` in it), as a YAML team gets it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { ProgramStack } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { PACK_IN_SUMMARY } from "../support/policy.js";
import { releasedPolicyPack } from "../support/release.js";
import { TIME_SCALE } from "../support/stack.js";

const storage = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / 720;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
/** The H100 at its secure list rate with its 40 GB container disk, and the 50 GB standard volume. */
const TRAINER = 2.99 + storage(40, 0.1);
const WORKSPACE = storage(50, 0.07);

let emu: RunningEmulator;
let scratch: string;
let prices: string;
let pack: string;
const stacks: ProgramStack[] = [];

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 38 });
  scratch = mkdtempSync(join(tmpdir(), "runpod-yaml-policy-"));
  prices = join(scratch, "prices.json");
  const wrote = await runCli(["catalog", "snapshot", "--out", prices], emu.env());
  if (wrote.code !== 0) throw new Error(wrote.stderr);
  pack = await releasedPolicyPack();
  const asset = await pluginAsset();
  for (const program of [
    join(REPO_ROOT, "examples", "yaml"),
    join(__dirname, "yaml-invalid"),
    join(__dirname, "yaml-env-secrets"),
  ]) {
    const stack = await pluginStackOnEmulator(emu, asset, program);
    await stack.setConfig({}, { hfToken: "hf_yaml_policy" });
    stacks.push(stack);
  }
}, 600_000);
afterAll(async () => {
  for (const s of stacks) s.dispose();
  await emu?.close();
});

function packConfig(budget: Record<string, unknown>): string {
  const file = join(scratch, `policy-${Object.values(budget).join("-")}.json`);
  writeFileSync(file, JSON.stringify({ "cost-budget": { pricesFile: prices, ...budget } }));
  return file;
}

describe("the policy pack and the cost estimate on a YAML program", { timeout: 240_000 }, () => {
  it("rejects a persistent disk beside a network volume before any API call", async () => {
    const invalid = stacks[1] as ProgramStack;
    const pods = emu.control.snapshot().pods.length;
    const res = await invalid.run(["preview", "--policy-pack", pack]);
    expect([res.code, emu.control.snapshot().pods.length]).toEqual([1, pods]);
    expect(res.stdout).toMatch(/Pod "notebook", mounts\.persistent: [^\n]*network/);
    expect(res.stdout).toMatch(
      new RegExp(`❌ ${PACK_IN_SUMMARY}[\\s\\S]*\\[mandatory\\] +pod-persistent-with-network`),
    );
  });

  it("env-secrets reports the HF_TOKEN the program writes as plain text, not the one from secret config", async () => {
    const stack = stacks[2] as ProgramStack;
    const res = await stack.run(["preview", "--policy-pack", pack]);
    const reported = [
      ...res.stdout.matchAll(/Pod "(\w+)", env\.HF_TOKEN: the name looks like a credential/g),
    ].map((m) => m[1]);
    expect([res.code, reported]).toEqual([0, ["plain"]]);
    // Both values stay encrypted in state: the plugin marks the whole env secret itself.
    await stack.expect(["up", "--yes", "--skip-preview"]);
    const state = (await stack.exportState()).text;
    expect([state.includes("hf_written_in_the_program"), state.includes("hf_yaml_policy")]).toEqual([
      false,
      false,
    ]);
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
  });

  it("applies the budget: over it the preview fails saying what adds the cost, under it it passes", async () => {
    const stack = stacks[0] as ProgramStack;
    const over = await stack.run([
      "preview",
      "--policy-pack",
      pack,
      "--policy-pack-config",
      packConfig({ maxStackHourly: 2 }),
    ]);
    expect(over.code).toBe(1);
    expect(over.stdout).toMatch(
      /This stack, cost: it would cost up to \$[\d.]+\/h at list price[^\n]*over maxStackHourly \$2\.00\/h[^\n]*Pod "trainer" \$3\.00\/h/,
    );
    const under = await stack.run([
      "preview",
      "--policy-pack",
      pack,
      "--policy-pack-config",
      packConfig({ maxStackHourly: 10 }),
    ]);
    expect([under.code, under.stdout.includes("cost-budget")]).toEqual([0, false]);
    // It passed with the pack run, not without it: its summary line, advisories (⚠️) or none (✅).
    expect(under.stdout).toMatch(new RegExp(`(✅|⚠️) ${PACK_IN_SUMMARY}`));
  });

  it("`runpod-dynamic cost` prices the YAML program's preview", async () => {
    const preview = await (stacks[0] as ProgramStack).run(["preview", "--json"]);
    const res = await runCli(["cost", "--json", "--prices", prices], { RUNPOD_API_KEY: "" }, preview.stdout);
    const json = JSON.parse(res.stdout) as {
      unlisted: number;
      resources: { name: string; op: string; after: { hourly?: { low: number; high: number } } | null }[];
    };
    const hourlyOf = (name: string) => json.resources.find((r) => r.name === name)?.after?.hourly;
    expect({
      unlisted: json.unlisted,
      trainer: hourlyOf("trainer") && round(hourlyOf("trainer")?.low ?? 0),
      workspace: hourlyOf("workspace") && round(hourlyOf("workspace")?.low ?? 0),
      sdxl: hourlyOf("sdxl") && [hourlyOf("sdxl")?.low, hourlyOf("sdxl")?.high],
    }).toEqual({ unlisted: 0, trainer: round(TRAINER), workspace: round(WORKSPACE), sdxl: [0, 2.76] });
  });
});
