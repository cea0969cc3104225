/**
 * Scenario 5: the many-pod program of bench/program through the real Pulumi CLI, as users run it:
 * `preview`, `up`, `refresh`, `destroy` with the engine's own parallelism or `PULUMI_PARALLEL`
 * set, one stack or several on one API key at once. Wall and emulator time, API requests and 429s
 * per command, the peak memory of each process (CLI, program with its launcher, provider host),
 * when the program learned each pod was RUNNING, and the state's size. The stack is the bench
 * program's on the dynamic provider unless a run is given another flavour (bench/cli-plugin.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import type { RunningEmulator } from "../emulator/index.js";
import { requirePulumiCli } from "../harness/pulumi-cli.js";
import { ProgramStack } from "../harness/stack.js";
import { freshEmulator, quantile } from "./fleet.js";
import { type StatePerPod, statePerPod } from "./state-size.js";

export type Phase = "preview" | "up" | "refresh" | "destroy";

/** Peak resident memory (MB) of each kind of process a command runs, and of all together. */
export interface ProcessPeaks {
  /** The `pulumi` binary (the engine). */
  cli: number;
  /** The provider's processes, where every pod's create runs: the dynamic-provider host, or the plugin. */
  host: number;
  /** The most provider processes alive at once (the engine may start one more to read a schema). */
  hostProcesses: number;
  /**
   * The program: for a Node program the launcher that runs it in-process (Pulumi's language host
   * in a user's run); for a program in another language, that language's host (pulumi-language-*).
   */
  program: number;
  /**
   * The launcher when it only starts the CLI (a program not in Node runs in its own language
   * host): a cost of this harness, not of a user's run, so kept out of `program`.
   */
  harness: number;
  all: number;
}

export interface CliPhase {
  readonly command: Phase;
  readonly exitCode: number;
  readonly wallSeconds: number;
  readonly emulatorSeconds: number;
  readonly requests: number;
  readonly byRoute: Record<string, number>;
  readonly status429: number;
  readonly peaks: ProcessPeaks;
  /** Whether the provider host told the engine that its parallelism paces the fleet. */
  readonly pacingNote: boolean;
}

/** When the pods of an `up` went out and came back, in emulator seconds from the command's start. */
export interface FleetTimes {
  readonly firstCreate: number;
  readonly lastCreate: number;
  /** The last pod the program learned was RUNNING. */
  readonly allRunning: number;
  /** What the quota allows: the last create's window start plus T (see `quotaBound`). */
  readonly bound: number;
  /** From a pod becoming RUNNING to the program learning it: median, p90, max. */
  readonly lagMedian: number;
  readonly lagP90: number;
  readonly lagMax: number;
  readonly known: number;
}

export interface CliProgramResult {
  readonly pulumiVersion: string;
  /** Which provider served the pods: the dynamic provider, or the provider plugin. */
  readonly flavour: FlavourName;
  readonly resources: number;
  /** How each pod was written; absent in results from before shapes existed (pinned). */
  readonly shape?: FleetShape;
  /** `PULUMI_PARALLEL`, or "default" (the engine's: 4 per core). */
  readonly parallel: number | "default";
  readonly tSeconds: number;
  readonly scale: number;
  readonly phases: readonly CliPhase[];
  readonly fleet: FleetTimes | undefined;
  /** Bytes of the stack's state file after `up`. */
  readonly stateBytes: number;
  /** The state after `up` per pod, from `pulumi stack export`. */
  readonly state: StatePerPod | undefined;
}

export interface CliRunOptions {
  readonly count: number;
  readonly scale: number;
  readonly tSeconds: number;
  readonly parallel?: number | undefined;
  /**
   * `readiness.settle` of every pod: 0 measures the watcher alone. @default the provider's, 30 s,
   * which the bound then counts
   */
  readonly settle?: number;
  /** How each pod is written (bench/program/index.ts). @default "pinned" */
  readonly shape?: FleetShape;
  readonly phases: readonly Phase[];
}

