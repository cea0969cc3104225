/**
 * The hourly usage rows the billing routes (routes.ts) answer from: the seed's history, then what
 * resources used since the seed was loaded (the usage ledger, and the worker time of the endpoints
 * that still exist), split per hour bucket as the history is. Both are one account's: a history
 * row belongs to the account its `account` names, the default user's when it names none.
 *
 * A live row holds one resource's use of one hour (one worker's, for serverless): each component
 * rounded to $0.0001 and `amount` their sum; a network volume's row names its high-performance
 * part `highPerformanceStorageAmount`, as the history's rows do.
 */
import { DEFAULT_USER_ID } from "../account/accounts.js";
import { workerSegments } from "../serverless/usage.js";
import type { Store } from "../store/store.js";
import type { UsageFamily, UsageSegment } from "../store/usage-ledger.js";

export type UsageRow = { time: string; amount: number } & Record<string, unknown>;

const HOUR_MS = 3_600_000;

/** The history's families: the ledger's three, plus two the emulator knows only from the seed. */
export type HistoryFamily = UsageFamily | "publicEndpoints" | "clusters";

const HISTORY: Record<HistoryFamily, (s: Store) => readonly UsageRow[]> = {
  pods: (s) => s.seed.billing.pods,
  serverless: (s) => s.seed.billing.endpoints,
  networkVolumes: (s) => s.seed.billing.networkVolumes,
  publicEndpoints: (s) => s.seed.billing.publicEndpoints,
  clusters: (s) => s.seed.billing.clusters,
};

/** What a live row of each family names its resource by, and the components it carries. */
const LIVE: Record<UsageFamily, { idField: string; components: readonly string[] }> = {
  pods: { idField: "podId", components: ["gpuAmount", "cpuAmount", "diskAmount"] },
  serverless: { idField: "endpointId", components: ["gpuAmount", "cpuAmount", "diskAmount", "feeAmount"] },
  networkVolumes: { idField: "networkVolumeId", components: ["standardAmount", "highPerformanceAmount"] },
};

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const units = (usd: number) => Math.round(usd * 10_000);

/** The stretches billed to `account` in `family`, up to `now`. */
function segments(state: Store, family: UsageFamily, account: string, now: number): UsageSegment[] {
  const ledger = state.usage.of(family, account).map((s) => ({ ...s, to: Math.min(s.to ?? now, now) }));
  if (family !== "serverless") return ledger;
  const live = [...state.endpoints.values()]
    .filter((e) => e.account === account)
    .flatMap((e) => workerSegments(state, e, now));
  return [...ledger, ...live];
}

interface HourUse {
  readonly segment: UsageSegment;
  readonly hour: number;
  usd: Record<string, number>;
}

/** Live rows of `family` for `account`, whose hour starts in [from, to), oldest first. */
function liveRows(
  state: Store,
  family: UsageFamily,
  account: string,
  now: number,
  from: number,
  to: number,
): UsageRow[] {
  const byHour = new Map<string, HourUse>();
  for (const s of segments(state, family, account, now)) {
    const end = s.to ?? now;
    for (let hour = Math.floor(s.from / HOUR_MS) * HOUR_MS; hour < end; hour += HOUR_MS) {
      if (hour + HOUR_MS <= from) continue;
      if (hour >= to) break;
      const ms = Math.min(end, hour + HOUR_MS) - Math.max(s.from, hour);
      if (ms <= 0) continue;
      const key = `${s.resourceId}\u0000${s.workerId ?? ""}\u0000${hour}`;
      const use = byHour.get(key) ?? { segment: s, hour, usd: {} };
      for (const [c, perHour] of Object.entries(s.rates))
        use.usd[c] = (use.usd[c] ?? 0) + (perHour * ms) / HOUR_MS;
      byHour.set(key, use);
    }
  }
  const { idField, components } = LIVE[family];
  return [...byHour.values()]
    .sort((a, b) => a.hour - b.hour)
    .map(({ segment, hour, usd }) => {
      const amounts = Object.fromEntries(components.map((c) => [c, units(usd[c] ?? 0)]));
      const amount = Object.values(amounts).reduce((a, b) => a + b, 0) / 10_000;
      const common = { time: iso(hour), [idField]: segment.resourceId, amount };
      if (family === "networkVolumes") {
        return { ...common, highPerformanceStorageAmount: (amounts.highPerformanceAmount ?? 0) / 10_000 };
      }
      return { ...common, ...Object.fromEntries(Object.entries(amounts).map(([c, u]) => [c, u / 10_000])) };
    });
}

/**
 * Every usage row of `family` billed to `account`: the seed's history, then the live rows whose
 * hour starts in [from, to) (all of them by default).
 */
export function usageRows(
  state: Store,
  family: HistoryFamily,
  account: string,
  window: { from?: number; to?: number } = {},
): UsageRow[] {
  const history = HISTORY[family](state).filter(
    (r) => (typeof r.account === "string" ? r.account : DEFAULT_USER_ID) === account,
  );
  if (family === "publicEndpoints" || family === "clusters") return [...history];
  const now = state.now();
  return [
    ...history,
    ...liveRows(state, family, account, now, window.from ?? Number.NEGATIVE_INFINITY, window.to ?? now),
  ];
}
