/**
 * Scenario 5: the many-pod program of bench/program through the real Pulumi CLI (`up`, `refresh`,
 * `destroy`), with the engine's own parallelism. Wall time, emulator time, API requests, 429s and
 * the peak memory of the command's processes (launcher and program, CLI, provider host).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { requirePulumiCli } from "../harness/pulumi-cli.js";
import { ProgramStack } from "../harness/stack.js";
import { freshEmulator } from "./fleet.js";

/** Resident memory of a process group, in MB. */
function groupRssMb(pgid: number): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(pgid)], { encoding: "utf8" });
    return (
      out
        .split("\n")
        .map((l) => Number(l.trim()))
        .filter((n) => Number.isFinite(n) && n > 0)
        .reduce((a, b) => a + b, 0) / 1024
    );
  } catch {
    return 0;
  }
}

export interface CliPhase {
  readonly command: string;
  readonly exitCode: number;
  readonly wallSeconds: number;
  readonly emulatorSeconds: number;
  readonly requests: number;
  readonly status429: number;
  readonly peakMb: number;
}

export interface CliProgramResult {
  readonly pulumiVersion: string;
  readonly resources: number;
  readonly phases: readonly CliPhase[];
}

export async function runProgramWithCli(
  count: number,
  scale: number,
  tSeconds: number,
): Promise<CliProgramResult> {
  const cli = requirePulumiCli();
  const emu = await freshEmulator({ scale, tSeconds });
  const stack = await ProgramStack.create({
    programDir: join(__dirname, "..", "..", "bench", "program"),
    stack: "bench",
    env: { RUNPOD_API_KEY: "", RUNPOD_DYNAMIC_TIME_SCALE: String(scale), RUNPOD_DYNAMIC_QUIET: "1" },
  });
  const phase = async (command: string, args: string[]): Promise<CliPhase> => {
    emu.control.clearRequests();
    const t0 = performance.now();
    const e0 = emu.control.now();
    const running = stack.start(args);
    let peak = 0;
    const sampler = setInterval(() => {
      if (running.child.pid !== undefined) peak = Math.max(peak, groupRssMb(running.child.pid));
    }, 200);
    const result = await running.done;
    clearInterval(sampler);
    const { summary } = emu.control.requests();
    return {
      command,
      exitCode: result.code,
      wallSeconds: (performance.now() - t0) / 1000,
      emulatorSeconds: (emu.control.now() - e0) / 1000,
      requests: summary.total,
      status429: summary.byStatus["429"] ?? 0,
      peakMb: peak,
    };
  };
  try {
    const { "runpod:apiKey": apiKey, ...urls } = emu.pulumiConfig();
    await stack.setConfig(
      { ...urls, "runpod-bench-fleet:count": String(count) },
      { "runpod:apiKey": String(apiKey) },
    );
    const phases = [
      await phase("up", ["up", "--yes", "--skip-preview"]),
      await phase("refresh", ["refresh", "--yes", "--skip-preview"]),
      await phase("destroy", ["destroy", "--yes", "--skip-preview"]),
    ];
    return { pulumiVersion: cli.version, resources: count, phases };
  } finally {
    stack.dispose();
    await emu.close();
  }
}
