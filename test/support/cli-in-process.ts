/**
 * The CLI's commands run inside the test's process: the compiled program (dist/cli/program.js, the
 * code the binary runs) on a Terminal whose streams, environment, standard input and interrupts
 * are the test's, against a real emulator over HTTP. A run prints what the binary prints and
 * returns the exit code the binary exits with, without a Node start-up per command. What only a
 * process shows (its exit status, a terminal, signals) is test/cli/process.test.ts's, through the
 * binary itself (cli.ts).
 */
import { Writable } from "node:stream";
import { CLI, type CliResult, pathOf, type RequestRecorder, recordRequests } from "./cli.js";
import { loadDist } from "./dist.js";
import { type Api, apiFor, emulatorLib, type RunningEmulator, startedForAllTests } from "./emulator.js";

const { runProgram } = loadDist<typeof import("../../cli/program.js")>("cli/program.js");
const { Terminal } = loadDist<typeof import("../../cli/output.js")>("cli/output.js");

/** A command still running (a followed log): its output so far, and events to wait on. */
export interface RunningCommand {
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream's text so far matches `pattern`; rejects if the command ends first. */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<void>;
  /** What Ctrl-C does to the binary: stops what the command registered for it. */
  interrupt(): void;
  /** Resolves when the command has ended, with its exit code and everything it printed. */
  readonly exited: Promise<CliResult>;
}

/**
 * Starts one command with the environment the spawned binary gets in cli.ts (PATH, HOME, TZ=UTC,
 * plus `env`) and `stdin` as its standard input, and returns at once.
 */
export function startCommand(
  args: readonly string[],
  env: Record<string, string> = {},
  stdin = "",
): RunningCommand {
  const text = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  let ended = false;
  const sink = (stream: "stdout" | "stderr") =>
    new Writable({
      decodeStrings: false,
      write(chunk: string | Buffer, _encoding, done) {
        text[stream] += chunk.toString();
        for (const w of waiters) w();
        done();
      },
    });
  const stops = new Set<() => void>();
  const terminal = new Terminal({
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    stdin: { isTTY: false, readAll: () => stdin },
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", TZ: "UTC", ...env },
    onInterrupt: (stop) => {
      stops.add(stop);
      return () => stops.delete(stop);
    },
  });
  const exited = runProgram([process.execPath, CLI, ...args], terminal).then((code) => {
    ended = true;
    for (const w of waiters) w();
    return { code, stdout: text.stdout, stderr: text.stderr };
  });
  return {
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    interrupt: () => {
      for (const stop of [...stops]) stop();
    },
    exited,
    waitFor: (pattern, stream = "stdout") =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pattern.test(text[stream])) {
            waiters.delete(check);
            resolve();
          } else if (ended) {
            waiters.delete(check);
            reject(new Error(`ended before ${stream} matched ${pattern}:\n${text.stdout}\n${text.stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** Runs one command to its end (as `startCommand`). */
export function runCommand(
  args: readonly string[],
  env: Record<string, string> = {},
  stdin?: string,
): Promise<CliResult> {
  return startCommand(args, env, stdin).exited;
}

/**
 * The compiled emulator in-process, a recorder in front of it that keeps the exact query strings
 * and bodies the CLI sent, and commands run against both.
 */
export interface CliHarness {
  readonly emu: RunningEmulator;
  readonly recorder: RequestRecorder;
  /** A typed client on the emulator, to set up what a command reads (it goes around the recorder). */
  readonly api: Api;
  /** Runs a command with the recorder's RUNPOD_* variables plus `env`; clears the recorded requests first. */
  run(args: readonly string[], env?: Record<string, string>, stdin?: string): Promise<CliResult>;
  /** Starts a command like `run` without waiting for it to end (a followed log). */
  start(args: readonly string[], env?: Record<string, string>): RunningCommand;
  /** Runs a command with `--json`, expects exit 0, and parses stdout. */
  json<T = unknown>(args: readonly string[], env?: Record<string, string>): Promise<T>;
  /** The requests of the last run, each as `base METHOD path`. */
  routes(): string[];
  close(): Promise<void>;
}

/**
 * A CLI harness on an emulator whose clock runs 100 times faster than real time, so that jobs end
 * while a command waits, unless `options` say otherwise.
 */
export async function startCliHarness(
  options: Parameters<typeof emulatorLib.startEmulator>[0] = {},
): Promise<CliHarness> {
  const emu = await emulatorLib.startEmulator({
    clockScale: 100,
    rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }],
    ...options,
  });
  const recorder = await recordRequests(emu.env());
  const run = (args: readonly string[], env: Record<string, string> = {}, stdin?: string) => {
    recorder.requests.length = 0;
    return runCommand(args, { ...recorder.env, ...env }, stdin);
  };
  return {
    emu,
    recorder,
    api: apiFor(emu),
    run,
    start: (args: readonly string[], env: Record<string, string> = {}) => {
      recorder.requests.length = 0;
      return startCommand(args, { ...recorder.env, ...env });
    },
    json: async <T>(args: readonly string[], env: Record<string, string> = {}) => {
      const res = await run([...args, "--json"], env);
      if (res.code !== 0) throw new Error(`exit ${res.code}: ${res.stderr}`);
      return JSON.parse(res.stdout) as T;
    },
    routes: () => recorder.requests.map((r) => `${r.base} ${r.method} ${pathOf(r.url)}`),
    close: async () => {
      await recorder.close();
      await emu.close();
    },
  };
}

/**
 * One CLI harness for all of a file's tests: started before the first test, closed after the last.
 * Each command has a Terminal of its own, so only the emulator's state carries from test to test;
 * a file whose tests must not see each other's resets or clears it in its own hooks.
 */
export function cliHarnessForAllTests(
  options: Parameters<typeof emulatorLib.startEmulator>[0] = {},
): CliHarness {
  return startedForAllTests(
    () => startCliHarness(options),
    (h) => h.close(),
  );
}