export type FlavourName = "dynamic" | "plugin";

/** Pinned to one data center, or as users write pods: GPU fallbacks, and one volume they share. */
export type FleetShape = "pinned" | "fallbacks" | "shared-volume";

/** The settle a pod waits when its readiness names none (provider/host/pod-health.ts). */
const DEFAULT_SETTLE_SECONDS = 30;

/** How a run's stack is made: the program, its provider and its config, on `emu`. */
export interface Flavour {
  readonly name: FlavourName;
  /**
   * A new stack of `o.count` pods named `<prefix>-<i>` on `emu`. The bench program appends a line
   * to `doneFile` for each pod it learns is RUNNING; a YAML program has no way to.
   */
  stack(
    emu: RunningEmulator,
    o: CliRunOptions & { prefix?: string; doneFile: string },
  ): Promise<ProgramStack>;
}

/** An `up`'s phase and fleet times, and the time from its first create to the last pod known done. */
export function upOf(r: CliProgramResult): { up: CliPhase; t: FleetTimes; fromFirst: number } | undefined {
  const up = r.phases.find((p) => p.command === "up");
  if (!up || !r.fleet) return undefined;
  return { up, t: r.fleet, fromFirst: r.fleet.allRunning - r.fleet.firstCreate };
}

/** The line the provider host writes to the engine's diagnostics when the engine paces a fleet. */
const PACING_NOTE = /it runs at most \d+ operations? at once/;

/**
 * The emulator seconds the quota's bound puts on `n` creates started together: creates beyond a
 * window's quota go in the next window, and the last pod is RUNNING T after its create.
 */
export function quotaBound(n: number, quotaPerMinute: number, tSeconds: number): number {
  return Math.floor((n - 1) / quotaPerMinute) * 60 + tSeconds;
}

const NO_PEAKS: ProcessPeaks = { cli: 0, host: 0, hostProcesses: 0, program: 0, harness: 0, all: 0 };

/**
 * The provider's process: the dynamic-provider host, or the plugin's `node .../plugin/main.js`
 * (its launcher execs node, so the plugin is one process).
 */
const PROVIDER_PROCESS = /dynamic-provider|provider\/plugin\/main\.js|pulumi-resource-runpod-dynamic/;
const LAUNCHER = /harness\/pulumi\.js/;

/**
 * Whether the harness's launcher runs the stack's program in its own process: it does for a Node
 * program (harness/pulumi.ts serves its language runtime); for any other runtime it only starts
 * the CLI, and the language host the CLI starts runs the program.
 */
function launcherRunsProgram(stack: ProgramStack): boolean {
  const project = parseYaml(readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8")) as {
    runtime?: string | { name?: string };
  };
  const runtime = typeof project.runtime === "string" ? project.runtime : project.runtime?.name;
  return runtime === "nodejs";
}

/** Resident memory (MB) of each kind of process in a process group. */
function groupRss(pgid: number, launcherIsProgram: boolean): ProcessPeaks {
  const peaks = { ...NO_PEAKS };
  let out = "";
  try {
    out = execFileSync("ps", ["-o", "rss=,args=", "-g", String(pgid)], { encoding: "utf8" });
  } catch {
    return peaks;
  }
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const mb = Number(m[1]) / 1024;
    const args = m[2] ?? "";
    if (/^ps\b/.test(args)) continue;
    if (PROVIDER_PROCESS.test(args)) {
      peaks.host += mb;
      peaks.hostProcesses += 1;
    } else if (/(^|\/)pulumi(\s|$)/.test(args)) peaks.cli += mb;
    else if (!launcherIsProgram && LAUNCHER.test(args)) peaks.harness += mb;
    else peaks.program += mb;
    peaks.all += mb;
  }
  return peaks;
}

