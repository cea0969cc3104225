/**
 * The usage ledger: what every billed resource used, as stretches of time at fixed hourly rates.
 * It is part of the store and outlives the resources: a terminated pod or a deleted volume leaves
 * the store, its stretches stay billable here. The module that changes a resource's billed state
 * writes its stretch (pods/lifecycle.ts for pods, account/network-volumes.ts for volumes, serverless/usage.ts
 * for the worker time of endpoints); the billing routes read it (billing/usage.ts).
 */

/** The billing families the ledger feeds (billing/routes.ts FAMILIES). */
export type UsageFamily = "pods" | "serverless" | "networkVolumes";

/** What a resource bills per hour in one state. */
export interface Metering {
  /** USD per hour per billing component (`gpuAmount`, `diskAmount`, `standardAmount`, ...). */
  readonly rates: Readonly<Record<string, number>>;
  /** A serverless worker's id: each worker's hours are rows of their own (billing/usage.ts). */
  readonly workerId?: string;
}

/** One stretch of usage: a resource billed at `metering` from `from` until `to` (open while it lasts). */
export interface UsageSegment extends Metering {
  readonly family: UsageFamily;
  readonly resourceId: string;
  /** The account billed (account/accounts.ts). */
  readonly account: string;
  readonly from: number;
  to: number | undefined;
}

const sameMetering = (a: Metering, b: Metering) =>
  a.workerId === b.workerId && JSON.stringify(a.rates) === JSON.stringify(b.rates);

export class UsageLedger {
  private segments: UsageSegment[] = [];
  /** The open stretch of each resource, by family and id. */
  private readonly open = new Map<string, UsageSegment>();

  /**
   * From `at` on, the resource bills `next` (nothing when undefined): its open stretch, if any,
   * ends at `at`. The same metering as the open stretch continues it; a stretch that would end
   * where it began is dropped.
   */
  meter(
    family: UsageFamily,
    resourceId: string,
    account: string,
    at: number,
    next: Metering | undefined,
  ): void {
    const key = `${family}\u0000${resourceId}`;
    const current = this.open.get(key);
    if (current && next && current.account === account && sameMetering(current, next)) return;
    if (current) {
      this.open.delete(key);
      if (at <= current.from) this.segments = this.segments.filter((s) => s !== current);
      else current.to = at;
    }
    if (!next || !Object.values(next.rates).some((r) => r > 0)) return;
    const segment: UsageSegment = { ...next, family, resourceId, account, from: at, to: undefined };
    this.segments.push(segment);
    this.open.set(key, segment);
  }

  /** A stretch that is already over (usage worked out after the fact, such as worker time). */
  record(segment: Omit<UsageSegment, "to"> & { to: number }): void {
    if (segment.to > segment.from && Object.values(segment.rates).some((r) => r > 0)) {
      this.segments.push({ ...segment });
    }
  }

  /** Every stretch of `family` billed to `account`, oldest first. */
  of(family: UsageFamily, account: string): readonly UsageSegment[] {
    return this.segments.filter((s) => s.family === family && s.account === account);
  }

  clear(): void {
    this.segments = [];
    this.open.clear();
  }
}
