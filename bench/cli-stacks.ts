/**
 * Scenario 5b: K stacks of the bench program on one API key, `up` started together through K real
 * Pulumi CLIs (K engines, K provider hosts), as a team's GitOps runs several deployments at once.
 * The processes share nothing but the API's `RateLimit` headers. Then each stack is destroyed.
 * With `keys: "four"` each stack has a key of its own, all of one user: the contract counts the
 * windows per user (docs/api-model.md, Limits), so the headers still tell each process of the others.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProgramStack } from "../harness/stack.js";
import {
  benchStack,
  type CliPhase,
  type FleetTimes,
  fleetTimes,
  quotaBound,
  runPhase,
} from "./cli-program.js";
import { f } from "./columns.js";
import { freshEmulator } from "./fleet.js";

/** One API key for every stack, or a key of one user for each. */
export type StackKeys = "one" | "four";

export interface StacksResult {
  readonly stacks: number;
  readonly podsPerStack: number;
  /** Absent in result files written before stacks could have keys of their own: one key. */
  readonly keys?: StackKeys;
  readonly parallel: number;
  readonly tSeconds: number;
  readonly scale: number;
  readonly up: CliPhase;
  readonly fleet: FleetTimes;
  /** Pods the stacks' states hold after `up`, against stacks times pods. */
  readonly created: number;
  readonly destroy: CliPhase;
}

/** The key of stack `k` when each stack has its own: a key of the emulator's default user. */
const stackKey = (k: number) => `rpa_BENCH_STACK_${k}_KEY_${"0".repeat(20)}`;

export async function runStacksWithCli(o: {
  stacks: number;
  podsPerStack: number;
  scale: number;
  tSeconds: number;
  keys?: StackKeys;
}): Promise<StacksResult> {
  const keys = o.keys ?? "one";
  const emu = await freshEmulator({ scale: o.scale, tSeconds: o.tSeconds });
  const dir = mkdtempSync(join(tmpdir(), "bench-stacks-"));
  const doneFiles = Array.from({ length: o.stacks }, (_, k) => join(dir, `done-${k}`));
  const stacks: ProgramStack[] = [];
  try {
    for (let k = 0; k < o.stacks; k++) {
      if (keys === "four") emu.control.addApiKey(stackKey(k));
      stacks.push(
        await benchStack(emu, {
          count: o.podsPerStack,
          scale: o.scale,
          tSeconds: o.tSeconds,
          parallel: o.podsPerStack,
          settle: 0,
          phases: [],
          prefix: `s${k}`,
          doneFile: doneFiles[k] as string,
          ...(keys === "four" ? { apiKey: stackKey(k) } : {}),
        }),
      );
    }
    const up = await runPhase(emu, stacks, "up");
    const fleet = fleetTimes(
      emu,
      up.startedAt,
      doneFiles,
      quotaBound(o.stacks * o.podsPerStack, 60, o.tSeconds),
    );
    const created = emu.control.snapshot().pods.filter((p) => /^s\d+-\d+$/.test(p.name)).length;
    const destroy = await runPhase(emu, stacks, "destroy");
    return {
      stacks: o.stacks,
      podsPerStack: o.podsPerStack,
      keys,
      parallel: o.podsPerStack,
      tSeconds: o.tSeconds,
      scale: o.scale,
      up: up.phase,
      fleet,
      created,
      destroy: destroy.phase,
    };
  } finally {
    for (const s of stacks) s.dispose();
    rmSync(dir, { recursive: true, force: true });
    await emu.close();
  }
}

/** One line of figures for a run of scenario 5b. */
export function stacksLine(r: StacksResult): string {
  const fromFirst = r.fleet.allRunning - r.fleet.firstCreate;
  const over = ((fromFirst - r.fleet.bound) / r.fleet.bound) * 100;
  return (
    `up exit ${r.up.exitCode}: ${r.created} of ${r.stacks * r.podsPerStack} pods; all RUNNING ${f(fromFirst)} s ` +
    `after the first create (bound ${r.fleet.bound} s, ${over >= 0 ? "+" : ""}${f(over)} %), ${r.up.requests} requests, ` +
    `${r.up.status429} 429s, lag median ${f(r.fleet.lagMedian, 2)} s / p90 ${f(r.fleet.lagP90, 2)} s; destroy exit ` +
    `${r.destroy.exitCode}, ${r.destroy.requests} requests, ${r.destroy.status429} 429s`
  );
}
