/** The tables of bench/README.md for the scenarios that run programs through the real CLI (5 to 5e). */
import { type CliProgramResult, upOf } from "./cli-program.js";
import type { StacksResult } from "./cli-stacks.js";
import { f } from "./columns.js";
import type { FlavourRow } from "./flavours.js";
import { lag, overBound, peaks, table } from "./markdown.js";
import { stacksRunLabels } from "./result-files.js";
import { routesOf, type UsersFleetResult } from "./users-fleet.js";

export function parallelismTable(runs: readonly CliProgramResult[]): string {
  return table(
    [
      "Pods",
      "Parallelism",
      "Creates sent (s)",
      "All RUNNING (s)",
      "From 1st (s)",
      "Bound (s)",
      "Over bound",
      "Requests",
      "429s",
      "Lag median / p90 (s)",
      "Peak MB CLI / host / program",
      "Pacing warning",
    ],
    "rlrrrrrrrrll",
    runs.flatMap((r) => {
      const figures = upOf(r);
      if (!figures) return [];
      const { up, t, fromFirst } = figures;
      return [
        [
          r.resources,
          r.parallel === "default" ? "default" : String(r.parallel),
          `${f(t.firstCreate)}-${f(t.lastCreate)}`,
          f(t.allRunning),
          f(fromFirst),
          t.bound,
          overBound(fromFirst, t.bound),
          up.requests,
          up.status429,
          lag(t.lagMedian, t.lagP90),
          peaks(up.peaks),
          up.pacingNote ? "yes" : "no",
        ],
      ];
    }),
  );
}

export function stacksTable(runs: readonly StacksResult[]): string {
  const labels = stacksRunLabels(runs);
  return table(
    [
      "Stacks x pods",
      "Keys (one user)",
      "Pods created",
      "All RUNNING from 1st (s)",
      "Bound (s)",
      "Over bound",
      "Up requests",
      "Up 429s",
      "Lag median / p90 (s)",
      "Destroy requests",
      "Destroy 429s",
    ],
    "llrrrrrrrrr",
    runs.map((s, i) => {
      const fromFirst = s.fleet.allRunning - s.fleet.firstCreate;
      return [
        `${s.stacks} x ${s.podsPerStack}`,
        labels[i] ?? "",
        s.created,
        f(fromFirst),
        s.fleet.bound,
        overBound(fromFirst, s.fleet.bound),
        s.up.requests,
        s.up.status429,
        lag(s.fleet.lagMedian, s.fleet.lagP90),
        s.destroy.requests,
        s.destroy.status429,
      ];
    }),
  );
}

export function scaleTable(runs: readonly CliProgramResult[]): string {
  return table(
    [
      "Pods",
      "Command",
      "Exit",
      "Wall (s)",
      "Emulator (s)",
      "Requests",
      "429s",
      "Peak MB CLI / host / program",
      "State",
    ],
    "rlrrrrrlr",
    runs.flatMap((r) =>
      r.phases.map((p) => [
        r.resources,
        p.command,
        p.exitCode,
        f(p.wallSeconds),
        f(p.emulatorSeconds, 0),
        p.requests,
        p.status429,
        peaks(p.peaks),
        p.command === "up" ? `${f(r.stateBytes / 1024, 0)} KB` : "",
      ]),
    ),
  );
}

export function flavoursTable(rows: readonly FlavourRow[]): string {
  const bytes = (x: number | undefined) => (x === undefined ? "-" : `${f(x, 0)} B`);
  return table(
    [
      "Flavour",
      "Pods",
      "Exit",
      "Wall (s)",
      "Requests",
      "429s",
      "Peak MB CLI / provider / program",
      "Pod in state",
      "Its inputs and outputs",
      "Serialized provider",
    ],
    "lrrrrrlrrr",
    rows.map((r) => [
      r.flavour,
      r.pods,
      r.exitCode,
      f(r.wallSeconds),
      r.requests,
      r.status429,
      peaks(r.peaks),
      bytes(r.state?.podEntryBytes),
      bytes(r.state?.propertyBytesPerPod),
      bytes(r.state?.providerBytesPerPod),
    ]),
  );
}

/** Scenario 5e: each shape and size, its requests by route. */
export function usersTable(runs: readonly UsersFleetResult[]): string {
  return table(
    [
      "Pods",
      "Pods written",
      "Settled from 1st (s)",
      "Bound (s)",
      "x bound",
      "Requests",
      "Per pod",
      "429s",
      "Requests by route",
    ],
    "rlrrrrrrl",
    runs.flatMap((r) => {
      const figures = upOf(r);
      if (!figures) return [];
      const { up, t, fromFirst } = figures;
      return [
        [
          r.resources,
          r.shape === "shared-volume" ? "fallbacks, one shared volume" : "GPU fallbacks",
          f(fromFirst),
          t.bound,
          f(fromFirst / t.bound, 2),
          up.requests,
          f(up.requests / r.resources, 2),
          up.status429,
          routesOf(up.byRoute).replaceAll("|", "\\|"),
        ],
      ];
    }),
  );
}
