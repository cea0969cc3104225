/**
 * Runs an example program through the phases a stack lives through (preview, up, an unchanged
 * up, an in-place edit, a replacing edit, refresh after an out-of-band change, destroy) with the
 * stand-in engine, counting the API calls each phase makes against the emulator.
 */
import { join } from "node:path";
import type { RunningEmulator } from "../support/emulator.js";
import { type DeployOptions, deploy, destroy, type Operation, refresh, StackState } from "./engine.js";

export const EXAMPLES_DIR = join(__dirname, "..", "..", "examples");

export interface PhaseReport {
  readonly phase: string;
  readonly code: number | null;
  /** `op name`, sorted: resources register concurrently, so the order is not stable. */
  readonly ops: string[];
  readonly details: Record<string, readonly string[]>;
  readonly calls: number;
  readonly writes: number;
  /** The route of each API write (non-GET request), in the order the emulator answered them. */
  readonly writeRoutes: string[];
  readonly byRoute: Record<string, number>;
  readonly stackOutputs: Record<string, unknown>;
  readonly errors: string[];
}

export interface ExampleRun {
  readonly state: StackState;
  readonly options: DeployOptions;
  /** Runs `pulumi up` (or preview) with extra config and records the phase. */
  up(phase: string, extraConfig?: Record<string, string>, dryRun?: boolean): Promise<PhaseReport>;
  refresh(phase: string): Promise<PhaseReport>;
  destroy(phase: string): Promise<PhaseReport>;
  readonly reports: PhaseReport[];
  readonly log: string[];
}

/** Time runs this many times faster in the emulator and in the provider host alike. */
export const TIME_SCALE = 50;

export function exampleRun(
  emu: RunningEmulator,
  example: string,
  project: string,
  baseConfig: Record<string, string> = {},
  secretKeys: readonly string[] = [],
): ExampleRun {
  const state = new StackState();
  const log: string[] = [];
  const reports: PhaseReport[] = [];
  const config: Record<string, string> = {
    ...emu.pulumiConfig(),
    ...baseConfig,
  };
  const options: DeployOptions = {
    programDir: join(EXAMPLES_DIR, example),
    project,
    stack: "dev",
    config,
    secretKeys: ["runpod:apiKey", ...secretKeys],
    state,
    // Quiet environment: no RUNPOD_* from the test process, time scaled like the emulator.
    env: { RUNPOD_API_KEY: "", RUNPOD_BASE_URL: "", RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
    log: (line) => log.push(line),
  };
  const record = (
    phase: string,
    ops: readonly Operation[],
    extra: { code?: number | null; stackOutputs?: Record<string, unknown>; errors?: string[] } = {},
  ) => {
    const { entries, summary } = emu.control.requests();
    const writes = entries.filter((e) => e.method !== "GET" && !e.route.endsWith("/graphql"));
    const report: PhaseReport = {
      phase,
      code: extra.code ?? 0,
      ops: ops.map((o) => `${o.op} ${o.name}`).sort(),
      details: Object.fromEntries(
        ops.filter((o) => o.detail.length > 0).map((o) => [o.name, [...o.detail].sort()]),
      ),
      calls: summary.total,
      writes: writes.length,
      writeRoutes: writes.map((e) => e.route),
      byRoute: summary.byRoute,
      stackOutputs: extra.stackOutputs ?? {},
      errors: extra.errors ?? [],
    };
    reports.push(report);
    emu.control.clearRequests();
    return report;
  };
  emu.control.clearRequests();
  return {
    state,
    options,
    reports,
    log,
    async up(phase, extraConfig = {}, dryRun = false) {
      Object.assign(config, extraConfig);
      const res = await deploy({ ...options, config, dryRun });
      return record(phase, res.ops, { code: res.code, stackOutputs: res.stackOutputs, errors: res.errors });
    },
    async refresh(phase) {
      const res = await refresh({ ...options, config });
      return record(phase, res.ops);
    },
    async destroy(phase) {
      const res = await destroy({ ...options, config });
      return record(phase, res.ops);
    },
  };
}

/** What the emulator still holds that a destroyed stack could have created. */
export function leftovers(emu: RunningEmulator, initialKeys: readonly string[] = []) {
  const s = emu.control.snapshot();
  return {
    pods: s.pods.filter((p) => !p.cluster && p.status !== "TERMINATED").map((p) => p.id),
    endpoints: s.endpoints.map((e) => e.id),
    sshKeys: s.sshKeys.filter((k) => !initialKeys.includes(k)),
    templates: s.templates.map((t) => t.id),
    networkVolumes: s.networkVolumes
      .map((v) => v.id)
      .filter((id) => !["nv-tx3-datasets", "nv-ro1-models"].includes(id)),
  };
}

/** What an example's phases must show; the suite below runs and checks them. */
export interface ExampleSpec {
  readonly example: string;
  readonly project: string;
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
  /** A stack output that preview cannot know. */
  readonly unknownInPreview: string;
  /** Checks on the stack outputs after the first up. */
  readonly afterUp: (outputs: Record<string, unknown>) => void;
  readonly update: { readonly config: Record<string, string>; readonly updated: readonly string[] };
  readonly replace: {
    readonly config: Record<string, string>;
    readonly replaced: Record<string, readonly string[]>;
  };
  /** An out-of-band change through the API, and what refresh must report. */
  readonly drift: {
    readonly change: (emu: RunningEmulator, idOf: (name: string) => string) => Promise<void>;
    readonly drifted: Record<string, readonly string[]>;
    readonly gone?: readonly string[];
  };
}
