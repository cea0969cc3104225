/**
 * Scenario 5b: K stacks of the bench program on one API key, `up` started together through K real
 * Pulumi CLIs (K engines, K provider hosts), as a team's GitOps runs several deployments at once.
 * The processes share nothing but the API's `RateLimit` headers. Then each stack is destroyed.
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
import { freshEmulator } from "./fleet.js";

export interface StacksResult {
  readonly stacks: number;
  readonly podsPerStack: number;
  readonly parallel: number;
  readonly tSeconds: number;
  readonly scale: number;
  readonly up: CliPhase;
  readonly fleet: FleetTimes;
  /** Pods the stacks' states hold after `up`, against stacks times pods. */
  readonly created: number;
  readonly destroy: CliPhase;
}

export async function runStacksWithCli(o: {
  stacks: number;
  podsPerStack: number;
  scale: number;
  tSeconds: number;
}): Promise<StacksResult> {
  const emu = await freshEmulator({ scale: o.scale, tSeconds: o.tSeconds });
  const dir = mkdtempSync(join(tmpdir(), "bench-stacks-"));
  const doneFiles = Array.from({ length: o.stacks }, (_, k) => join(dir, `done-${k}`));
  const stacks: ProgramStack[] = [];
  try {
    for (let k = 0; k < o.stacks; k++) {
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
