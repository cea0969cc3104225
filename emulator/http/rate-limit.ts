/**
 * Quota windows per user (docs/api-model.md, Limits): every key of a user draws on the same windows,
 * so the wiring counts a request against the user its key belongs to (platform/server.ts), never
 * against the key. Every authenticated response carries `RateLimit` and `RateLimit-Policy`; a
 * request over any window gets 429 with `Retry-After` naming the window. Windows run on the
 * emulator clock, so a scaled clock scales them too.
 */
import { serializeList } from "structured-headers";
import { HttpError } from "./errors.js";

export interface WindowPolicy {
  readonly name: string;
  readonly quota: number;
  readonly seconds: number;
}

export const DEFAULT_POLICY: readonly WindowPolicy[] = [
  { name: "minute", quota: 60, seconds: 60 },
  { name: "hour", quota: 3000, seconds: 3600 },
  { name: "day", quota: 50_000, seconds: 86_400 },
];

interface Counter {
  start: number;
  used: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Counter[]>();
  private policy: readonly WindowPolicy[] = [];
  /** The `RateLimit-Policy` header: it changes only with the policy. */
  private policyHeader = "";

  constructor(policy: readonly WindowPolicy[] = DEFAULT_POLICY) {
    this.setPolicy(policy);
  }

  /** Replaces the windows; every user starts over with fresh counters. */
  setPolicy(policy: readonly WindowPolicy[]): void {
    this.policy = policy;
    this.policyHeader = serializeList(
      policy.map((w) => [
        w.name,
        new Map<string, number>([
          ["q", w.quota],
          ["w", w.seconds],
        ]),
      ]),
    );
    this.reset();
  }

  /** Forgets every user's counters. */
  reset(): void {
    this.counters.clear();
  }

  /** Counts one request of `user` at `now`; returns the headers to send, or throws the 429. */
  take(user: string, now: number): Record<string, string> {
    let counters = this.counters.get(user);
    if (!counters) {
      counters = this.policy.map(() => ({ start: now, used: 0 }));
      this.counters.set(user, counters);
    }
    this.policy.forEach((w, i) => {
      const c = counters[i];
      if (c && now >= c.start + w.seconds * 1000) {
        c.start = now;
        c.used = 0;
      }
    });
    const exceeded = this.policy.findIndex((w, i) => (counters[i]?.used ?? 0) >= w.quota);
    if (exceeded >= 0) {
      const w = this.policy[exceeded] as WindowPolicy;
      const c = counters[exceeded] as Counter;
      const wait = Math.max(1, Math.ceil((c.start + w.seconds * 1000 - now) / 1000));
      throw new HttpError(
        429,
        `Rate limit exceeded for the ${w.name} window (${w.quota} requests per ${w.seconds} s). Retry after ${wait} s.`,
        undefined,
        { "retry-after": String(wait), ...this.headers(counters, now) },
      );
    }
    for (const c of counters) c.used += 1;
    return this.headers(counters, now);
  }

  private headers(counters: Counter[], now: number): Record<string, string> {
    const live = this.policy.map((w, i) => {
      const c = counters[i] as Counter;
      const r = Math.max(0, w.quota - c.used);
      const t = Math.max(0, Math.ceil((c.start + w.seconds * 1000 - now) / 1000));
      return [
        w.name,
        new Map<string, number>([
          ["r", r],
          ["t", t],
        ]),
      ] as [string, Map<string, number>];
    });
    return { ratelimit: serializeList(live), "ratelimit-policy": this.policyHeader };
  }
}
