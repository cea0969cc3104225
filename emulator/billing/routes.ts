/**
 * Billing history under base_url (v2 description: listBilling, listPodBilling,
 * listServerlessBilling, listEndpointBilling, listNetworkVolumeBilling, listClusterBilling), from
 * the usage rows: the seed's history and what the acting account's pods, endpoints and network
 * volumes have used since (usage.ts).
 *
 * The window: `startTime`/`endTime` with `bucketSize`, or `lastN` with `bucketSize` (400 when both
 * are given). `startTime` defaults to 30 days before now and is snapped down to its bucket's start;
 * `endTime` (exclusive) defaults to now and is snapped up to its bucket's end unless already on a
 * boundary. `lastN` is the last N buckets, ending with the current one. A bad value is a 422; a
 * window that ends before it starts, or holds more than MAX_BUCKETS buckets, a 400.
 *
 * Records: "one record per resource per bucket" and `recordCount` "buckets times distinct
 * resources": every resource with usage in the window gets a record for every bucket, zero where
 * it used nothing, sorted by bucket then resource id. The aggregate and public-endpoint routes give
 * one record per bucket. Amounts are the description's components (a row without them counts whole
 * as GPU compute, or CPU for a pod row whose `gpuTypeId` is a CPU flavor; a network volume's
 * standard amount is its amount minus the high-performance one), each record's `totalAmount` is
 * the sum of its components, and `metadata.totals` the sums over the records. Amounts are summed
 * in units of $0.0001, so totals add up exactly.
 */

import { badRequest, unprocessable } from "../http/errors.js";
import { json, type RouteContext, type RouteTable } from "../http/routing.js";
import { BUCKET_SIZES, type BucketSize, isDateTime } from "../schemas/billing.js";
import type { Store } from "../store/store.js";
import { type HistoryFamily, type UsageRow, usageRows } from "./usage.js";

const DAY_MS = 86_400_000;
/** The longest window answered, in buckets (a year of hours and then some). */
export const MAX_BUCKETS = 10_000;

const units = (usd: number) => Math.round(usd * 10_000);
const usd = (u: number) => u / 10_000;
/** `2026-11-01T00:00:00Z`: the shape of the description's `time` example, without milliseconds. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A row's number field, 0 when it has none. */
function numberField(row: Record<string, unknown>, name: string): number {
  const v = row[name];
  return typeof v === "number" ? v : 0;
}

// ---------------------------------------------------------------- the window

interface Window {
  bucketSize: BucketSize;
  start: number;
  end: number;
  /** Bucket starts, oldest first. */
  buckets: number[];
}

/** Start of the UTC bucket holding `ms`; weeks start on Monday. */
function bucketStart(ms: number, size: BucketSize): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  switch (size) {
    case "hour":
      return Date.UTC(y, mo, day, d.getUTCHours());
    case "day":
      return Date.UTC(y, mo, day);
    case "week":
      return Date.UTC(y, mo, day - ((d.getUTCDay() + 6) % 7));
    case "month":
      return Date.UTC(y, mo, 1);
    case "year":
      return Date.UTC(y, 0, 1);
  }
}

function nextBucket(start: number, size: BucketSize): number {
  const d = new Date(start);
  switch (size) {
    case "hour":
      return start + 3_600_000;
    case "day":
      return start + DAY_MS;
    case "week":
      return start + 7 * DAY_MS;
    case "month":
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case "year":
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

function queryProblem(errors: string[]) {
  return unprocessable(errors, "Query parameters do not match the contract.");
}

/** An RFC 3339 parameter as epoch ms; an unencoded `+` in a query string arrives as a space. */
function timeParam(query: URLSearchParams, name: string, errors: string[]): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === "") return undefined;
  const value = raw.replace(/ (\d{2}:\d{2})$/, "+$1");
  if (!isDateTime(value)) {
    errors.push(`query.${name}: expected an RFC 3339 date-time such as 2026-11-01T00:00:00Z`);
    return undefined;
  }
  return Date.parse(value);
}

