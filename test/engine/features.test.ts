/**
 * Engine features users rely on, through the real Pulumi CLI: resource options (protect,
 * ignoreChanges, replaceOnChanges, deleteBeforeReplace, retainOnDelete, customTimeouts), --target,
 * and what the preview shows of a change.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, steps } from "../../harness/stack.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "program");
const POD = "pulumi-nodejs:dynamic/runpod:Pod";

interface PodConfig {
  image?: string;
  vcpuCount?: number;
  timeouts?: { create?: number };
  options?: Record<string, unknown>;
}

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 81,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  stack?.dispose();
  emu.control.reset(WITHOUT_HISTORY_RESOURCES);
});

async function fresh(): Promise<ProgramStack> {
  stack = await stackOnEmulator(emu, PROGRAM);
  return stack;
}

/** Sets the pods' config and runs a command, counting only its own API requests. */
async function withPods(pods: Record<string, PodConfig>, args: string[]) {
  await stack.setConfig({ "engine-features:pods": JSON.stringify(pods) });
  emu.control.clearRequests();
  const result = await stack.run(args);
  const writes = emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => `${e.method} ${e.path}`);
  return { ...result, writes };
}

const up = (pods: Record<string, PodConfig>, ...extra: string[]) =>
  withPods(pods, ["up", "--yes", "--skip-preview", "--json", ...extra]);
const livePods = () =>
  emu.control
    .snapshot()
    .pods.filter((p) => !p.cluster && p.status !== "TERMINATED")
    .map((p) => ({ id: p.id, name: p.name, image: p.image }));
const urnOf = (name: string) => `urn:pulumi:${stack.name}::engine-features::${POD}::${name}`;

describe("resource options through the real engine", { timeout: 120_000 }, () => {
  it("protect: destroy refuses, and nothing is deleted until the resource is unprotected", async () => {
    await fresh();
    await up({ a: { options: { protect: true } } });
    const refused = await stack.run(["destroy", "--yes", "--skip-preview"]);
    expect([refused.code, `${refused.stdout}${refused.stderr}`, livePods().length]).toEqual([
      1,
      expect.stringMatching(/protected/),
      1,
    ]);
    await stack.expect(["state", "unprotect", urnOf("a"), "--yes"]);
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
    expect(livePods()).toEqual([]);
  });

  it("ignoreChanges: a changed input the program says to ignore is no change and no API write", async () => {
    await fresh();
    await up({ a: { image: "img:1" } });
    const r = await up({ a: { image: "img:2", options: { ignoreChanges: ["image"] } } });
    expect([r.code, steps(engineEvents(r.stdout)), r.writes, livePods().map((p) => p.image)]).toEqual([
      0,
      ["same engine-features-dev", "same runpod-dynamic", "same a"],
      [],
      ["img:1"],
    ]);
  });

  // The engine applies replaceOnChanges to the changed keys a provider reports, and the dynamic-provider
  // host reports none: the resources carry the option to the provider, whose diff applies it.
  it("replaceOnChanges: a property the provider updates in place replaces the pod instead", async () => {
    await fresh();
    await up({ a: { image: "img:1" } });
    const before = livePods()[0]?.id;
    const r = await up({ a: { image: "img:2", options: { replaceOnChanges: ["image"] } } });
    const after = livePods();
    expect([r.code, steps(engineEvents(r.stdout)).filter((s) => s.endsWith(" a"))]).toEqual([
      0,
      ["create-replacement a", "replace a", "delete-replaced a"],
    ]);
    expect([after.length, after[0]?.id === before, after[0]?.image]).toEqual([1, false, "img:2"]);
    expect(r.writes.map((w) => w.split(" ")[0])).toEqual(["POST", "DELETE"]);
  });

  it("deleteBeforeReplace: the old pod is deleted before its replacement is created", async () => {
    await fresh();
    await up({ a: {} });
    const r = await up({ a: { vcpuCount: 4, options: { deleteBeforeReplace: true } } });
    expect([r.code, r.writes.map((w) => w.split(" ")[0]), livePods().length]).toEqual([
      0,
      ["DELETE", "POST"],
      1,
    ]);
  });

  it("--target: only the targeted pod changes; the other keeps its old image", async () => {
    await fresh();
    await up({ a: { image: "img:1" }, b: { image: "img:1" } });
    const r = await up({ a: { image: "img:2" }, b: { image: "img:2" } }, "--target", urnOf("a"));
    const images = Object.fromEntries(livePods().map((p) => [p.name, p.image]));
    expect([r.code, r.writes.length, images]).toEqual([0, 1, { a: "img:2", b: "img:1" }]);
  });

  it("retainOnDelete: a pod removed from the program leaves state but keeps running", async () => {
    await fresh();
    await up({ a: { options: { retainOnDelete: true } } });
    const kept = livePods();
    const r = await up({});
    // The stack's identity goes with its last pod: a program with none does not declare it.
    expect([r.code, steps(engineEvents(r.stdout)), r.writes, livePods()]).toEqual([
      0,
      ["same engine-features-dev", "delete a", "delete runpod-dynamic"],
      [],
      kept,
    ]);
    await apiFor(emu).pods.delete(kept[0]?.id ?? "");
  });

  it("customTimeouts never reach a dynamic provider; the timeouts input does", async () => {
    await fresh();
    // Pods take 3 minutes (emulator time) to start.
    emu.control.setSettings({ provisioningMs: 180_000 });
    const waited = await up({ a: { options: { customTimeouts: { create: "1m" } } } });
    expect([waited.code, livePods().length]).toEqual([0, 1]);

    const failed = await up({
      a: { options: { customTimeouts: { create: "1m" } } },
      b: { timeouts: { create: 60 } },
    });
    const output = `${failed.stdout}${failed.stderr}`;
    expect(failed.code).toBe(1);
    expect(output).toMatch(
      /Pod b: pod (\w+) did not become ready \(pod \1 did not reach RUNNING within timeouts\.create \(60 s\); last status PROVISIONING\)\. It was terminated/,
    );
    // The pod that timed out was terminated, as onCreateFailure says by default.
    expect(livePods().map((p) => p.name)).toEqual(["a"]);
  });
});