function maxPeaks(a: ProcessPeaks, b: ProcessPeaks): ProcessPeaks {
  return {
    cli: Math.max(a.cli, b.cli),
    host: Math.max(a.host, b.host),
    hostProcesses: Math.max(a.hostProcesses, b.hostProcesses),
    program: Math.max(a.program, b.program),
    harness: Math.max(a.harness, b.harness),
    all: Math.max(a.all, b.all),
  };
}

/**
 * The bench program's stack on `emu`, its pods named `<prefix>-<i>`, each reported to `doneFile`;
 * with `apiKey`, a key the emulator knows other than its default.
 */
export async function benchStack(
  emu: RunningEmulator,
  o: CliRunOptions & { prefix?: string; doneFile: string; apiKey?: string },
): Promise<ProgramStack> {
  const stack = await ProgramStack.create({
    programDir: join(__dirname, "..", "..", "bench", "program"),
    // Stacks of one project on one key need names of their own: a pod's create key is made from
    // them, and a host takes a pod with its resource's key as its own (pod/start.ts).
    stack: o.prefix === undefined ? "bench" : `bench-${o.prefix}`,
    env: {
      RUNPOD_API_KEY: "",
      RUNPOD_DYNAMIC_TIME_SCALE: String(o.scale),
      RUNPOD_DYNAMIC_QUIET: "1",
      RUNPOD_BENCH_DONE_FILE: o.doneFile,
      ...(o.parallel === undefined ? {} : { PULUMI_PARALLEL: String(o.parallel) }),
    },
  });
  const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
  await stack.setConfig(
    {
      ...urls,
      "runpod-bench-fleet:count": String(o.count),
      ...(o.prefix === undefined ? {} : { "runpod-bench-fleet:prefix": o.prefix }),
      ...(o.settle === undefined ? {} : { "runpod-bench-fleet:settle": String(o.settle) }),
      ...(o.shape === undefined ? {} : { "runpod-bench-fleet:shape": o.shape }),
    },
    { "runpod:apiKey": o.apiKey ?? String(apiKey) },
  );
  return stack;
}

/** Runs `pulumi <phase>` on every stack at once; the emulator's requests are counted for all of them. */
export async function runPhase(
  emu: RunningEmulator,
  stacks: readonly ProgramStack[],
  command: Phase,
): Promise<{ phase: CliPhase; startedAt: number; perStack: readonly ProcessPeaks[] }> {
  emu.control.clearRequests();
  const t0 = performance.now();
  const startedAt = emu.control.now();
  const args = command === "preview" ? ["preview"] : [command, "--yes", "--skip-preview"];
  const launcherIsProgram = stacks.map(launcherRunsProgram);
  const running = stacks.map((s) => s.start(args));
  const perStack: ProcessPeaks[] = stacks.map(() => ({ ...NO_PEAKS }));
  const sampler = setInterval(() => {
    running.forEach((r, i) => {
      if (r.child.pid !== undefined)
        perStack[i] = maxPeaks(
          perStack[i] as ProcessPeaks,
          groupRss(r.child.pid, launcherIsProgram[i] ?? true),
        );
    });
  }, 250);
  const results = await Promise.all(running.map((r) => r.done));
  clearInterval(sampler);
  const { summary } = emu.control.requests();
  const failed = results.find((r) => r.code !== 0);
  if (failed)
    process.stderr.write(`pulumi ${command} exited ${failed.code}:\n${failed.stdout}\n${failed.stderr}\n`);
  return {
    startedAt,
    perStack,
    phase: {
      command,
      exitCode: Math.max(...results.map((r) => r.code)),
      wallSeconds: (performance.now() - t0) / 1000,
      emulatorSeconds: (emu.control.now() - startedAt) / 1000,
      requests: summary.total,
      byRoute: summary.byRoute,
      status429: summary.byStatus["429"] ?? 0,
      peaks: perStack.reduce(maxPeaks),
      pacingNote: results.some((r) => PACING_NOTE.test(r.stdout + r.stderr)),
    },
  };
}

