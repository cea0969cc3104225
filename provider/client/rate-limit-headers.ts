/**
 * RateLimit / RateLimit-Policy (docs/api-model.md, Limits): RFC 8941 structured-field lists with one member
 * per window, parsed with a structured-field library:
 *   RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400
 *   RateLimit:        "minute";r=0;t=12, "hour";r=2990;t=3400, "day";r=49990;t=86000
 */
import { parseList, Token } from "structured-headers";

export interface RateLimitWindow {
  readonly name: string;
  /** Requests left in the current window (`r`). */
  readonly remaining?: number;
  /** Seconds until the window resets (`t`). */
  readonly resetSeconds?: number;
  /** Requests allowed per window (`q`). */
  readonly quota?: number;
  /** Window length in seconds (`w`). */
  readonly windowSeconds?: number;
}

function integerParam(params: Map<string, unknown>, key: string): number | undefined {
  const v = params.get(key);
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
}

function memberName(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value instanceof Token) return value.toString();
  return undefined;
}

/**
 * Parses both headers into windows keyed by name. Malformed headers are ignored (an empty map):
 * a broken header must never fail a request that otherwise succeeded.
 */
export function parseRateLimitHeaders(
  rateLimit: string | undefined,
  policy: string | undefined,
): Map<string, RateLimitWindow> {
  const windows = new Map<string, RateLimitWindow>();
  const merge = (
    header: string | undefined,
    pick: (p: Map<string, unknown>) => Record<string, number | undefined>,
  ) => {
    if (!header) return;
    let list: ReturnType<typeof parseList>;
    try {
      list = parseList(header);
    } catch {
      return;
    }
    for (const member of list) {
      const [value, params] = member;
      const name = memberName(value);
      if (name === undefined) continue;
      const fields = pick(params as Map<string, unknown>);
      const prev = windows.get(name) ?? { name };
      windows.set(name, { ...prev, ...stripUndefined(fields) });
    }
  };
  merge(policy, (p) => ({ quota: integerParam(p, "q"), windowSeconds: integerParam(p, "w") }));
  merge(rateLimit, (p) => ({ remaining: integerParam(p, "r"), resetSeconds: integerParam(p, "t") }));
  return windows;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