describe("what the preview shows of a change", { timeout: 120_000 }, () => {
  it("names the changed property and says update or replace", async () => {
    await fresh();
    await up({ a: { image: "img:1" }, b: {} });
    await stack.setConfig({
      "engine-features:pods": JSON.stringify({ a: { image: "img:2" }, b: { vcpuCount: 4 } }),
    });
    const r = await stack.expect(["preview", "--diff"]);
    expect(r.stdout).toMatch(
      /~ pulumi-nodejs:dynamic\/runpod:Pod: \(update\)[\s\S]*~ image\s*: "img:1" => "img:2"/,
    );
    expect(r.stdout).toMatch(/\+-pulumi-nodejs:dynamic\/runpod:Pod: \(replace\)[\s\S]*~ vcpuCount: 2 => 4/);
    const summary = await stack.expect(["preview"]);
    expect(summary.stdout).toMatch(/~ +pulumi-nodejs:dynamic\/runpod:Pod a update \[diff: ~image\]/);
    expect(summary.stdout).toMatch(/\+- +pulumi-nodejs:dynamic\/runpod:Pod b replace \[diff: ~cpu/);
  });

  it("a check failure on a nested input leads with its path, never a value the engine cannot find", async () => {
    await fresh();
    await stack.setConfig({
      "engine-features:pods": JSON.stringify({ a: { ports: ["8888/http"], readiness: { check: "HTTP" } } }),
    });
    const failure = "resource 'a' has a problem: readiness.port: is required for check HTTP (e.g. 8888)";
    const once = (out: string) => out.slice(out.indexOf("Diagnostics:")).split(failure).length - 1;
    const r = await stack.run(["preview"]);
    expect([r.code, once(r.stdout), r.stdout.includes("<nil>")]).toEqual([1, 1, false]);
    // With the pack, its pod-valid-inputs reports the same rule as a policy violation, by its path.
    const withPack = await stack.run(["preview", "--policy-pack", join(__dirname, "../../policy")]);
    expect([withPack.code, once(withPack.stdout), withPack.stdout.includes("<nil>")]).toEqual([1, 1, false]);
    expect(withPack.stdout).toContain('Pod "a", readiness.port: is required for check HTTP (e.g. 8888).');
  });
});
