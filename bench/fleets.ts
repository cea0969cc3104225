/** Scenarios 1 and 1b measured together, as a full run and `--only fleet` run them (bench/run.ts). */
import { type FleetResult, runFleet, type Strategy } from "./fleet.js";
import { type NeighbourResult, neighbourLine, runNeighbour } from "./neighbour.js";
import { fleetRow } from "./rows.js";

/**
 * Scenario 1 (a fleet in one process, every size and strategy) and 1b (the neighbour on the key,
 * beside a fleet as big as 1's biggest, its kind never seen and on the account): each row printed
 * as it is measured.
 */
export async function measureFleets(o: {
  quick: boolean;
  tSeconds: number;
  scale: number;
  out: (line?: string) => void;
}): Promise<{ fleet: FleetResult[]; neighbour: NeighbourResult[] }> {
  const { quick, out } = o;
  const sizes = quick ? [1, 10] : [1, 10, 50, 200];
  const strategies: Strategy[] = ["ours", "ours-seen", "poll-1s", "poll-5s"];
  out("1. Fleet in one process");
  out("strategy     N  all-RUN   xT    reqs  POSTs  reads  429s  lag med/p90/max s  fail");
  const fleet: FleetResult[] = [];
  for (const n of sizes) {
    for (const s of strategies) {
      const r = await runFleet(s, { n, tSeconds: o.tSeconds, scale: o.scale });
      fleet.push(r);
      out(fleetRow(r));
    }
  }
  out();
  out("1b. A neighbour on the key: another client reads GET /v2/pods every 10 s beside the fleet");
  const neighbour: NeighbourResult[] = [];
  for (const kindOnAccount of [false, true]) {
    const r = await runNeighbour({
      n: quick ? 20 : 200,
      tSeconds: o.tSeconds,
      scale: o.scale,
      kindOnAccount,
    });
    neighbour.push(r);
    out(neighbourLine(r));
  }
  return { fleet, neighbour };
}
