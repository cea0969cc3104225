/**
 * `npm run bench`: every scenario on fresh emulators, printed as tables and written as JSON under
 * bench/results/. Figures, never pass/fail. `--quick` runs smaller fleets (for a smoke run). `--only
 * <scenario>` runs one and writes its own file: plugin (5d, latest-plugin.json), users (5e,
 * latest-users.json), stacks (5b, latest-stacks.json; with `--keys four`, each stack on a key of its
 * own, all of one user: latest-stacks-four.json), cost (8), executables (9), autostop (10). A full
 * run then rewrites the figures of bench/README.md (bench/readme.ts); a quick run leaves them alone.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { writeAutostopWeekReport } from "./autostop-week.js";
import { benchChart } from "./chart.js";
import { type CliProgramResult, runProgramWithCli } from "./cli-program.js";
import { runStacksWithCli, type StacksResult, stacksLine } from "./cli-stacks.js";
import { columns, f } from "./columns.js";
import { costOfPreview } from "./cost.js";
import { compareFlavours } from "./flavours.js";
import type { FleetResult } from "./fleet.js";
import { measureFleets } from "./fleets.js";
import { runHostFleet } from "./host-fleet.js";
import { checkAndDiff, coldStart, hostMemory, serializedSizes } from "./micro.js";
import { benchOptions } from "./options.js";
import { writeExecutablesReport } from "./plugin-executables.js";
import { runProgram } from "./program.js";
import { type Check, type ReadinessResult, runReadinessFleet } from "./readiness.js";
import { writeBenchReadme } from "./readme.js";
import { type AfterUpResult, runAfterUp } from "./refresh.js";
import type {
  BenchResults,
  CostReport,
  FleetReport,
  FullReport,
  PluginReport,
  RunInfo,
  StacksReport,
  UsersReport,
} from "./result-files.js";
import { cliRow, fleetRow } from "./rows.js";
import { runUsersFleets, USERS_SCALE, USERS_T } from "./users-fleet.js";
import { writeResult } from "./write-result.js";

const { quick, only, keys, runs } = benchOptions(process.argv);
const out = (line = "") => process.stdout.write(`${line}\n`);
/** The repository, from dist/bench/. */
const REPO_ROOT = join(__dirname, "..", "..");

/** Emulator seconds from create to RUNNING, and how much faster than real time the emulator runs. */
const T = 90;
const SCALE = 5;
/** Clocks of the real-CLI scenarios: the engine's default parallelism takes many waves of T. */
const CLI_SCALE = 10;
/** Four CLIs with their hosts and programs on two cores: a slower clock keeps CPU time out of the lags. */
const STACKS_SCALE = 2;
/** The scale runs look at requests, memory and state size: a fast clock. */
const SCALE_SCALE = 20;

/**
 * One scenario alone (`--only <name>`): its figures written to bench/results/<file>.json, with
 * what the run was, and the figures of bench/README.md rewritten from them (a quick run writes
 * <file>-quick.json and leaves the page alone).
 */
