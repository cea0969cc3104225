/** What the rate-limit budget (rate-limit.ts) hands out and is told: its snapshot, tickets, priorities, planned reads. */

export interface BudgetSnapshot {
  readonly windows: readonly {
    name: string;
    remaining: number;
    resetInMs: number;
    quota: number | undefined;
    /** Requests foreground work leaves to the status watcher now. */
    held: number;
    /** Whether other callers of the key were seen using this window (requests go a part at a time). */
    shared: boolean;
  }[];
  readonly pausedForMs: number;
  readonly inFlight: number;
}

/** Returned by `acquire`; `release` once the response (or failure) is in. */
export interface BudgetTicket {
  release(): void;
}

/**
 * How urgent a request is. `foreground` (creates, updates, deletes, a program's own reads) goes out
 * whenever the quota has room; `background` (status polls) is also spread evenly once a window runs
 * low, so polling never crowds out the work it is waiting on.
 */
export type RequestPriority = "foreground" | "background";

/**
 * A reader that plans its background reads (the status watcher, provider/host/watcher.ts): the
 * budget asks it how many it will make before a window resets, and leaves it that many.
 * @example
 * budget.setBackgroundReader({ plannedReads: (from, to) => Math.ceil((to - from) / 1000) });
 */
export interface BackgroundReader {
  /** How many reads are planned in [from, to); Infinity when the reader wants all it can get. */
  plannedReads(from: number, to: number): number;
}
