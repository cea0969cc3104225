/**
 * Runs an example program through the phases a stack lives through (preview, up, an unchanged
 * up, an in-place edit, a replacing edit, refresh after an out-of-band change, destroy) with the
 * real Pulumi CLI, reading what the engine reported (`--json` events) and counting the API calls
 * each phase made against the emulator.
 *
 * The example runs as the README says to use one: copied to a folder of its own, its package.json
 * unchanged and `npm install`ed (runpod-dynamic from this repository through `file:../..`), compiled
 * by its own tsconfig, then driven in that folder. Examples that declare the same dependencies share
 * one install of them for the run: the same package.json dependencies install the same tree.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type CommandResult,
  type EngineEvent,
  engineEvents,
  type ProgramStack,
  previewSteps,
} from "../../harness/stack.js";
import { npm } from "../package/installed.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { oncePerRun } from "../support/once-per-run.js";
import { stackOnEmulator } from "../support/stack.js";

export { TIME_SCALE } from "../support/stack.js";

export const EXAMPLES_DIR = join(__dirname, "..", "..", "examples");

/** How `pulumi stack output --json` shows a secret without `--show-secrets`. */
export const SECRET_SHOWN = "[secret]";

/** `exampleRun` installs and compiles the example: npm and tsc, slower than a hook's default. */
export const INSTALL_TIMEOUT_MS = 300_000;

export interface PhaseReport {
  readonly phase: string;
  readonly code: number;
  /** `op name` per resource (not the stack), sorted: the engine runs steps in parallel. */
  readonly ops: string[];
  /** Replace keys per replaced resource; changed input properties per drifted resource. */
  readonly details: Record<string, readonly string[]>;
  readonly calls: number;
  readonly writes: number;
  /** The route of each API write (non-GET request), in the order the emulator answered them. */
  readonly writeRoutes: string[];
  readonly byRoute: Record<string, number>;
  readonly result: CommandResult;
  /** Error diagnostics the engine reported. */
  readonly errors: string[];
}

export interface ExampleRun {
  readonly stack: ProgramStack;
  /**
   * `compiles`, or what the example's own tsconfig reported against its installed packages: tsc
   * runs beside the phases, which change only config, never the program's files.
   */
  readonly compiled: Promise<string>;
  /** `pulumi up` (or `pulumi preview`) after setting extra config. */
  up(phase: string, extraConfig?: Record<string, string>, preview?: boolean): Promise<PhaseReport>;
  refresh(phase: string): Promise<PhaseReport>;
  destroy(phase: string): Promise<PhaseReport>;
  /** The stack outputs, secrets shown as `[secret]`. */
  outputs(): Promise<Record<string, unknown>>;
  /** The id of a resource in state, by its name. */
  idOf(name: string): Promise<string>;
  readonly reports: PhaseReport[];
  close(): void;
}

