/**
 * The figures of bench/README.md, written from the result files under bench/results/ so that no
 * figure in it is ever typed by hand. `npm run bench` rewrites the block after a full run;
 * `node dist/bench/readme.js` rewrites it from the result files already there. Everything outside
 * the two markers is prose and stays as written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchChart } from "./chart.js";
import { f } from "./columns.js";
import type { CostFigures } from "./cost.js";
import type { FleetResult } from "./fleet.js";
import { lag, table } from "./markdown.js";
import type { NeighbourResult } from "./neighbour.js";
import type { ProgramResult } from "./program.js";
import type { ReadinessResult } from "./readiness.js";
import { flavoursTable, parallelismTable, scaleTable, stacksTable, usersTable } from "./readme-cli.js";
import type { AfterUpResult } from "./refresh.js";
import {
  type BenchResults,
  type FullReport,
  fleetRuns,
  laterAlone,
  type RunInfo,
  readBenchResults,
  stacksRuns,
  usersRows,
} from "./result-files.js";
import { statusReads } from "./rows.js";

export const FIGURES_START =
  "<!-- figures: written by bench/readme.ts from bench/results/*.json; do not edit -->";
export const FIGURES_END = "<!-- end of figures -->";

const source = (file: string, run: RunInfo) =>
  `From \`bench/results/${file}\`: started ${run.startedAt}, Node ${run.node}, ${run.cores} cores, ` +
  `T = ${run.parameters.tSeconds} s, quota ${run.parameters.quota}.`;

const strategyName: Record<FleetResult["strategy"], string> = {
  ours: "runpod-dynamic",
  "ours-seen": "runpod-dynamic, kind on the account",
  "poll-1s": "poll every 1 s",
  "poll-5s": "poll every 5 s",
};

function fleetTable(rows: readonly FleetResult[], label: (r: FleetResult) => string): string {
  return table(
    [
      "Strategy",
      "N",
      "All RUNNING (s)",
      "x T",
      "Requests",
      "Per pod",
      "Status reads",
      "429s",
      "Lag median / p90 (s)",
      "Failures",
    ],
    "lrrrrrrrrr",
    rows.map((r) => [
      label(r),
      r.n,
      f(r.allRunningSeconds),
      f(r.ratioToT, 2),
      r.requests,
      f(r.requests / r.n, 2),
      statusReads(r),
      r.status429,
      lag(r.lagMedian, r.lagP90),
      r.failures,
    ]),
  );
}

/** Scenario 1b: what the neighbour met, minute by minute, and what leaving it room cost the fleet. */
function neighbourTable(rows: readonly NeighbourResult[]): string {
  if (rows.length === 0) return "Not measured yet: `node dist/bench/run.js --only fleet`.";
  return table(
    [
      "Pods",
      "Kind",
      "All RUNNING (s)",
      "Bound (s)",
      "x bound",
      "Fleet requests",
      "Fleet 429s",
      "Lag median / p90 (s)",
      "Neighbour reads",
      "Neighbour 429s by minute",
    ],
    "rlrrrrrrrl",
    rows.map((r) => [
      r.n,
      r.kindOnAccount ? "on the account" : "never seen",
      f(r.allRunningSeconds),
      r.bound,
      f(r.allRunningSeconds / r.bound, 2),
      r.fleetRequests,
      r.fleet429,
      lag(r.lagMedian, r.lagP90),
      r.neighbourReads,
      r.neighbour429ByMinute.join(", "),
    ]),
  );
}

function readinessTable(rows: readonly ReadinessResult[]): string {
  return table(
    ["Check", "N", "All ready (s)", "Requests", "Status reads", "429s", "Failures"],
    "lrrrrrr",
    rows.map((r) => [
      `\`${r.check}\``,
      r.n,
      f(r.allReadySeconds),
      r.requests,
      r.reads,
      r.status429,
      r.failures,
    ]),
  );
}

function afterUpTable(rows: readonly AfterUpResult[]): string {
  return table(
    ["Phase", "Strategy", "N", "Seconds", "Requests", "429s", "Failures"],
    "llrrrrr",
    rows.map((r) => [
      r.phase,
      r.strategy === "ours" ? "runpod-dynamic" : "one GET per pod",
      r.n,
      f(r.seconds),
      r.requests,
      r.status429,
      r.failures,
    ]),
  );
}

