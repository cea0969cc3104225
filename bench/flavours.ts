/**
 * Scenario 5d: the fleet's `up` through the real CLI with PULUMI_PARALLEL=N for each flavour, the
 * dynamic provider (bench/program) and the provider plugin (the same pods as a YAML program),
 * with each flavour's state per pod.
 */
import { buildLocalPluginArchive } from "../harness/plugin-executables.js";
import { pluginFlavour } from "./cli-plugin.js";
import {
  type CliProgramResult,
  type CliRunOptions,
  type ProcessPeaks,
  runProgramWithCli,
} from "./cli-program.js";
import { columns, f } from "./columns.js";
import type { StatePerPod } from "./state-size.js";

/** How run.ts runs the scenario: its sizes, clock and where lines go. */
export interface FlavourOptions {
  readonly quick: boolean;
  readonly tSeconds: number;
  readonly scale: number;
  readonly out: (line?: string) => void;
}

/** One `up` of scenario 5d: a flavour's fleet through the real CLI, and its state per pod. */
export interface FlavourRow {
  readonly flavour: CliProgramResult["flavour"];
  readonly pods: number;
  readonly parallel: number | "default";
  readonly exitCode: number;
  readonly wallSeconds: number;
  readonly emulatorSeconds: number;
  readonly requests: number;
  readonly status429: number;
  /** Peak resident MB per kind of process (`harness`: the launcher when it only starts the CLI). */
  readonly peaks: ProcessPeaks;
  readonly state: StatePerPod | undefined;
}

function flavourRowOf(r: CliProgramResult): FlavourRow | undefined {
  const up = r.phases.find((p) => p.command === "up");
  if (!up) return undefined;
  return {
    flavour: r.flavour,
    pods: r.resources,
    parallel: r.parallel,
    exitCode: up.exitCode,
    wallSeconds: up.wallSeconds,
    emulatorSeconds: up.emulatorSeconds,
    requests: up.requests,
    status429: up.status429,
    peaks: up.peaks,
    state: r.state,
  };
}

function flavourLine(r: FlavourRow): string {
  return columns(
    [r.flavour, 7],
    [r.pods, 4],
    [r.exitCode, 4],
    [f(r.wallSeconds), 7],
    [f(r.emulatorSeconds), 6],
    [r.requests, 5],
    [r.status429, 5],
    [`${f(r.peaks.cli, 0)}/${f(r.peaks.host, 0)}/${f(r.peaks.program, 0)}`, 28],
    [r.peaks.hostProcesses, 5],
    [f(r.state?.podEntryBytes ?? Number.NaN, 0), 11],
    [f(r.state?.propertyBytesPerPod ?? Number.NaN, 0), 9],
    [f(r.state?.stackTraceBytesPerPod ?? Number.NaN, 0), 8],
    [f(r.state?.stateBytesPerPod ?? Number.NaN, 0), 11],
    [f(r.state?.exportBytesPerPod ?? Number.NaN, 0), 12],
  );
}

/**
 * Scenario 5d: the fleet's `up` through the real CLI with PULUMI_PARALLEL=N for each flavour, the
 * dynamic provider (bench/program) and the provider plugin (the same pods as a YAML program),
 * with each flavour's state per pod. The dynamic provider's runs of 5c are taken where they have
 * the size, parallelism and clock; the others are run here, a preview then the up, as 5c runs
 * them (the Node program's up takes less memory after a preview than on its own).
 */
export async function compareFlavours(
  dynamicRuns: readonly CliProgramResult[],
  { quick, tSeconds: T, scale: SCALE_SCALE, out }: FlavourOptions,
): Promise<{ table: FlavourRow[]; runs: CliProgramResult[] }> {
  const sizes = quick ? [10, 20] : [200, 1000];
  out(
    `5d. The fleet on the provider plugin (a YAML program) and on the dynamic provider: up through the real CLI with PULUMI_PARALLEL=N (T = ${T} s, clock x${SCALE_SCALE})`,
  );
  out(
    "flavour pods exit  wall s  emu s  reqs  429s peak cli/provider/program MB prov# pod entry B  in+out B  trace B state B/pod export B/pod",
  );
  const options = (n: number): CliRunOptions => ({
    count: n,
    scale: SCALE_SCALE,
    tSeconds: T,
    settle: 0,
    parallel: n,
    phases: ["preview", "up"],
  });
  const asset = await buildLocalPluginArchive();
  const runs: CliProgramResult[] = [];
  const table: FlavourRow[] = [];
  const record = (r: CliProgramResult) => {
    runs.push(r);
    const row = flavourRowOf(r);
    if (row) table.push(row);
    out(row ? flavourLine(row) : `${r.flavour} ${r.resources} pods: no up`);
  };
  try {
    for (const n of sizes) {
      record(
        dynamicRuns.find((r) => r.resources === n && r.parallel === n && r.scale === SCALE_SCALE) ??
          (await runProgramWithCli(options(n))),
      );
      record(await runProgramWithCli(options(n), pluginFlavour(asset)));
    }
  } finally {
    asset.dispose();
  }
  const ratio = (n: number, of: (s: StatePerPod) => number) => {
    const [d, p] = (["dynamic", "plugin"] as const).map((fl) => {
      const s = table.find((r) => r.flavour === fl && r.pods === n)?.state;
      return s ? of(s) : Number.NaN;
    });
    return f(((p ?? Number.NaN) / (d ?? Number.NaN)) * 100, 0);
  };
  for (const n of sizes)
    out(
      `${n} pods: the plugin's state per pod is ${ratio(n, (s) => s.podEntryBytes)} % of the dynamic provider's (pod entries), ${ratio(n, (s) => s.propertyBytesPerPod)} % (their inputs and outputs), ${ratio(n, (s) => s.stateBytesPerPod)} % (whole state)`,
    );
  const harness = Math.max(...table.map((r) => r.peaks.harness));
  out(
    `provider: the sum of the provider processes alive at once (prov#: how many). program: the Node program in its launcher (dynamic), Pulumi's YAML host (plugin; the launcher that only starts the CLI, ${f(harness, 0)} MB, left out).`,
  );
  out(
    "Bytes per pod, JSON without indentation: a Pod entry; its inputs and outputs (the provider's part); its stackTrace and sourcePosition (the language host's part); the whole state. export: as `pulumi stack export` prints it.",
  );
  return { table, runs };
}