type ResourceEvent = {
  metadata: {
    op: string;
    urn: string;
    type: string;
    keys?: string[];
    old?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
    new?: { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
  };
};

const nameOf = (urn: string) => urn.split("::").pop() ?? urn;
/**
 * The stack and the stack's identity (docs/decisions.md): what every program has, none of the
 * example's resources. test/engine/stack-isolation.test.ts is about the identity.
 */
const NOT_THE_EXAMPLES = ["pulumi:pulumi:Stack", "pulumi-nodejs:dynamic/runpod:StackIdentity"];
const isStack = (e: ResourceEvent) => NOT_THE_EXAMPLES.includes(e.metadata.type);

/** Finished resource steps, the stack, its identity and the halves of a replacement left out. */
function finished(events: readonly EngineEvent[]): ResourceEvent[] {
  return events
    .map((e) => e.resOutputsEvent as ResourceEvent | undefined)
    .filter((e): e is ResourceEvent => e !== undefined && !isStack(e))
    .filter((e) => !["create-replacement", "delete-replaced"].includes(e.metadata.op));
}

/** What a refresh changed: the declared inputs whose recorded value the service no longer has. */
function drifted(e: ResourceEvent): string[] {
  const declared = Object.keys(e.metadata.old?.inputs ?? {}).filter((k) => !k.startsWith("__"));
  const before = e.metadata.old?.outputs ?? {};
  const after = e.metadata.new?.outputs ?? {};
  return declared.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

function errorsOf(events: readonly EngineEvent[]): string[] {
  return events
    .map((e) => e.diagnosticEvent as { severity?: string; message?: string } | undefined)
    .filter((d) => d?.severity === "error")
    .map((d) => String(d?.message).trim());
}

export async function exampleRun(
  emu: RunningEmulator,
  example: string,
  baseConfig: Record<string, string> = {},
  secretConfig: readonly string[] = [],
): Promise<ExampleRun> {
  const dir = await installExample(example);
  const compiled = compileExample(dir);
  const stack = await stackOnEmulator(emu, dir, { inPlace: true });
  const secret = (k: string) => secretConfig.includes(k);
  const setConfig = (config: Record<string, string>) =>
    stack.setConfig(
      Object.fromEntries(Object.entries(config).filter(([k]) => !secret(k))),
      Object.fromEntries(Object.entries(config).filter(([k]) => secret(k))),
    );
  await setConfig(baseConfig);

  const reports: PhaseReport[] = [];
  const record = (
    phase: string,
    result: CommandResult,
    ops: string[],
    details: Record<string, readonly string[]>,
    errors: string[],
  ) => {
    const { entries, summary: counts } = emu.control.requests();
    const writes = entries.filter((e) => e.method !== "GET" && !e.route.endsWith("/graphql"));
    const report: PhaseReport = {
      phase,
      code: result.code,
      ops: ops.sort(),
      details,
      calls: counts.total,
      writes: writes.length,
      writeRoutes: writes.map((e) => e.route),
      byRoute: counts.byRoute,
      result,
      errors,
    };
    reports.push(report);
    emu.control.clearRequests();
    return report;
  };
  const deploy = async (phase: string, args: string[], opName: (op: string) => string) => {
    const result = await stack.run([...args, "--json"]);
    const events = engineEvents(result.stdout);
    const done = finished(events);
    const details = Object.fromEntries(
      done.flatMap((e) => {
        if (e.metadata.op === "replace")
          return [[nameOf(e.metadata.urn), [...(e.metadata.keys ?? [])].sort()]];
        if (phase.startsWith("refresh") && e.metadata.op === "update")
          return [[nameOf(e.metadata.urn), drifted(e)]];
        return [];
      }),
    );
    return record(
      phase,
      result,
      done.map((e) => `${opName(e.metadata.op)} ${nameOf(e.metadata.urn)}`),
      details,
      errorsOf(events),
    );
  };
  emu.control.clearRequests();
  return {
    stack,
    compiled,
    reports,
    async up(phase, extraConfig = {}, preview = false) {
      await setConfig(extraConfig);
      emu.control.clearRequests();
      if (preview) {
        const result = await stack.run(["preview", "--json"]);
        const steps = (JSON.parse(result.stdout) as { steps?: { urn: string }[] }).steps ?? [];
        const ops = previewSteps(result.stdout).filter(
          (_, i) => !NOT_THE_EXAMPLES.includes(steps[i]?.urn.split("::")[2] ?? ""),
        );
        return record(phase, result, ops, {}, []);
      }
      const args =
        phase === "no-op" ? ["up", "--yes", "--expect-no-changes"] : ["up", "--yes", "--skip-preview"];
      return deploy(phase, args, (op) => op);
    },
    refresh(phase) {
      // A refresh reports a resource it found changed as an update, one it found gone as a delete.
      const names: Record<string, string> = { same: "refresh", update: "drift", delete: "gone" };
      return deploy(phase, ["refresh", "--yes", "--skip-preview"], (op) => names[op] ?? op);
    },
    destroy(phase) {
      return deploy(phase, ["destroy", "--yes", "--skip-preview"], (op) => op);
    },
    outputs: () => stack.outputs(),
    async idOf(name) {
      const { deployment } = await stack.exportState();
      const found = deployment.resources?.find((r) => nameOf(r.urn) === name);
      if (!found?.id) throw new Error(`no resource named ${name} in state`);
      return found.id;
    },
    close: () => {
      stack.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A copy of `examples/<example>` in a sibling folder (`examples/.install-<example>-<random>`, so
 * that `file:../..` still means this repository) with its dependencies installed. Never the example's
 * own folder: a node_modules there would be picked up by every other test that reads the example.
 */
async function installExample(example: string): Promise<string> {
  // A folder of its own for each run: two test files may run one example at once.
  const dir = join(EXAMPLES_DIR, `.install-${example}-${randomBytes(4).toString("hex")}`);
  cpSync(join(EXAMPLES_DIR, example), dir, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|package-lock\.json)$/.test(src),
  });
  symlinkSync(join(await installedDependencies(dir), "node_modules"), join(dir, "node_modules"));
  return dir;
}

/**
 * The folder where the dependencies an example declares are installed for the run, installing them
 * the first time they are asked for: its package.json's dependency fields and its .npmrc (which
 * says how npm installs them: `install-links`), beside the examples
 * (`examples/.install-deps-<digest>`, removed by test/global-setup.ts), `npm install`ed.
 */
function installedDependencies(exampleDir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(exampleDir, "package.json"), "utf8")) as Record<string, unknown>;
  const fields = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides"];
  const declared = Object.fromEntries(fields.filter((f) => pkg[f] !== undefined).map((f) => [f, pkg[f]]));
  const npmrcFile = join(exampleDir, ".npmrc");
  const npmrc = existsSync(npmrcFile) ? readFileSync(npmrcFile, "utf8") : undefined;
  const digest = createHash("sha256")
    .update(JSON.stringify([declared, npmrc]))
    .digest("hex")
    .slice(0, 12);
  return oncePerRun(`example-deps-${digest}`, async () => {
    const dir = join(EXAMPLES_DIR, `.install-deps-${digest}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "example-dependencies", private: true, ...declared }, null, 2)}\n`,
    );
    if (npmrc !== undefined) writeFileSync(join(dir, ".npmrc"), npmrc);
    // --ignore-scripts: `file:../..` links this repository, whose `prepare` would rebuild the dist/
    // other test files are reading; `npm test` has built it already.
    await npm(dir, ["install", "--prefer-offline", "--ignore-scripts"]);
    return dir;
  });
}

/** The example's own tsconfig over its program and the packages it installed. */
async function compileExample(dir: string): Promise<string> {
  const tsc = join(__dirname, "..", "..", "node_modules", "typescript", "bin", "tsc");
  return promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", "tsconfig.json"], { cwd: dir }).then(
    () => "compiles",
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
}

/** What the emulator still holds that a destroyed stack could have created. */
export function leftovers(emu: RunningEmulator, initialKeys: readonly string[] = []) {
  const s = emu.control.snapshot();
  // The seed's own pods and endpoints (those its billing history bills) are the account's, not the stack's.
  const seeded: readonly string[] = [...emulatorLib.HISTORY_PODS, ...emulatorLib.HISTORY_ENDPOINTS];
  return {
    pods: s.pods
      .filter((p) => !p.cluster && p.status !== "TERMINATED" && !seeded.includes(p.id))
      .map((p) => p.id),
    endpoints: s.endpoints.map((e) => e.id).filter((id) => !seeded.includes(id)),
    sshKeys: s.sshKeys.filter((k) => !initialKeys.includes(k)),
    templates: s.templates.map((t) => t.id),
    networkVolumes: s.networkVolumes
      .map((v) => v.id)
      .filter((id) => !["nv-tx3-datasets", "nv-ro1-models"].includes(id)),
  };
}

/** What an example's phases must show; the suite in example-suite.ts runs and checks them. */
export interface ExampleSpec {
  readonly example: string;
  /** Stack config the program needs, and which of its keys are secret. */
  readonly config?: Record<string, string>;
  readonly secretConfig?: readonly string[];
  /** API writes (non-GET requests) each phase must make: deterministic, unlike reads (polling). */
  readonly writes: {
    readonly up: number;
    readonly update: number;
    readonly replace: number;
    readonly destroy: number;
  };
  readonly resources: readonly string[];
  /** Checks on the stack outputs after the first up (secrets shown as `[secret]`). */
  readonly afterUp: (outputs: Record<string, unknown>) => void;
  readonly update: { readonly config: Record<string, string>; readonly updated: readonly string[] };
  readonly replace: {
    readonly config: Record<string, string>;
    readonly replaced: Record<string, readonly string[]>;
    /** Resources updated in place by the replacement (they take the new one's id). @default none */
    readonly updated?: readonly string[];
  };
  /** An out-of-band change through the API, and what refresh must report. */
  readonly drift: {
    readonly change: (emu: RunningEmulator, idOf: (name: string) => Promise<string>) => Promise<void>;
    readonly drifted: Record<string, readonly string[]>;
    readonly gone?: readonly string[];
  };
}
