/**
 * Scenario 1b: a neighbour on the key. While a fleet of pods is created in one process (as in
 * scenario 1: its kind never seen on the account, or run there already), another client on the same API key that
 * knows nothing of ours reads `GET /v2/pods` every 10 s, as a notebook or runpodctl in a loop
 * would. What it meets (its 429s, minute by minute) and what leaving it room costs the fleet (its
 * time against the quota's bound) are the figures. The neighbour lives here only; it is not product
 * code.
 */
import { quotaBound } from "./cli-program.js";
import { f } from "./columns.js";
import {
  createFleet,
  emulatorClockOf,
  fleetResult,
  freshEmulator,
  podOfTheKindOnTheAccount,
} from "./fleet.js";

/** The neighbour's interval between reads, emulator ms. */
export const NEIGHBOUR_EVERY_MS = 10_000;

export interface NeighbourResult {
  readonly n: number;
  /** Whether a pod of the fleet's kind was on the account already (scenario 1's "ours-seen"). */
  readonly kindOnAccount?: boolean;
  readonly tSeconds: number;
  readonly scale: number;
  /** Emulator seconds from the first create until the last pod was known RUNNING. */
  readonly allRunningSeconds: number;
  /** What the quota allows: the start of the window of the last create, plus T. */
  readonly bound: number;
  /** The fleet's requests and 429s (the neighbour's not counted). */
  readonly fleetRequests: number;
  readonly fleet429: number;
  readonly lagMedian: number;
  readonly lagP90: number;
  /** The neighbour's reads and, for each minute from the fleet's start, how many were answered 429. */
  readonly neighbourReads: number;
  readonly neighbour429ByMinute: readonly number[];
  readonly failures: number;
}

export async function runNeighbour(o: {
  n: number;
  tSeconds: number;
  scale: number;
  kindOnAccount: boolean;
}): Promise<NeighbourResult> {
  const emu = await freshEmulator(o);
  const clock = emulatorClockOf(emu);
  try {
    if (o.kindOnAccount) await podOfTheKindOnTheAccount(emu);
    const start = clock.now();
    const answers: { at: number; status: number }[] = [];
    let done = false;
    const neighbour = (async () => {
      while (!done) {
        const res = await fetch(`${emu.baseUrl}/v2/pods`, {
          headers: { authorization: `Bearer ${emu.apiKey}` },
        });
        await res.arrayBuffer();
        answers.push({ at: clock.now(), status: res.status });
        await clock.sleep(NEIGHBOUR_EVERY_MS);
      }
    })();
    const fleetRun = await createFleet(emu, o.n);
    done = true;
    await neighbour;
    const fleet = fleetResult("ours", { ...o }, emu, start, fleetRun.done, fleetRun.failures);
    const minutes = Math.ceil((Math.max(...answers.map((a) => a.at)) - start) / 60_000);
    const byMinute = Array.from(
      { length: minutes },
      (_, m) => answers.filter((a) => a.status === 429 && Math.floor((a.at - start) / 60_000) === m).length,
    );
    const neighbour429 = byMinute.reduce((a, b) => a + b, 0);
    return {
      n: o.n,
      kindOnAccount: o.kindOnAccount,
      tSeconds: o.tSeconds,
      scale: o.scale,
      allRunningSeconds: fleet.allRunningSeconds,
      bound: quotaBound(o.n, 60, o.tSeconds),
      fleetRequests: fleet.requests - answers.length,
      fleet429: fleet.status429 - neighbour429,
      lagMedian: fleet.lagMedian,
      lagP90: fleet.lagP90,
      neighbourReads: answers.length,
      neighbour429ByMinute: byMinute,
      failures: fleet.failures,
    };
  } finally {
    await emu.close();
  }
}

/** The scenario as one printed line. */
export function neighbourLine(r: NeighbourResult): string {
  return (
    `${r.n} pods${r.kindOnAccount ? ", kind on the account" : ""}: all RUNNING ${f(r.allRunningSeconds)} s (bound ${r.bound} s, x${f(r.allRunningSeconds / r.bound, 2)}), ` +
    `${r.fleetRequests} requests, ${r.fleet429} x 429, lag ${f(r.lagMedian, 2)}/${f(r.lagP90, 2)} s; ` +
    `the neighbour: ${r.neighbourReads} reads, 429s by minute ${r.neighbour429ByMinute.join(" ")}`
  );
}
