/** The rows bench/run.ts prints for scenarios 5 and 1: one `up` through the real CLI, one fleet. */
import type { CliProgramResult } from "./cli-program.js";
import { upOf } from "./cli-program.js";
import { columns, f } from "./columns.js";
import type { FleetResult } from "./fleet.js";

/** `x` over `bound`, as a signed percentage. */
export const pct = (x: number, bound: number) =>
  `${x >= bound ? "+" : ""}${f(((x - bound) / bound) * 100)} %`;

/** A row of scenario 5: one `up` through the real CLI. */
export function cliRow(r: CliProgramResult): string {
  const figures = upOf(r);
  if (!figures) return `${r.resources} pods: no up`;
  const { up, t, fromFirst } = figures;
  return columns(
    [r.resources, 4],
    [String(r.parallel), 9],
    [`${f(t.firstCreate)}/${f(t.lastCreate)}`, 18],
    [f(t.allRunning), 8],
    [f(fromFirst), 9],
    [t.bound, 6],
    [pct(fromFirst, t.bound), 8],
    [up.requests, 5],
    [up.status429, 5],
    [`${f(t.lagMedian, 2)}/${f(t.lagP90, 2)}`, 12],
    [`${f(up.peaks.cli, 0)}/${f(up.peaks.host, 0)}/${f(up.peaks.program, 0)}`, 25],
    [up.pacingNote ? "yes" : "no", 4],
  );
}

/** A fleet's reads of pod status: list reads and reads of one pod. */
export function statusReads(r: Pick<FleetResult, "byRoute">): number {
  return (r.byRoute["GET /v2/pods"] ?? 0) + (r.byRoute["GET /v2/pods/:id"] ?? 0);
}

/** A row of scenario 1: one fleet of pods through the provider in process. */
export function fleetRow(r: FleetResult): string {
  const reads = statusReads(r);
  return [
    r.strategy.padEnd(9),
    String(r.n).padStart(4),
    f(r.allRunningSeconds).padStart(8),
    f(r.ratioToT, 2).padStart(6),
    String(r.requests).padStart(6),
    String(r.byRoute["POST /v2/pods"] ?? 0).padStart(6),
    String(reads).padStart(6),
    String(r.status429).padStart(5),
    `${f(r.lagMedian, 2)}/${f(r.lagP90, 2)}/${f(r.lagMax, 2)}`.padStart(18),
    String(r.failures).padStart(5),
  ].join(" ");
}