function windowOf(query: URLSearchParams, now: number): Window {
  const errors: string[] = [];
  const size = query.get("bucketSize") ?? "day";
  if (!(BUCKET_SIZES as readonly string[]).includes(size)) {
    errors.push(`query.bucketSize: expected one of ${BUCKET_SIZES.map((b) => JSON.stringify(b)).join(", ")}`);
  }
  const lastNRaw = query.get("lastN");
  const lastN = lastNRaw === null ? undefined : Number(lastNRaw);
  if (lastN !== undefined && !(Number.isInteger(lastN) && lastN >= 1 && /^\d+$/.test(lastNRaw ?? ""))) {
    errors.push("query.lastN: expected an integer >= 1");
  }
  const startTime = timeParam(query, "startTime", errors);
  const endTime = timeParam(query, "endTime", errors);
  if (errors.length > 0) throw queryProblem(errors);
  const bucketSize = size as BucketSize;
  if (lastN !== undefined && (query.has("startTime") || query.has("endTime"))) {
    throw badRequest("lastN cannot be combined with startTime or endTime; send one or the other.");
  }
  let start: number;
  let end: number;
  if (lastN !== undefined) {
    end = nextBucket(bucketStart(now, bucketSize), bucketSize);
    start = bucketStart(now, bucketSize);
    for (let i = 1; i < Math.min(lastN, MAX_BUCKETS + 1); i += 1) start = bucketStart(start - 1, bucketSize);
  } else {
    start = bucketStart(startTime ?? now - 30 * DAY_MS, bucketSize);
    const rawEnd = endTime ?? now;
    const floor = bucketStart(rawEnd, bucketSize);
    end = floor === rawEnd ? rawEnd : nextBucket(floor, bucketSize);
  }
  if (start >= end) throw badRequest("startTime must be before endTime.");
  const buckets: number[] = [];
  for (let b = start; b < end; b = nextBucket(b, bucketSize)) {
    buckets.push(b);
    if (buckets.length > MAX_BUCKETS) {
      throw badRequest(
        `The window holds more than ${MAX_BUCKETS} ${bucketSize} buckets; narrow it or use a larger bucketSize.`,
      );
    }
  }
  return { bucketSize, start, end, buckets };
}

const range = (start: number, size: BucketSize) => ({
  startTime: isoSeconds(start),
  endTime: isoSeconds(nextBucket(start, size)),
});

const queryEcho = (w: Window) => ({
  startTime: isoSeconds(w.start),
  endTime: isoSeconds(w.end),
  bucketSize: w.bucketSize,
});

// ---------------------------------------------------------------- the families

/** A resource family: its rows, the field naming a row's resource, and a row's components in $0.0001. */
interface Family {
  history: HistoryFamily;
  resource: (row: UsageRow) => string;
  components: readonly string[];
  split: (state: Store, row: UsageRow) => Record<string, number>;
}

/** The components a row states, or its whole amount as `fallback`. */
function stated(row: UsageRow, fields: readonly string[], fallback: string): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(fields.map((f) => [f, 0]));
  if (fields.some((f) => typeof row[f] === "number")) {
    for (const f of fields) out[f] = units(numberField(row, f));
  } else {
    out[fallback] = units(row.amount);
  }
  return out;
}

const idOf = (field: string) => (row: UsageRow) =>
  typeof row[field] === "string" ? (row[field] as string) : "unknown";

