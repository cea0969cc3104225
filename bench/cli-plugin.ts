/**
 * Scenario 5d's other flavour: the fleet of bench/program as a Pulumi YAML program on the provider
 * plugin, through the real CLI and Pulumi's YAML language host, the plugin installed from its
 * release asset into the stack's own Pulumi home. The pods have the bench program's inputs, so
 * the runs of cli-program.ts measure both flavours alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { RunningEmulator } from "../emulator/index.js";
import type { PluginArchive } from "../harness/plugin-executables.js";
import { ProgramStack } from "../harness/stack.js";
import type { CliRunOptions, Flavour } from "./cli-program.js";
import { FLEET_DC, FLEET_GPU } from "./fleet.js";

/** The image bench/program/index.ts gives its pods when config names none. */
const IMAGE = "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04";

/**
 * The Pulumi.yaml of `count` pods named `<prefix>-<i>`, each with the inputs bench/program/index.ts
 * gives its pod `i` (a YAML program has no loops: one resource per pod).
 */
export function yamlFleetProgram(o: { count: number; prefix: string; settle?: number | undefined }): string {
  const resources = Object.fromEntries(
    Array.from({ length: o.count }, (_, i) => [
      `pod-${i}`,
      {
        type: "runpod-dynamic:Pod",
        properties: {
          name: `${o.prefix}-${i}`,
          image: IMAGE,
          gpu: { id: FLEET_GPU },
          dataCenterIds: [FLEET_DC],
          ports: ["22/tcp"],
          env: { INDEX: String(i) },
          ...(o.settle === undefined ? {} : { readiness: { settle: o.settle } }),
        },
      },
    ]),
  );
  return stringify({
    name: "runpod-bench-fleet-yaml",
    runtime: "yaml",
    description: "The bench fleet as a YAML program on the provider plugin.",
    resources,
  });
}

/**
 * The YAML fleet's stack on `emu`: the plugin installed from `asset`, its config pointing at the
 * emulator, no RUNPOD_* variables from this process, the plugin's clock scaled like the emulator's.
 * A YAML program reports no pod when it learns it is RUNNING: `doneFile` stays unwritten.
 */
async function yamlFleetStack(
  asset: PluginArchive,
  emu: RunningEmulator,
  o: CliRunOptions & { prefix?: string },
): Promise<ProgramStack> {
  const source = mkdtempSync(join(tmpdir(), "bench-yaml-fleet-"));
  let stack: ProgramStack | undefined;
  try {
    writeFileSync(
      join(source, "Pulumi.yaml"),
      yamlFleetProgram({ count: o.count, prefix: o.prefix ?? "fleet", settle: o.settle }),
    );
    stack = await ProgramStack.create({
      programDir: source,
      stack: o.prefix === undefined ? "bench" : `bench-${o.prefix}`,
      env: {
        RUNPOD_API_KEY: "",
        RUNPOD_BASE_URL: "",
        RUNPOD_DYNAMIC_TIME_SCALE: String(o.scale),
        RUNPOD_DYNAMIC_QUIET: "1",
        ...(o.parallel === undefined ? {} : { PULUMI_PARALLEL: String(o.parallel) }),
      },
    });
    await stack.expect([
      "plugin",
      "install",
      "resource",
      "runpod-dynamic",
      asset.version,
      "--file",
      asset.file,
    ]);
    // The emulator's `runpod:*` settings are the plugin's `runpod-dynamic:*` config.
    const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
    await stack.setConfig(
      Object.fromEntries(Object.entries(urls).map(([k, v]) => [k.replace(/^runpod:/, "runpod-dynamic:"), v])),
      { "runpod-dynamic:apiKey": String(apiKey) },
    );
    return stack;
  } catch (err) {
    stack?.dispose();
    throw err;
  } finally {
    // The stack runs a copy of the program.
    rmSync(source, { recursive: true, force: true });
  }
}

/** The YAML fleet on the provider plugin, installed from `asset`. */
export function pluginFlavour(asset: PluginArchive): Flavour {
  return { name: "plugin", stack: (emu, o) => yamlFleetStack(asset, emu, o) };
}
