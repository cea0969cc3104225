/**
 * Python programs on the provider plugin, as the tests run them: a virtual environment with
 * Pulumi's Python SDK at the CLI's version, and the Automation API driver the docs give
 * (examples/python/automation.py), told the plugin's config for an emulator.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { PINNED_PULUMI_VERSION, REPO_ROOT } from "../../harness/pulumi-cli.js";
import type { RunningEmulator } from "./emulator.js";
import { pluginConfig } from "./plugin.js";

const run = promisify(execFile);

/**
 * A new virtual environment at `venv` with Pulumi's Python SDK at the CLI's version and what
 * `pipArgs` names (`-r requirements.txt`, `--find-links <index>`, a folder, a pinned package).
 * Resolves to its `python`.
 */
export async function pythonWithPulumi(venv: string, pipArgs: readonly string[]): Promise<string> {
  const python = join(venv, "bin", "python");
  await run("python3", ["-m", "venv", venv]);
  await run(python, [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--disable-pip-version-check",
    `pulumi==${PINNED_PULUMI_VERSION.replace(/^v/, "")}`,
    ...pipArgs,
  ]);
  return python;
}

/** The driver: one operation of a Python program per call (its docstring says what it prints). */
export const AUTOMATION_DRIVER = join(REPO_ROOT, "examples", "python", "automation.py");

/** What the driver is told besides the plugin's config for the emulator. */
export interface AutomationSettings {
  /** More stack config, plain and secret. */
  readonly config?: Record<string, string>;
  readonly secret?: Record<string, string>;
  /** For `preview` and `up`: folders and files, as --policy-pack and --policy-pack-config take them. */
  readonly policyPacks?: readonly string[];
  readonly policyPackConfigs?: readonly string[];
  /** For `preview`: what `pulumi preview --json` prints. */
  readonly json?: boolean;
}

/** The driver's arguments for `operation` of `program` on `emu`, its project settings kept in `workDir`. */
export function automationArgs(
  emu: RunningEmulator,
  operation: "preview" | "up" | "destroy",
  program: string,
  workDir: string,
  settings: AutomationSettings = {},
): string[] {
  const { plain, secret } = pluginConfig(emu);
  const given = {
    plain: { ...plain, ...settings.config },
    secret: { ...secret, ...settings.secret },
    policyPacks: settings.policyPacks,
    policyPackConfigs: settings.policyPackConfigs,
    json: settings.json,
  };
  return [AUTOMATION_DRIVER, operation, program, workDir, JSON.stringify(given)];
}