async function scenarioAlone<T extends object>(
  which: string,
  file: string,
  parameters: { tSeconds: number; clockScale: number },
  measure: () => Promise<T>,
): Promise<void> {
  const started = new Date();
  out(
    `runpod-dynamic benchmarks (${which} only), ${started.toISOString()}, node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  );
  out();
  const figures = await measure();
  const info: RunInfo = {
    startedAt: started.toISOString(),
    node: process.version,
    cores: cpus().length,
    quick,
    parameters: { ...parameters, quota: "60/min, 3000/h, 50000/day" },
  };
  const dir = join(REPO_ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const latest = quick ? `${file}-quick.json` : `${file}.json`;
  writeFileSync(join(dir, latest), `${JSON.stringify({ ...info, ...figures }, null, 2)}\n`);
  out();
  out(`Written to bench/results/${latest}`);
  if (!quick) {
    writeBenchReadme(REPO_ROOT);
    out("Figures of bench/README.md rewritten");
  }
}

/** `--only plugin`: scenario 5d alone, written to bench/results/latest-plugin.json. */
const onlyPlugin = () =>
  scenarioAlone<Omit<PluginReport, keyof RunInfo>>(
    "5d",
    "latest-plugin",
    { tSeconds: T, clockScale: SCALE_SCALE },
    async () => ({ flavours: await compareFlavours([], { quick, tSeconds: T, scale: SCALE_SCALE, out }) }),
  );

/** `--only stacks`: scenario 5b alone, written to bench/results/latest-stacks[-four].json. */
const onlyStacks = () =>
  scenarioAlone<Omit<StacksReport, keyof RunInfo>>(
    `5b: 4 stacks, ${keys === "one" ? "one API key" : "a key each"}`,
    keys === "four" ? "latest-stacks-four" : "latest-stacks",
    { tSeconds: T, clockScale: STACKS_SCALE },
    async () => {
      const results: StacksResult[] = [];
      for (let run = 0; run < runs; run++) {
        const stacks = await runStacksWithCli({
          stacks: 4,
          podsPerStack: quick ? 5 : 50,
          scale: STACKS_SCALE,
          tSeconds: T,
          keys,
        });
        out(stacksLine(stacks));
        results.push(stacks);
      }
      const [stacks, ...more] = results as [StacksResult, ...StacksResult[]];
      return { stacks, ...(more.length > 0 ? { more } : {}) };
    },
  );

/** `--only fleet`: scenarios 1 and 1b alone, written to bench/results/latest-fleet.json. */
const onlyFleet = () =>
  scenarioAlone<Omit<FleetReport, keyof RunInfo>>(
    "1 and 1b",
    "latest-fleet",
    { tSeconds: T, clockScale: SCALE },
    () => measureFleets({ quick, tSeconds: T, scale: SCALE, out }),
  );

/** `--only users`: scenario 5e alone, written to bench/results/latest-users.json. */
const onlyUsers = () =>
  scenarioAlone<Omit<UsersReport, keyof RunInfo>>(
    "5e",
    "latest-users",
    { tSeconds: USERS_T, clockScale: USERS_SCALE },
    async () => ({ users: await runUsersFleets(quick, out) }),
  );

/** `--only cost`: scenario 8 alone, written to bench/results/cost.json. */
async function mainOnlyCost(): Promise<void> {
  const figures = await costOfPreview();
  const report: CostReport = { measuredAt: new Date().toISOString(), node: process.version, ...figures };
  writeResult(REPO_ROOT, "cost", report);
  writeBenchReadme(REPO_ROOT);
  out(
    `cost of a ${figures.resources}-resource preview (${figures.documentBytes} bytes): priced in ${f(figures.priceMs)} ms, with table, markdown and JSON ${f(figures.priceAndRenderMs)} ms (median of ${figures.runsMs.length})`,
  );
  out("Written to bench/results/cost.json; figures of bench/README.md rewritten");
}

/** `--only executables` (scenario 9) or `--only autostop` (10): written to its file, the page rewritten. */
const writingAlone = (write: (root: string, line: (l: string) => void) => Promise<void>) => async () => {
  await write(REPO_ROOT, out);
  writeBenchReadme(REPO_ROOT);
  out("Figures of bench/README.md rewritten");
};

async function main(): Promise<void> {
  const started = new Date();
  out(
    `runpod-dynamic benchmarks, ${started.toISOString()}, node ${process.version}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
  );
  out(`Fleet: T = ${T} s from create to RUNNING, quota 60/min, 3000/h, 50000/day; emulator clock x${SCALE}.`);
  out();
  const { fleet, neighbour } = await measureFleets({ quick, tSeconds: T, scale: SCALE, out });
  out();
  out("2. The same fleet through the real provider host (concurrent gRPC Create)");
  const hostFleet: FleetResult[] = [];
  for (const n of quick ? [10] : [50, 200]) {
    const r = await runHostFleet({ n, tSeconds: T, scale: SCALE });
    hostFleet.push(r);
    out(fleetRow(r));
  }
  out();
  out(`2b. ${quick ? 20 : 200} pods over 4 provider hosts with one API key (4 deployments at once)`);
  const sharedKey = await runHostFleet({ n: quick ? 20 : 200, tSeconds: T, scale: SCALE }, 4);
  out(fleetRow(sharedKey));
  out();
  out("3. Micro figures");
  const serialized = await serializedSizes();
  out(
    `serialized provider bytes: ${Object.entries(serialized)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
  );
  const cold = await coldStart(quick ? 2 : 5);
  out(
    `host cold start to first Create: median ${f(cold.medianMs, 0)} ms (${cold.runsMs.map((x) => f(x, 0)).join(", ")})`,
  );
  const cd = await checkAndDiff(1000);
  out(
    `check + diff per resource over 1000: in-process ${f(cd.checkUs)} + ${f(cd.diffUs)} = ${f(cd.checkPlusDiffUs)} µs; through the host ${f(cd.hostCheckUs)} + ${f(cd.hostDiffUs)} µs`,
  );
  const mem = await hostMemory(quick ? 20 : 1000);
  out(`host memory: ${f(mem.idleMb)} MB idle, ${f(mem.peakMb)} MB peak with ${mem.n} pods in flight`);
  out();
  out("4. A program of many pods through the stand-in engine (preview, then up)");
  const count = quick ? 20 : 200;
  const program = await runProgram(count, 10, 30);
  out(
    `${program.resources} resources: preview ${f(program.previewSeconds)} s (peak ${f(program.previewPeakMb, 0)} MB), up ${f(program.upSeconds)} s wall / ${f(program.upEmulatorSeconds)} s emulator (peak ${f(program.upPeakMb, 0)} MB), ${program.upRequests} requests, ${program.up429} 429s, ${program.created} created`,
  );
  out();
  out("5. The fleet program through the real Pulumi CLI: the engine's parallelism");
  out(
    `T = ${T} s, emulator clock x${CLI_SCALE}, readiness.settle 0; times in emulator seconds from the command's start`,
  );
  out(
    "pods  parallel  first/last create  all-RUN  from 1st  bound   xbound  reqs  429s  lag med/p90  peak cli/host/program MB  note",
  );
  const cliParallel: CliProgramResult[] = [];
  for (const n of quick ? [10] : [50, 200]) {
    for (const parallel of [undefined, n]) {
      const r = await runProgramWithCli({
        count: n,
        scale: CLI_SCALE,
        tSeconds: T,
        settle: 0,
        parallel,
        phases: ["up"],
      });
      cliParallel.push(r);
      out(cliRow(r));
    }
  }
  out();
  const users = await runUsersFleets(quick, out);
  out();
  const k = 4;
  const perStack = quick ? 5 : 50;
  out(
    `5b. ${k} stacks of ${perStack} pods on one API key, started together through ${k} real CLIs (PULUMI_PARALLEL=${perStack}, clock x${STACKS_SCALE})`,
  );
  const stacks = await runStacksWithCli({
    stacks: k,
    podsPerStack: perStack,
    scale: STACKS_SCALE,
    tSeconds: T,
  });
  out(stacksLine(stacks));
  out();
  out(
    `5c. Scale: preview, up, refresh, destroy through the real CLI with PULUMI_PARALLEL=N (T = ${T} s, clock x${SCALE_SCALE})`,
  );
  out("pods  command   exit  wall s  emu s  reqs  429s  peak cli/host/program MB  state KB");
  const scaleRuns: CliProgramResult[] = [];
  for (const n of quick ? [10, 20] : [50, 200, 1000]) {
    const r = await runProgramWithCli({
      count: n,
      scale: SCALE_SCALE,
      tSeconds: T,
      settle: 0,
      parallel: n,
      phases: ["preview", "up", "refresh", "destroy"],
    });
    scaleRuns.push(r);
    for (const p of r.phases) {
      out(
        columns(
          [n, 4],
          [p.command, 8],
          [p.exitCode, 5],
          [f(p.wallSeconds), 7],
          [f(p.emulatorSeconds), 6],
          [p.requests, 5],
          [p.status429, 5],
          [`${f(p.peaks.cli, 0)}/${f(p.peaks.host, 0)}/${f(p.peaks.program, 0)}`, 24],
          [p.command === "up" ? f(r.stateBytes / 1024, 0) : "", 8],
        ),
      );
    }
  }
  out();
  const flavours = await compareFlavours(scaleRuns, { quick, tSeconds: T, scale: SCALE_SCALE, out });
  out();
  out("6. What a readiness check costs: the fleet of 1., each pod serving 30 s after it starts");
  out("check       N  all-ready s  reqs  reads  429s  fail");
  const readiness: ReadinessResult[] = [];
  const checks: Check[] = ["RUNNING", "PORTS", "HTTP", "TCP"];
  for (const check of checks) {
    const r = await runReadinessFleet(check, { n: quick ? 10 : 50, tSeconds: T, scale: SCALE });
    readiness.push(r);
    out(
      columns(
        [check, 8],
        [r.n, 4],
        [f(r.allReadySeconds), 12],
        [r.requests, 5],
        [r.reads, 6],
        [r.status429, 5],
        [r.failures, 5],
      ),
    );
  }

  out();
  out("7. After up: refresh and destroy of a RUNNING fleet (default quota)");
  out("phase    strategy       N  seconds  reqs  429s  fail");
  const afterUp: AfterUpResult[] = [];
  for (const phase of ["refresh", "destroy"] as const) {
    for (const strategy of ["ours", "get-per-pod"] as const) {
      const r = await runAfterUp(phase, strategy, quick ? 20 : 200, SCALE);
      afterUp.push(r);
      out(
        columns(
          [phase, 8],
          [strategy, 12],
          [r.n, 4],
          [f(r.seconds), 8],
          [r.requests, 5],
          [r.status429, 5],
          [r.failures, 5],
        ),
      );
    }
  }

  out();
  out("8. What a change costs: a 1000-resource preview read, priced and rendered");
  const cost = await costOfPreview(quick ? 200 : 1000);
  out(
    `${cost.resources} resources (${cost.documentBytes} bytes of preview JSON): priced in ${f(cost.priceMs)} ms; with table, markdown and JSON ${f(cost.priceAndRenderMs)} ms`,
  );
  out();
  out("9. The plugin as users install it: five archives, their sizes, this machine's executable's start");
  if (!quick) await writeExecutablesReport(REPO_ROOT, out);
  out("10. Autostop over a simulated week: 100 GPU pods, the watcher every 5 minutes");
  if (!quick) await writeAutostopWeekReport(REPO_ROOT, out);

  const dir = join(REPO_ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const report: FullReport = {
    startedAt: started.toISOString(),
    node: process.version,
    cores: cpus().length,
    quick,
    parameters: { tSeconds: T, clockScale: SCALE, quota: "60/min, 3000/h, 50000/day" },
    fleet,
    neighbour,
    hostFleet,
    sharedKey,
    micro: { serializedBytes: serialized, coldStart: cold, checkAndDiff: cd, hostMemory: mem },
    program,
    programThroughCli: { parallelism: cliParallel, users, stacks, scale: scaleRuns, flavours },
    readiness,
    afterUp,
    cost,
  };
  const text = JSON.stringify(report, null, 2);
  writeFileSync(join(dir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`), text);
  const latest = quick ? "latest-quick.json" : "latest.json";
  writeFileSync(join(dir, latest), text);
  out();
  out(`Written to bench/results/${latest}`);
  if (quick) {
    const others = Object.fromEntries(
      ["plugin", "users", "stacks", "stacksFour", "cost", "executables", "autostop", "fleet"].map((k) => [
        k,
        undefined,
      ]),
    ) as Omit<BenchResults, "full">;
    writeFileSync(join(dir, "fleet-quick.svg"), benchChart({ full: report, ...others }));
  } else {
    writeBenchReadme(REPO_ROOT);
    out("Figures of bench/README.md and the chart rewritten");
  }
}

const mains = {
  plugin: onlyPlugin,
  users: onlyUsers,
  fleet: onlyFleet,
  stacks: onlyStacks,
  cost: mainOnlyCost,
  executables: writingAlone(writeExecutablesReport),
  autostop: writingAlone(writeAutostopWeekReport),
};
(only === undefined ? main : mains[only as keyof typeof mains])().then(
  () => process.exit(0),
  (err: unknown) => {
    out(`bench failed: ${err instanceof Error ? err.stack : String(err)}`);
    process.exit(1);
  },
);
