/**
 * What the bench's result files under bench/results/ hold, and reading them back: the figures of
 * bench/README.md are written from these (bench/readme.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AutostopWeekReport } from "./autostop-week.js";
import type { CliProgramResult } from "./cli-program.js";
import type { StacksResult } from "./cli-stacks.js";
import type { CostFigures } from "./cost.js";
import type { FlavourRow } from "./flavours.js";
import type { FleetResult } from "./fleet.js";
import type { CheckDiffFigures } from "./micro.js";
import type { NeighbourResult } from "./neighbour.js";
import type { ExecutablesReport } from "./plugin-executables.js";
import type { ProgramResult } from "./program.js";
import type { ReadinessResult } from "./readiness.js";
import type { AfterUpResult } from "./refresh.js";
import type { UsersFleetResult } from "./users-fleet.js";

/** What a run and its parameters were, as every result file starts. */
export interface RunInfo {
  readonly startedAt: string;
  readonly node: string;
  readonly cores: number;
  readonly quick: boolean;
  readonly parameters: { readonly tSeconds: number; readonly clockScale: number; readonly quota: string };
}

/** bench/results/latest.json: a full `npm run bench`. */
export interface FullReport extends RunInfo {
  readonly fleet: readonly FleetResult[];
  /** Scenario 1b; absent from runs before it existed. */
  readonly neighbour?: readonly NeighbourResult[];
  readonly hostFleet: readonly FleetResult[];
  readonly sharedKey: FleetResult;
  readonly micro: {
    readonly serializedBytes: Readonly<Record<string, number>>;
    readonly coldStart: { readonly medianMs: number; readonly runsMs: readonly number[] };
    readonly checkAndDiff: CheckDiffFigures;
    readonly hostMemory: { readonly idleMb: number; readonly peakMb: number; readonly n: number };
  };
  readonly program: ProgramResult;
  readonly programThroughCli: {
    readonly parallelism: readonly CliProgramResult[];
    /** Scenario 5e; absent from runs before it existed. */
    readonly users?: readonly UsersFleetResult[];
    readonly stacks: StacksResult;
    readonly scale: readonly CliProgramResult[];
    readonly flavours: FlavoursReport;
  };
  readonly readiness: readonly ReadinessResult[];
  readonly afterUp: readonly AfterUpResult[];
  readonly cost: CostFigures;
}

interface FlavoursReport {
  readonly table: readonly FlavourRow[];
}

/** bench/results/latest-plugin.json: `node dist/bench/run.js --only plugin`. */
export interface PluginReport extends RunInfo {
  readonly flavours: FlavoursReport;
}

/**
 * bench/results/latest-stacks.json: `node dist/bench/run.js --only stacks`, scenario 5b alone;
 * latest-stacks-four.json with `--keys four`.
 */
export interface StacksReport extends RunInfo {
  readonly stacks: StacksResult;
  /** The runs after the first, with `--runs N`. */
  readonly more?: readonly StacksResult[];
}

/** bench/results/latest-fleet.json: `node dist/bench/run.js --only fleet`, scenarios 1 and 1b alone. */
export interface FleetReport extends RunInfo {
  readonly fleet: readonly FleetResult[];
  readonly neighbour: readonly NeighbourResult[];
}

/** bench/results/latest-users.json: `node dist/bench/run.js --only users`, scenario 5e alone. */
export interface UsersReport extends RunInfo {
  readonly users: readonly UsersFleetResult[];
}

/** bench/results/cost.json: `node dist/bench/run.js --only cost`, scenario 8 alone. */
export interface CostReport extends CostFigures {
  readonly measuredAt: string;
  readonly node: string;
}

/** The result files the figures are written from; all but the full run's are there only once run. */
export interface BenchResults {
  readonly full: FullReport;
  readonly plugin: PluginReport | undefined;
  readonly users: UsersReport | undefined;
  readonly fleet: FleetReport | undefined;
  readonly stacks: StacksReport | undefined;
  readonly stacksFour: StacksReport | undefined;
  readonly cost: CostReport | undefined;
  readonly executables: ExecutablesReport | undefined;
  readonly autostop: AutostopWeekReport | undefined;
}

export function readBenchResults(dir: string): BenchResults {
  const read = <T>(name: string): T | undefined =>
    existsSync(join(dir, name)) ? (JSON.parse(readFileSync(join(dir, name), "utf8")) as T) : undefined;
  const full = read<FullReport>("latest.json");
  if (!full) throw new Error(`no ${join(dir, "latest.json")}: run npm run bench first`);
  return {
    full,
    plugin: read<PluginReport>("latest-plugin.json"),
    users: read<UsersReport>("latest-users.json"),
    fleet: read<FleetReport>("latest-fleet.json"),
    stacks: read<StacksReport>("latest-stacks.json"),
    stacksFour: read<StacksReport>("latest-stacks-four.json"),
    cost: read<CostReport>("cost.json"),
    executables: read<ExecutablesReport>("executables.json"),
    autostop: read<AutostopWeekReport>("autostop.json"),
  };
}

/**
 * The later of a scenario's run alone and its run in the full run (5b, 5d and 5e run both ways):
 * the alone run when it started after the full run's, else undefined (the full run's figures).
 */
export function laterAlone<R extends RunInfo>(results: BenchResults, alone: R | undefined): R | undefined {
  return alone && alone.startedAt > results.full.startedAt ? alone : undefined;
}

/** Scenarios 1 and 1b, from the later of their runs (1b absent from full runs before it existed). */
export function fleetRuns(results: BenchResults): {
  run: RunInfo;
  file: string;
  fleet: readonly FleetResult[];
  neighbour: readonly NeighbourResult[];
} {
  const alone = laterAlone(results, results.fleet);
  if (alone) return { run: alone, file: "latest-fleet.json", fleet: alone.fleet, neighbour: alone.neighbour };
  const { full } = results;
  return { run: full, file: "latest.json", fleet: full.fleet, neighbour: full.neighbour ?? [] };
}

/**
 * Each run's label: its keys, and its number among the runs on the same keys where those were run
 * more than once (`--runs N`): "one key", "a key each, run 2".
 */
export function stacksRunLabels(runs: readonly StacksResult[]): readonly string[] {
  const keysOf = (r: StacksResult) => (r.keys === "four" ? "a key each" : "one key");
  const total = new Map<string, number>();
  for (const r of runs) total.set(keysOf(r), (total.get(keysOf(r)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return runs.map((r) => {
    const keys = keysOf(r);
    seen.set(keys, (seen.get(keys) ?? 0) + 1);
    return (total.get(keys) ?? 0) > 1 ? `${keys}, run ${seen.get(keys)}` : keys;
  });
}

/** Scenario 5e's rows, from the later of its runs. */
export function usersRows(results: BenchResults): readonly UsersFleetResult[] {
  return laterAlone(results, results.users)?.users ?? results.full.programThroughCli.users ?? [];
}

/** Scenario 5b's runs: one key, from the later of its runs; four keys of one user, once run alone. */
export function stacksRuns(results: BenchResults): readonly StacksResult[] {
  const alone = laterAlone(results, results.stacks);
  const oneKey = alone ? [alone.stacks, ...(alone.more ?? [])] : [results.full.programThroughCli.stacks];
  const four = results.stacksFour ? [results.stacksFour.stacks, ...(results.stacksFour.more ?? [])] : [];
  return [...oneKey, ...four];
}