const FAMILIES = {
  pods: {
    history: "pods",
    resource: idOf("podId"),
    components: ["gpuAmount", "cpuAmount", "diskAmount"],
    split: (s, row) =>
      stated(
        row,
        ["gpuAmount", "cpuAmount", "diskAmount"],
        s.cpuFlavorById.has(String(row.gpuTypeId)) ? "cpuAmount" : "gpuAmount",
      ),
  },
  serverless: {
    history: "serverless",
    resource: idOf("endpointId"),
    components: ["gpuAmount", "cpuAmount", "diskAmount", "feeAmount"],
    split: (_s, row) => stated(row, ["gpuAmount", "cpuAmount", "diskAmount", "feeAmount"], "gpuAmount"),
  },
  networkVolumes: {
    history: "networkVolumes",
    resource: idOf("networkVolumeId"),
    components: ["standardAmount", "highPerformanceAmount"],
    split: (_s, row) => {
      const hp = units(numberField(row, "highPerformanceStorageAmount"));
      return { standardAmount: units(row.amount) - hp, highPerformanceAmount: hp };
    },
  },
  clusters: {
    history: "clusters",
    resource: idOf("clusterId"),
    components: ["gpuAmount", "diskAmount", "networkingAmount"],
    split: (_s, row) => stated(row, ["gpuAmount", "diskAmount", "networkingAmount"], "gpuAmount"),
  },
  publicEndpoints: {
    history: "publicEndpoints",
    resource: () => "",
    components: ["totalAmount"],
    split: (_s, row) => ({ totalAmount: units(row.amount) }),
  },
} satisfies Record<string, Family>;

type Totals = Record<string, number>;

/** Component sums per bucket and resource (a resource of "" for families answered per bucket). */
function sums(
  state: Store,
  account: string,
  family: Family,
  w: Window,
  only?: string,
): Map<string, Map<number, Totals>> {
  const out = new Map<string, Map<number, Totals>>();
  for (const row of usageRows(state, family.history, account, { from: w.start, to: w.end })) {
    const at = Date.parse(row.time);
    // A seed row whose time does not parse is skipped rather than failing every request.
    if (!Number.isFinite(at) || at < w.start || at >= w.end) continue;
    const id = family.resource(row);
    if (only !== undefined && id !== only) continue;
    let byBucket = out.get(id);
    if (!byBucket) {
      byBucket = new Map();
      out.set(id, byBucket);
    }
    const bucket = bucketStart(at, w.bucketSize);
    const total = byBucket.get(bucket) ?? Object.fromEntries(family.components.map((c) => [c, 0]));
    for (const [c, v] of Object.entries(family.split(state, row))) total[c] = (total[c] ?? 0) + v;
    byBucket.set(bucket, total);
  }
  return out;
}

/** Amounts in USD, `totalAmount` first as the sum of the components (unless it is the only one). */
function amounts(components: readonly string[], total: Totals | undefined): Record<string, number> {
  const values = components.map((c) => [c, total?.[c] ?? 0] as const);
  const sum = values.reduce((a, [, v]) => a + v, 0);
  return {
    totalAmount: usd(sum),
    ...Object.fromEntries(values.filter(([c]) => c !== "totalAmount").map(([c, v]) => [c, usd(v)])),
  };
}

/** One record per resource per bucket, with the metadata the description gives the family. */
function perResource(ctx: RouteContext, family: Family, idKey: string, filter: string, uniqueKey: string) {
  const w = windowOf(ctx.query, ctx.now);
  const only = ctx.query.get(filter) ?? undefined;
  const byResource = sums(ctx.state, ctx.account, family, w, only === "" ? undefined : only);
  const ids = [...byResource.keys()].sort();
  const records = w.buckets.flatMap((b) =>
    ids.map((id) => ({
      ...range(b, w.bucketSize),
      ...amounts(family.components, byResource.get(id)?.get(b)),
      [idKey]: id,
    })),
  );
  const totals: Totals = Object.fromEntries(family.components.map((c) => [c, 0]));
  for (const byBucket of byResource.values()) {
    for (const t of byBucket.values())
      for (const c of family.components) totals[c] = (totals[c] ?? 0) + (t[c] ?? 0);
  }
  return json(200, {
    records,
    metadata: {
      query: { ...queryEcho(w), [filter]: only === undefined || only === "" ? null : only },
      recordCount: records.length,
      [uniqueKey]: ids.length,
      totals: amounts(family.components, totals),
    },
  });
}

/** Each family's per-bucket sums over every resource. */
function perBucket(state: Store, account: string, family: Family, w: Window): Map<number, Totals> {
  const out = new Map<number, Totals>();
  for (const byBucket of sums(state, account, family, w).values()) {
    for (const [b, t] of byBucket) {
      const acc = out.get(b) ?? {};
      for (const [c, v] of Object.entries(t)) acc[c] = (acc[c] ?? 0) + v;
      out.set(b, acc);
    }
  }
  return out;
}