/**
 * The fleet figures of an `up` started at emulator time `startedAt`: its creates from the request
 * log, each pod's RUNNING time from the emulator, and when the program learned it from `doneFiles`
 * (wall-clock milliseconds, turned into emulator time on the emulator's clock). A program that
 * writes no done file (a YAML program) has no `allRunning` and no lags: NaN.
 */
export function fleetTimes(
  emu: RunningEmulator,
  startedAt: number,
  doneFiles: readonly string[],
  bound: number,
): FleetTimes {
  const creates = emu.control
    .requests()
    .entries.filter((e) => e.route === "POST /v2/pods" && e.status === 201)
    .map((e) => e.at);
  const toEmulator = (wallMs: number) => emu.control.now() - (Date.now() - wallMs) * emu.state.clock.rate;
  const runningAt = new Map(emu.control.snapshot().pods.map((p) => [p.name, p.runningAt]));
  const known = doneFiles.flatMap((file) =>
    existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l.includes(" "))
          .map((l) => {
            const [name, at] = l.split(" ");
            return { name: name as string, at: toEmulator(Number(at)) };
          })
      : [],
  );
  const lags = known.map((k) => (k.at - (runningAt.get(k.name) ?? k.at)) / 1000).sort((a, b) => a - b);
  const s = (t: number) => (t - startedAt) / 1000;
  return {
    firstCreate: s(Math.min(...creates)),
    lastCreate: s(Math.max(...creates)),
    allRunning: known.length > 0 ? s(Math.max(...known.map((k) => k.at))) : Number.NaN,
    bound,
    lagMedian: quantile(lags, 0.5),
    lagP90: quantile(lags, 0.9),
    lagMax: lags.at(-1) ?? Number.NaN,
    known: known.length,
  };
}

/** Bytes of the state file of `stack` in its file backend. */
export function stateBytes(stack: ProgramStack): number {
  const walk = (dir: string): number => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = walk(path);
        if (found > 0) return found;
      } else if (entry.name.startsWith(`${stack.name}.json`) && path.includes(join(".pulumi", "stacks"))) {
        return statSync(path).size;
      }
    }
    return 0;
  };
  return walk(join(stack.workDir, "backend"));
}

/** The bench program (bench/program) on the dynamic provider. */
export const DYNAMIC_FLAVOUR: Flavour = { name: "dynamic", stack: benchStack };

export async function runProgramWithCli(
  o: CliRunOptions,
  flavour: Flavour = DYNAMIC_FLAVOUR,
): Promise<CliProgramResult> {
  const cli = requirePulumiCli();
  const emu = await freshEmulator({ scale: o.scale, tSeconds: o.tSeconds });
  const doneDir = mkdtempSync(join(tmpdir(), "bench-done-"));
  const doneFile = join(doneDir, "done");
  const stack = await flavour.stack(emu, { ...o, doneFile });
  try {
    const phases: CliPhase[] = [];
    let fleet: FleetTimes | undefined;
    let bytes = 0;
    let state: StatePerPod | undefined;
    for (const command of o.phases) {
      const { phase, startedAt } = await runPhase(emu, [stack], command);
      phases.push(phase);
      if (command === "up") {
        const settle = o.settle ?? DEFAULT_SETTLE_SECONDS;
        fleet = fleetTimes(emu, startedAt, [doneFile], quotaBound(o.count, 60, o.tSeconds) + settle);
        bytes = stateBytes(stack);
        state = await statePerPod(stack);
      }
    }
    return {
      pulumiVersion: cli.version,
      flavour: flavour.name,
      resources: o.count,
      shape: o.shape ?? "pinned",
      parallel: o.parallel ?? "default",
      tSeconds: o.tSeconds,
      scale: o.scale,
      phases,
      fleet,
      stateBytes: bytes,
      state,
    };
  } finally {
    stack.dispose();
    rmSync(doneDir, { recursive: true, force: true });
    await emu.close();
  }
}