function microTable(full: FullReport): string {
  const m = full.micro;
  const sizes = Object.values(m.serializedBytes);
  const cd = m.checkAndDiff;
  return table(["Figure", "Value"], "lr", [
    ["Serialized provider per resource type (bytes)", `${Math.min(...sizes)}-${Math.max(...sizes)}`],
    ["Provider host cold start to its first Create, median (ms)", f(m.coldStart.medianMs, 0)],
    ["check + diff per Pod in process (µs)", f(cd.checkPlusDiffUs)],
    ["check + diff per Pod through the provider host over gRPC (µs)", f(cd.hostCheckUs + cd.hostDiffUs, 0)],
    ["Provider host memory idle (MB)", f(m.hostMemory.idleMb, 0)],
    [`Provider host memory with ${m.hostMemory.n} pods in flight (MB)`, f(m.hostMemory.peakMb, 0)],
  ]);
}

function programTable(p: ProgramResult): string {
  return table(
    [
      "Pods",
      "Preview (s)",
      "Preview peak MB",
      "Up wall (s)",
      "Up emulator (s)",
      "Up peak MB",
      "Requests",
      "429s",
    ],
    "rrrrrrrr",
    [
      [
        p.resources,
        f(p.previewSeconds),
        f(p.previewPeakMb, 0),
        f(p.upSeconds),
        f(p.upEmulatorSeconds, 0),
        f(p.upPeakMb, 0),
        p.upRequests,
        p.up429,
      ],
    ],
  );
}

function autostopTable(results: BenchResults): string {
  const a = results.autostop;
  if (!a) return "Not measured yet: `node dist/bench/run.js --only autostop`.";
  const pct = (x: number) => `${f(x * 100)} %`;
  const saved = (a.gpuUsd.without - a.gpuUsd.with) / a.idleUsd.inSpells;
  const stops = Object.entries(a.stops)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(", ");
  return [
    `From \`bench/results/autostop.json\`: ${a.measuredAt}, Node ${a.node}; ${a.pods} pods, ${a.passes.due} passes due, ${a.passes.dropped} never run, ${a.passes.late} late by up to 30 min; ${f(a.wallSeconds, 0)} s of wall time for both weeks. Stops by kind of pod: ${stops}.`,
    table(["Goal", "Measured"], "lr", [
      [
        "idle spells stopped within the window plus 15 min after the first pass that ran in them",
        `${a.spellsOnTime} of ${a.spells} (worst: ${f(a.worstDelayMinutes, 0)} min past the window)`,
      ],
      ["wrong stops (a busy sample in the window, locked, CPU-busy, data lost)", String(a.wrongStops)],
      [
        "idle GPU dollars not billed (idle spells of at least the window, billing records)",
        `${pct(saved)} ($${f(a.gpuUsd.without - a.gpuUsd.with, 2)} of $${f(a.idleUsd.inSpells, 2)})`,
      ],
      [
        "... of every idle minute, shorter spells too",
        pct((a.gpuUsd.without - a.gpuUsd.with) / a.idleUsd.all),
      ],
      ["list requests per pass, actions per stop", `${f(a.listsPerPass, 2)}, ${f(a.actionsPerStop, 2)}`],
      [
        "pods whose refresh and diff show a change after the week",
        `${a.podsWithChanges} (and ${a.consoleLocks} locked in the console: \`locked\` drift)`,
      ],
    ]),
  ].join("\n\n");
}

function executablesTable(results: BenchResults): string {
  const e = results.executables;
  if (!e) return "Not measured yet: `node dist/bench/run.js --only executables`.";
  const mb = (bytes: number) => f(bytes / 1e6);
  return [
    `From \`bench/results/executables.json\`: ${e.measuredAt}, Node ${e.node}. All five built in ${f(e.buildSeconds, 0)} s (wall, Node binaries already downloaded).`,
    table(
      ["Platform", "Archive (MB)", "Executable (MB)"],
      "lrr",
      e.platforms.map((p) => [p.platform, mb(p.archiveBytes), mb(p.executableBytes)]),
    ),
    table([`Start (median of ${e.startSeconds.starts}, wall s, to the printed port)`, "s"], "lr", [
      ["this machine's executable", f(e.startSeconds.executable, 2)],
      [`the JavaScript plugin on Node ${e.node}`, f(e.startSeconds.javascript, 2)],
    ]),
  ].join("\n\n");
}

function costTable(results: BenchResults): string {
  const row = (label: string, c: CostFigures) => [
    label,
    c.resources,
    `${f(c.documentBytes / 1024, 0)} KB`,
    f(c.priceMs),
    f(c.priceAndRenderMs),
  ];
  const rows = [row("inside the full run (`latest.json`)", results.full.cost)];
  if (results.cost) rows.push(row(`alone (\`cost.json\`, ${results.cost.measuredAt})`, results.cost));
  return table(
    ["Measured", "Resources", "Preview JSON", "Priced (ms)", "Priced and rendered (ms)"],
    "lrrrr",
    rows,
  );
}