/** BillingAmounts: every family's components, prefixed by resource. */
const AGGREGATE: [keyof typeof FAMILIES, string, string][] = [
  ["pods", "gpuAmount", "podGpuAmount"],
  ["pods", "cpuAmount", "podCpuAmount"],
  ["pods", "diskAmount", "podDiskAmount"],
  ["serverless", "gpuAmount", "serverlessGpuAmount"],
  ["serverless", "cpuAmount", "serverlessCpuAmount"],
  ["serverless", "diskAmount", "serverlessDiskAmount"],
  ["serverless", "feeAmount", "serverlessFeeAmount"],
  ["networkVolumes", "standardAmount", "storageStandardAmount"],
  ["networkVolumes", "highPerformanceAmount", "storageHighPerformanceAmount"],
  ["publicEndpoints", "totalAmount", "endpointAmount"],
  ["clusters", "gpuAmount", "clusterGpuAmount"],
  ["clusters", "diskAmount", "clusterDiskAmount"],
  ["clusters", "networkingAmount", "clusterNetworkingAmount"],
];

function aggregateBilling(ctx: RouteContext) {
  const { state } = ctx;
  const w = windowOf(ctx.query, ctx.now);
  const families = Object.fromEntries(
    (Object.keys(FAMILIES) as (keyof typeof FAMILIES)[]).map((k) => [
      k,
      perBucket(state, ctx.account, FAMILIES[k], w),
    ]),
  ) as Record<keyof typeof FAMILIES, Map<number, Totals>>;
  const names = AGGREGATE.map(([, , name]) => name);
  const totals: Totals = {};
  const records = w.buckets.map((b) => {
    const t: Totals = {};
    for (const [family, component, name] of AGGREGATE) {
      t[name] = families[family].get(b)?.[component] ?? 0;
      totals[name] = (totals[name] ?? 0) + (t[name] ?? 0);
    }
    return { ...range(b, w.bucketSize), ...amounts(names, t) };
  });
  return json(200, {
    records,
    metadata: { query: queryEcho(w), recordCount: records.length, totals: amounts(names, totals) },
  });
}

/** Public endpoint billing: one record per bucket with its total (no per-endpoint split, no filter). */
function publicEndpointBilling(ctx: RouteContext) {
  const w = windowOf(ctx.query, ctx.now);
  const byBucket = perBucket(ctx.state, ctx.account, FAMILIES.publicEndpoints, w);
  let total = 0;
  const records = w.buckets.map((b) => {
    const t = byBucket.get(b)?.totalAmount ?? 0;
    total += t;
    return { ...range(b, w.bucketSize), totalAmount: usd(t) };
  });
  return json(200, {
    records,
    metadata: { query: queryEcho(w), recordCount: records.length, totals: { totalAmount: usd(total) } },
  });
}

export const billingRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/billing", handler: aggregateBilling },
    {
      method: "GET",
      pattern: "/v2/billing/pods",
      handler: (ctx) => perResource(ctx, FAMILIES.pods, "podId", "podId", "uniquePodCount"),
    },
    {
      method: "GET",
      pattern: "/v2/billing/serverless",
      handler: (ctx) =>
        perResource(ctx, FAMILIES.serverless, "serverlessId", "serverlessId", "uniqueServerlessCount"),
    },
    { method: "GET", pattern: "/v2/billing/endpoints", handler: publicEndpointBilling },
    {
      method: "GET",
      pattern: "/v2/billing/network-volumes",
      handler: (ctx) =>
        perResource(
          ctx,
          FAMILIES.networkVolumes,
          "networkVolumeId",
          "networkVolumeId",
          "uniqueNetworkVolumeCount",
        ),
    },
    {
      method: "GET",
      pattern: "/v2/billing/clusters",
      handler: (ctx) => perResource(ctx, FAMILIES.clusters, "clusterId", "clusterId", "uniqueClusterCount"),
    },
  ],
};
