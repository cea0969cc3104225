/** Runs the compiled provider implementation in-process against an emulator, on the emulator's clock. */
import type { Clock } from "../../provider/client/clock.js";
import { clientLib, loadDist } from "./dist.js";
import type { RunningEmulator } from "./emulator.js";

export const runtimeLib = loadDist<typeof import("../../provider/runtime.js")>("provider/runtime.js");
export const providerLib = loadDist<typeof import("../../provider/index.js")>("provider/index.js");

/** A client clock reading the emulator's own clock, sleeping real time scaled by its rate. */
export function emulatorClock(emu: RunningEmulator): Clock {
  return {
    now: () => emu.control.now(),
    sleep: (ms, signal) => clientLib.realClock.sleep(ms / Math.max(emu.state.clock.rate, 1e-9), signal),
  };
}

/** Points the in-process provider runtime at `emu`; returns the progress lines it prints. */
export function useEmulator(
  emu: RunningEmulator,
  watcher: { minIntervalMs?: number; maxIntervalMs?: number } = {},
) {
  const env: Record<string, string> = emu.pulumiConfig();
  const lines: string[] = [];
  runtimeLib.setProgressSink((line) => lines.push(line));
  runtimeLib.setRuntimeOverrides({
    lookup: (k) => env[k],
    clock: emulatorClock(emu),
    clientOptions: { retry: { minTimeoutMs: 1, maxTimeoutMs: 5, randomize: false } },
    watcher,
  });
  return { progress: lines };
}