/** The block between the markers: every table, each under the scenario it measures. */
export function figuresMarkdown(results: BenchResults): string {
  const { full, plugin } = results;
  const cli = full.programThroughCli;
  const stacksAlone = laterAlone(results, results.stacks);
  const stacks = stacksRuns(results);
  const alone = laterAlone(results, plugin);
  const flavourRun: RunInfo = alone ?? full;
  const flavourRows = (alone ?? full.programThroughCli).flavours.table;
  const flavourFile = alone ? "latest-plugin.json" : "latest.json";
  const usersAlone = laterAlone(results, results.users);
  const usersRun: RunInfo = usersAlone ?? full;
  const users = usersRows(results);
  const fleets = fleetRuns(results);
  const sections = [
    `### 1. A fleet in one process (clock x${fleets.run.parameters.clockScale})`,
    source(fleets.file, fleets.run),
    fleetTable(fleets.fleet, (r) => strategyName[r.strategy]),
    "### 1b. A neighbour on the key, reading every 10 s",
    neighbourTable(fleets.neighbour),
    "### 2. The fleet through the real provider host",
    fleetTable([...full.hostFleet, full.sharedKey], (r) =>
      r === full.sharedKey ? "4 provider hosts, one API key" : "one provider host",
    ),
    "### 3. Micro figures",
    microTable(full),
    "### 4. A program through the stand-in engine",
    programTable(full.program),
    `### 5. The fleet program through the real CLI: parallelism (clock x${cli.parallelism[0]?.scale ?? "-"})`,
    parallelismTable(cli.parallelism),
    `### 5b. Several stacks on one account (clock x${stacks[0]?.scale ?? "-"})`,
    ...(stacksAlone ? [source("latest-stacks.json", stacksAlone)] : []),
    ...(results.stacksFour ? [source("latest-stacks-four.json", results.stacksFour)] : []),
    stacksTable(stacks),
    `### 5c. Scale through the real CLI (clock x${cli.scale[0]?.scale ?? "-"})`,
    scaleTable(cli.scale),
    `### 5d. The provider plugin next to the dynamic provider (clock x${flavourRun.parameters.clockScale})`,
    source(flavourFile, flavourRun),
    flavoursTable(flavourRows),
    `### 5e. The fleet as users write it (T = ${users[0]?.tSeconds ?? "-"} s, clock x${users[0]?.scale ?? "-"})`,
    `From \`bench/results/${usersAlone ? "latest-users.json" : "latest.json"}\`: started ${usersRun.startedAt}, Node ${usersRun.node}, ${usersRun.cores} cores.`,
    users.length > 0 ? usersTable(users) : "Not measured yet: `node dist/bench/run.js --only users`.",
    "### 6. What a readiness check costs",
    readinessTable(full.readiness),
    "### 7. After up: refresh and destroy",
    afterUpTable(full.afterUp),
    "### 8. What a change costs",
    costTable(results),
    "### 9. The plugin as users install it",
    executablesTable(results),
    "### 10. Autostop over a simulated week",
    autostopTable(results),
  ];
  return sections.join("\n\n");
}

/** `readme` with the block between the markers replaced by `figures`. */
export function withFigures(readme: string, figures: string): string {
  const start = readme.indexOf(FIGURES_START);
  const end = readme.indexOf(FIGURES_END);
  if (start < 0 || end < start) {
    throw new Error(`bench/README.md has no figures block: the lines ${FIGURES_START} and ${FIGURES_END}`);
  }
  return `${readme.slice(0, start + FIGURES_START.length)}\n\n${figures}\n\n${readme.slice(end)}`;
}

/**
 * Rewrites the figures block of `<root>/bench/README.md`, and the chart it shows
 * (`bench/results/fleet.svg`), from `<root>/bench/results`.
 */
export function writeBenchReadme(root: string): void {
  const path = join(root, "bench", "README.md");
  const results = readBenchResults(join(root, "bench", "results"));
  writeFileSync(path, withFigures(readFileSync(path, "utf8"), figuresMarkdown(results)));
  writeFileSync(join(root, "bench", "results", "fleet.svg"), benchChart(results));
}

if (require.main === module) {
  writeBenchReadme(join(__dirname, "..", ".."));
  process.stdout.write("bench/README.md and bench/results/fleet.svg: written from bench/results\n");
}
