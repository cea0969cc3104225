/**
 * Scenario 4: preview and up of a 200-resource program through the stand-in engine
 * (harness/engine.ts): the program runs under Pulumi's own runtime, every resource goes through
 * the real provider host. Wall time and peak memory of the program and host processes.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { deploy, StackState } from "../harness/engine.js";
import { freshEmulator } from "./fleet.js";

/** Resident memory of this process's children (the program and the provider host), in MB. */
function childrenRssMb(): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "--ppid", String(process.pid)], { encoding: "utf8" });
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

export interface ProgramResult {
  readonly resources: number;
  readonly previewSeconds: number;
  readonly previewPeakMb: number;
  readonly upSeconds: number;
  readonly upPeakMb: number;
  readonly upEmulatorSeconds: number;
  readonly upRequests: number;
  readonly up429: number;
  readonly created: number;
}

export async function runProgram(count: number, scale: number, tSeconds: number): Promise<ProgramResult> {
  const emu = await freshEmulator({ scale, tSeconds });
  const state = new StackState();
  const options = {
    programDir: join(__dirname, "..", "..", "bench", "program"),
    project: "runpod-bench-fleet",
    stack: "bench",
    config: {
      ...emu.pulumiConfig(),
      "runpod-bench-fleet:count": String(count),
    },
    secretKeys: ["runpod:apiKey"],
    state,
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(scale), RUNPOD_DYNAMIC_QUIET: "1" },
  };
  const measure = async (dryRun: boolean) => {
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, childrenRssMb());
    }, 100);
    const t0 = performance.now();
    const e0 = emu.control.now();
    const res = await deploy({ ...options, dryRun });
    clearInterval(sampler);
    return {
      res,
      seconds: (performance.now() - t0) / 1000,
      emuSeconds: (emu.control.now() - e0) / 1000,
      peak,
    };
  };
  try {
    const preview = await measure(true);
    emu.control.clearRequests();
    const up = await measure(false);
    const { summary } = emu.control.requests();
    return {
      resources: count,
      previewSeconds: preview.seconds,
      previewPeakMb: preview.peak,
      upSeconds: up.seconds,
      upPeakMb: up.peak,
      upEmulatorSeconds: up.emuSeconds,
      upRequests: summary.total,
      up429: summary.byStatus["429"] ?? 0,
      created: up.res.ops.filter((o) => o.op === "create").length,
    };
  } finally {
    await emu.close();
  }
}
