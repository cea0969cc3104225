/**
 * Scenario 5e: the fleet as users write it, through the real Pulumi CLI. Each pod as the README's
 * quick start writes one: `gpu.id` with `placement.gpuTypeIds` fallbacks and the default readiness
 * (a 30 s settle); in one variant every pod also mounts one network volume the program creates.
 * `PULUMI_PARALLEL` is the pod count, so the API quota, not the engine, paces the fleet. The
 * figures the rest of the bench cannot show: the requests by route (catalog and volume reads next
 * to creates and status reads) and the requests per pod.
 */
import { type CliProgramResult, type FleetShape, runProgramWithCli, upOf } from "./cli-program.js";
import { columns, f } from "./columns.js";

/** Emulator seconds from create to RUNNING, and the emulator's clock rate. */
export const USERS_T = 60;
export const USERS_SCALE = 5;

/** The shapes and sizes of a full run, and of a quick one. */
const SHAPES: readonly FleetShape[] = ["fallbacks", "shared-volume"];
const SIZES = { full: [100, 200], quick: [10] } as const;

/** One `up`'s figures, routes included (`CliProgramResult.phases[0].byRoute`). */
export type UsersFleetResult = CliProgramResult;

/** Every shape at every size, one fresh emulator each; each row printed as it is measured. */
export async function runUsersFleets(
  quick: boolean,
  out: (line?: string) => void,
): Promise<UsersFleetResult[]> {
  out(
    `5e. The fleet as users write it: gpu.id with placement.gpuTypeIds fallbacks, default readiness (settle 30 s), PULUMI_PARALLEL = pods, T = ${USERS_T} s, clock x${USERS_SCALE}`,
  );
  out("pods  shape          settled from 1st  bound  xbound  reqs  per pod  429s  requests by route");
  const results: UsersFleetResult[] = [];
  for (const count of quick ? SIZES.quick : SIZES.full) {
    for (const shape of SHAPES) {
      const r = await runProgramWithCli({
        count,
        shape,
        parallel: count,
        scale: USERS_SCALE,
        tSeconds: USERS_T,
        phases: ["up"],
      });
      results.push(r);
      out(usersRow(r));
    }
  }
  return results;
}

/** Requests by route, most first: `POST /v2/pods 200, GET /v2/pods 31, ...`. */
export function routesOf(byRoute: Readonly<Record<string, number>>): string {
  return Object.entries(byRoute)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([route, n]) => `${route} ${n}`)
    .join(", ");
}

function usersRow(r: UsersFleetResult): string {
  const figures = upOf(r);
  if (!figures) return `${r.resources} pods: no up`;
  const { up, t, fromFirst } = figures;
  return columns(
    [r.resources, 4],
    [r.shape ?? "pinned", 14],
    [f(fromFirst), 16],
    [t.bound, 5],
    [f(fromFirst / t.bound, 2), 6],
    [up.requests, 5],
    [f(up.requests / r.resources, 2), 7],
    [up.status429, 4],
    [`${up.exitCode === 0 ? "" : `exit ${up.exitCode}; `}${routesOf(up.byRoute)}`, 0],
  );
}
