/**
 * Whether the engine, not the quota, paces a fleet of pods. `pulumi up` runs a fixed number of
 * operations at once (`--parallel`, by default 4 per CPU core), and a pod's create holds its slot
 * until the pod is ready; so a program of many pods goes in waves of one start-up time each while
 * the quota would take them all. The host cannot read the engine's limit, but it sees its effect:
 * the engine checks every new pod as the program registers it, yet asks to create the checked
 * ones only as earlier creates end, while the quota has room. Seen twice, it says so once.
 */
import type { WarningSink } from "./engine-log.js";

/**
 * Hand-overs before the host speaks: a create ends while checked pods are still not asked for, and
 * the next one starts.
 */
const HANDOVERS = 2;

/** Part of every quota window that must be left for "the quota has room for more". */
const ROOM_FRACTION = 0.25;

/** The quota creates draw on (`RateLimitBudget`). */
export interface Quota {
  /** Whether every window has at least `fraction` of its quota left. */
  hasSpare(fraction: number): boolean;
}

export class EnginePacing {
  /** New pods the engine has checked (a check without old inputs comes before each create). */
  private checked = 0;
  private started = 0;
  private inFlight = 0;
  private peak = 0;
  /** A create ended while checked pods waited for the engine and the quota had room. */
  private endedWithPodsWaiting = false;
  private handovers = 0;
  private said = false;

  /** @param warn where the one warning goes (engine-log.ts) */
  constructor(private readonly warn: WarningSink) {}

  /** The engine checked a pod it has no old inputs for: it will ask to create it. */
  checkedNew(): void {
    this.checked += 1;
  }

  /** Runs a create, counted from its first request to its end, however it ends; it draws on `quota`. */
  async create<T>(run: () => Promise<T>, quota: Quota): Promise<T> {
    this.begin();
    try {
      return await run();
    } finally {
      this.inFlight -= 1;
      if (this.checked > this.started && quota.hasSpare(ROOM_FRACTION)) this.endedWithPodsWaiting = true;
    }
  }

  private begin(): void {
    this.started += 1;
    this.inFlight += 1;
    this.peak = Math.max(this.peak, this.inFlight);
    if (this.endedWithPodsWaiting) this.handovers += 1;
    this.endedWithPodsWaiting = false;
    if (this.said || this.handovers < HANDOVERS) return;
    this.said = true;
    this.warn(
      "the engine, not the API quota, is pacing these pods: it asked to create each pod it had " +
        "checked only when an earlier create ended, while the quota had room for more. It looks like " +
        `it runs at most ${this.peak} operation${this.peak === 1 ? "" : "s"} at once (Pulumi's --parallel, by default 4 per CPU ` +
        `core), and a pod's create holds one until the pod is ready, so pods start ${this.peak} at a ` +
        "time. For a fleet, run `pulumi up --parallel <number of pods>` or set PULUMI_PARALLEL: the " +
        "provider keeps its requests within the quota at any parallelism.",
    );
  }
}
