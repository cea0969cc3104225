/**
 * What every client of a process shares: one keep-alive pool for requests, one for long-lived
 * event streams, and the rate-limit budgets of clients made without their own (programs, the CLI).
 * A provider host's context brings its own budgets (provider/host/context.ts).
 */
import { Agent } from "undici";
import type { Clock } from "./clock.js";
import type { RateLimitBudget } from "./rate-limit.js";
import { RateLimitBudgets } from "./rate-limit-budgets.js";

/** Process-wide state: one keep-alive pool per origin, one budget per quota. */
interface SharedState {
  agent: Agent;
  /** Long-lived event streams, apart from the pool requests use. */
  streams: Agent;
  budgets: WeakMap<Clock, RateLimitBudgets>;
}

const SHARED_KEY = Symbol.for("runpod-dynamic.client.shared");

/**
 * Kept on `globalThis` under a registered symbol so that every copy of this module a process loads
 * (a program's and the provider's) shares one pool and one budget per quota.
 */
function shared(): SharedState {
  const g = globalThis as { [SHARED_KEY]?: SharedState };
  g[SHARED_KEY] ??= {
    agent: new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 32 }),
    streams: new Agent({ keepAliveTimeout: 1000 }),
    budgets: new WeakMap(),
  };
  return g[SHARED_KEY];
}

/** The keep-alive pool every request of the process goes through. */
export function requestPool(): Agent {
  return shared().agent;
}

/** The pool of event streams: they stay open for minutes, so they never hold the connections requests need. */
export function streamPool(): Agent {
  return shared().streams;
}

/**
 * The budget every client of this process without its own `budgets` shares for one origin and key.
 * The first to ask sets what it leaves to the key's other callers (`shareForOthers`): one process
 * is one caller of a key.
 */
export function sharedBudget(
  origin: string,
  apiKey: string,
  clock: Clock,
  shareForOthers: number,
): RateLimitBudget {
  const state = shared();
  let budgets = state.budgets.get(clock);
  if (!budgets) {
    budgets = new RateLimitBudgets(clock, shareForOthers);
    state.budgets.set(clock, budgets);
  }
  return budgets.for(origin, apiKey);
}
