/**
 * One rate-limit budget per quota (an API origin and key) for a process or a provider host: the
 * budget itself is rate-limit.ts.
 */
import { createHash } from "node:crypto";
import type { Clock } from "./clock.js";
import { DEFAULT_SHARE_FOR_OTHERS, RateLimitBudget } from "./rate-limit.js";

/**
 * One budget per quota: an API origin and key. The provider host keeps one (its context,
 * provider/host/context.ts); other clients of a process share the process's.
 * @example
 * const budgets = new RateLimitBudgets(realClock);
 * const a = new RunpodClient(settings, { budgets });
 * const b = new RunpodClient(settings, { budgets }); // a and b space their requests together
 */
export class RateLimitBudgets {
  private readonly byQuota = new Map<string, RateLimitBudget>();

  /** @param shareForOthers what each budget leaves to the key's other callers (`RateLimitBudget`). */
  constructor(
    private readonly clock: Clock,
    private readonly shareForOthers = DEFAULT_SHARE_FOR_OTHERS,
  ) {}

  /** The budget of requests to `origin` with `apiKey`. */
  for(origin: string, apiKey: string): RateLimitBudget {
    const id = `${origin} ${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
    let budget = this.byQuota.get(id);
    if (!budget) {
      budget = new RateLimitBudget(this.clock, this.shareForOthers);
      this.byQuota.set(id, budget);
    }
    return budget;
  }
}
