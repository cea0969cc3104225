/**
 * Fault rules for tests and benchmarks, matched by method and path: answer with a status (and
 * Retry-After), add latency, or drop the connection before or after the request took effect.
 * Each rule applies either with a probability (seeded, so runs repeat) or to the next N matches.
 */
import { z } from "zod";

const FaultRuleSchema = z.strictObject({
  /** HTTP method, or `*`. @default "*" */
  method: z.string().default("*"),
  /** Regular expression tested against the request path (no query). */
  path: z.string().min(1),
  /** Answer with this status instead of handling the request. */
  status: z.int().min(400).max(599).optional(),
  /** Retry-After seconds to send with `status`. */
  retryAfter: z.int().min(0).optional(),
  /** Real milliseconds to wait before answering. */
  latencyMs: z.int().min(0).optional(),
  /** Drop the connection: `before` the request is handled, or `after` it took effect. */
  reset: z.enum(["before", "after"]).optional(),
  /** Chance per matching request, 0..1. @default 1 */
  probability: z.number().min(0).max(1).default(1),
  /** Apply to the next N matching requests only. */
  times: z.int().min(1).optional(),
});
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;
type FaultRule = z.infer<typeof FaultRuleSchema> & {
  id: number;
  regex: RegExp;
  remaining: number | undefined;
};

interface FaultDecision {
  readonly rule: number;
  readonly status?: number | undefined;
  readonly retryAfter?: number | undefined;
  readonly latencyMs?: number | undefined;
  readonly reset?: "before" | "after" | undefined;
}

export class FaultRules {
  private rules: FaultRule[] = [];
  private nextId = 1;
  /** Faults applied so far, by kind, for reports. */
  readonly applied = new Map<string, number>();

  add(input: FaultRuleInput): number {
    const r = FaultRuleSchema.parse(input);
    const rule: FaultRule = { ...r, id: this.nextId++, regex: new RegExp(r.path), remaining: r.times };
    this.rules.push(rule);
    return rule.id;
  }

  /** Removes every rule; the counts of faults applied so far are kept (reports add them up). */
  clear(): void {
    this.rules = [];
  }

  /** Removes every rule and forgets the counts: back to a fresh emulator's. */
  reset(): void {
    this.clear();
    this.applied.clear();
  }

  list(): readonly object[] {
    return this.rules.map(({ regex: _regex, ...r }) => r);
  }

  /** The first rule that fires for this request, if any. */
  match(method: string, path: string, random: () => number): FaultDecision | undefined {
    for (const rule of this.rules) {
      if (rule.method !== "*" && rule.method.toUpperCase() !== method) continue;
      if (!rule.regex.test(path)) continue;
      if (rule.remaining !== undefined && rule.remaining <= 0) continue;
      if (rule.probability < 1 && random() >= rule.probability) continue;
      if (rule.remaining !== undefined) rule.remaining -= 1;
      const kind = rule.reset ? `reset-${rule.reset}` : rule.status ? `status-${rule.status}` : "latency";
      this.applied.set(kind, (this.applied.get(kind) ?? 0) + 1);
      return {
        rule: rule.id,
        status: rule.status,
        retryAfter: rule.retryAfter,
        latencyMs: rule.latencyMs,
        reset: rule.reset,
      };
    }
    return undefined;
  }
}
