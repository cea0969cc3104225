/**
 * Setup shared by the CLI tests: the compiled emulator in-process, a recorder in front of it that
 * keeps the exact query strings and bodies the CLI sent, and the built binary run against both.
 */
import { type CliResult, type RequestRecorder, recordRequests, runCli } from "../support/cli.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";

export interface CliHarness {
  readonly emu: RunningEmulator;
  readonly recorder: RequestRecorder;
  /** Runs the CLI with the recorder's RUNPOD_* variables plus `env`; clears the recorded requests first. */
  run(args: readonly string[], env?: Record<string, string>, stdin?: string): Promise<CliResult>;
  /** Runs the CLI with `--json`, expects exit 0, and parses stdout. */
  json<T = unknown>(args: readonly string[], env?: Record<string, string>): Promise<T>;
  close(): Promise<void>;
}

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
    return runCli(args, { ...recorder.env, ...env }, stdin);
  };
  return {
    emu,
    recorder,
    run,
    json: async <T>(args: readonly string[], env: Record<string, string> = {}) => {
      const res = await run([...args, "--json"], env);
      if (res.code !== 0) throw new Error(`exit ${res.code}: ${res.stderr}`);
      return JSON.parse(res.stdout) as T;
    },
    close: async () => {
      await recorder.close();
      await emu.close();
    },
  };
}

/** The error line(s) of a failed run, without commander's usage hint. */
export function errorText(res: CliResult): string {
  return res.stderr.replace(/\(add --help for usage\)\n$/, "").trim();
}
