/**
 * Billing history under rest_url, the v1 routes runpodctl's `billing` commands call (contract:
 * "Command-line commands", Billing; v1 description: PodBilling, EndpointBilling,
 * NetworkVolumeBilling): `GET /v1/billing/pods`, `/v1/billing/endpoints`, `/v1/billing/networkvolumes`.
 *
 * The usage rows are hourly: the seed's history and what the acting account's resources have used
 * since (usage.ts). A request folds them into buckets of `bucketSize` (a bucket
 * starts at the UTC truncation of a row's time; weeks start on Monday), one record per bucket and
 * group. A record's `time` is its bucket's start. Amounts are summed and rounded to 4 decimals,
 * billed time is summed, billed disk space is the bucket's largest. The answer is a bare JSON
 * array sorted by time, then by group value (code-unit order), as runpodctl decodes it.
 *
 * Time filters apply to the usage rows: a row counts when startTime <= row.time < endTime.
 */
import { badRequest } from "../http/errors.js";
import { json, queryList, type RouteContext, type RouteTable } from "../http/routing.js";
import { BUCKET_SIZES, type BucketSize, isDateTime } from "../schemas/billing.js";
import { type UsageRow, usageRows } from "./usage.js";

const POD_GROUPINGS = ["podId", "gpuTypeId"] as const;
const ENDPOINT_GROUPINGS = ["endpointId", "podId", "gpuTypeId"] as const;

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
/** `2026-11-01T00:00:00Z`: the shape of the description's `time` example, without milliseconds. */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

// ---------------------------------------------------------------- query parameters

/** An optional query parameter; an empty value counts as absent, like a flag left at its default. */
function param(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === "" ? undefined : value;
}

function oneOf<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = param(query, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(`${name} must be one of ${allowed.join(", ")}; got '${value}'.`);
  }
  return value as T;
}

/** An RFC 3339 date-time (the flags' documented format) as epoch ms, or a 400 naming the parameter. */
function timeParam(query: URLSearchParams, name: string): number | undefined {
  const raw = param(query, name);
  if (raw === undefined) return undefined;
  // An unencoded `+` in a query string arrives as a space: `...T00:00:00 02:00` meant `+02:00`.
  const value = raw.replace(/ (\d{2}:\d{2})$/, "+$1").replace(/^(\d{4}-\d{2}-\d{2}) /, "$1T");
  if (!isDateTime(value)) {
    throw badRequest(`${name} must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z; got '${raw}'.`);
  }
  // Date.parse takes a lowercase `t`/`z` and more than 3 fraction digits as well.
  return Date.parse(value);
}

interface Window {
  readonly bucketSize: BucketSize;
  readonly start: number | undefined;
  readonly end: number | undefined;
}

function windowOf(query: URLSearchParams): Window {
  const bucketSize = oneOf(query, "bucketSize", BUCKET_SIZES, "day");
  const start = timeParam(query, "startTime");
  const end = timeParam(query, "endTime");
  if (start !== undefined && end !== undefined && start > end) {
    throw badRequest("startTime must not be after endTime.");
  }
  return { bucketSize, start, end };
}

// ---------------------------------------------------------------- buckets

/** Start of the UTC bucket holding `ms`; weeks start on Monday. */
export function bucketStart(ms: number, size: BucketSize): number {
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

function inWindow(rows: readonly UsageRow[], window: Window): { row: UsageRow; at: number }[] {
  return rows
    .map((row) => ({ row, at: Date.parse(row.time) }))
    .filter(
      ({ at }) =>
        // A seed row whose time does not parse is skipped rather than failing every request.
        Number.isFinite(at) &&
        (window.start === undefined || at >= window.start) &&
        (window.end === undefined || at < window.end),
    );
}

export const numberField = (row: Record<string, unknown>, name: string): number => {
  const v = row[name];
  return typeof v === "number" ? v : 0;
};

/** Rows folded per (bucket, group), sorted by bucket then group. */
function fold<T>(
  rows: readonly { row: UsageRow; at: number }[],
  bucketSize: BucketSize,
  groupOf: (row: UsageRow) => string | undefined,
  empty: () => T,
  add: (total: T, row: UsageRow) => void,
): { time: string; group: string | undefined; total: T }[] {
  const buckets = new Map<string, { start: number; group: string | undefined; total: T }>();
  for (const { row, at } of rows) {
    const start = bucketStart(at, bucketSize);
    const group = groupOf(row);
    const key = `${start}\u0000${group ?? ""}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { start, group, total: empty() };
      buckets.set(key, bucket);
    }
    add(bucket.total, row);
  }
  return [...buckets.values()]
    .sort(
      (a, b) =>
        a.start - b.start ||
        ((a.group ?? "") < (b.group ?? "") ? -1 : (a.group ?? "") > (b.group ?? "") ? 1 : 0),
    )
    .map(({ start, group, total }) => ({ time: isoSeconds(start), group, total }));
}

// ---------------------------------------------------------------- pods and endpoints

interface UsageTotal {
  amount: number;
  timeBilledMs: number;
  diskSpaceBilledGb: number;
}

/** BillingRecords (v1 description): time, amount, the group field, timeBilledMs, diskSpaceBilledGb. */
function usageRecords(
  rows: readonly { row: UsageRow; at: number }[],
  bucketSize: BucketSize,
  grouping: string,
) {
  const groupOf = (row: UsageRow) => {
    const v = row[grouping];
    return typeof v === "string" ? v : undefined;
  };
  return fold<UsageTotal>(
    rows,
    bucketSize,
    groupOf,
    () => ({ amount: 0, timeBilledMs: 0, diskSpaceBilledGb: 0 }),
    (total, row) => {
      total.amount += row.amount;
      total.timeBilledMs += numberField(row, "timeBilledMs");
      total.diskSpaceBilledGb = Math.max(total.diskSpaceBilledGb, numberField(row, "diskSpaceBilledGb"));
    },
  ).map(({ time, group, total }) => ({
    time,
    amount: round4(total.amount),
    // A seed row without the grouping field forms its own group, shown without the field.
    ...(group === undefined ? {} : { [grouping]: group }),
    timeBilledMs: total.timeBilledMs,
    diskSpaceBilledGb: total.diskSpaceBilledGb,
  }));
}

/** `billing pods`: grouping podId|gpuTypeId (default gpuTypeId), filters podId and gpuTypeId. */
function podBilling(ctx: RouteContext) {
  const window = windowOf(ctx.query);
  const grouping = oneOf(ctx.query, "grouping", POD_GROUPINGS, "gpuTypeId");
  const podId = param(ctx.query, "podId");
  const gpuTypeId = param(ctx.query, "gpuTypeId");
  const rows = inWindow(usageRows(ctx.state, "pods", ctx.account), window).filter(
    ({ row }) =>
      (podId === undefined || row.podId === podId) &&
      (gpuTypeId === undefined || row.gpuTypeId === gpuTypeId),
  );
  return json(200, usageRecords(rows, window.bucketSize, grouping));
}

/**
 * `billing serverless`: grouping endpointId|podId|gpuTypeId (default endpointId), filters
 * endpointId and gpuTypeId (an array in the description: `a,b` or repeated).
 */
function endpointBilling(ctx: RouteContext) {
  const window = windowOf(ctx.query);
  const grouping = oneOf(ctx.query, "grouping", ENDPOINT_GROUPINGS, "endpointId");
  const endpointId = param(ctx.query, "endpointId");
  // An array in the description: `a,b` and repeated parameters both give a list.
  const gpuTypeIds = queryList(ctx.query, "gpuTypeId");
  const rows = inWindow(usageRows(ctx.state, "serverless", ctx.account), window).filter(
    ({ row }) =>
      (endpointId === undefined || row.endpointId === endpointId) &&
      (gpuTypeIds.length === 0 || gpuTypeIds.includes(String(row.gpuTypeId))),
  );
  return json(200, usageRecords(rows, window.bucketSize, grouping));
}

// ---------------------------------------------------------------- network volumes

interface StorageTotal {
  amount: number;
  diskSpaceBilledGb: number;
  highPerformanceStorageAmount: number;
  highPerformanceStorageDiskSpaceBilledGb: number;
}

/**
 * Rows of the same hour added up, volumes together: v1 has no per-volume records, and the space
 * billed at an instant is what all volumes hold then.
 */
function perHour(rows: readonly UsageRow[]): UsageRow[] {
  const byTime = new Map<string, UsageRow>();
  for (const row of rows) {
    const sum = byTime.get(row.time);
    if (!sum) {
      byTime.set(row.time, { ...row });
      continue;
    }
    for (const key of [
      "amount",
      "diskSpaceBilledGb",
      "highPerformanceStorageAmount",
      "highPerformanceStorageDiskSpaceBilledGb",
    ]) {
      sum[key] = numberField(sum, key) + numberField(row, key);
    }
  }
  return [...byTime.values()];
}

/** NetworkVolumeBillingRecords (v1 description): one record per bucket, no grouping. */
function networkVolumeBilling(ctx: RouteContext) {
  const window = windowOf(ctx.query);
  const records = fold<StorageTotal>(
    inWindow(perHour(usageRows(ctx.state, "networkVolumes", ctx.account)), window),
    window.bucketSize,
    () => undefined,
    () => ({
      amount: 0,
      diskSpaceBilledGb: 0,
      highPerformanceStorageAmount: 0,
      highPerformanceStorageDiskSpaceBilledGb: 0,
    }),
    (total, row) => {
      total.amount += row.amount;
      total.diskSpaceBilledGb = Math.max(total.diskSpaceBilledGb, numberField(row, "diskSpaceBilledGb"));
      total.highPerformanceStorageAmount += numberField(row, "highPerformanceStorageAmount");
      total.highPerformanceStorageDiskSpaceBilledGb = Math.max(
        total.highPerformanceStorageDiskSpaceBilledGb,
        numberField(row, "highPerformanceStorageDiskSpaceBilledGb"),
      );
    },
  ).map(({ time, total }) => ({
    time,
    amount: round4(total.amount),
    diskSpaceBilledGb: total.diskSpaceBilledGb,
    highPerformanceStorageAmount: round4(total.highPerformanceStorageAmount),
    highPerformanceStorageDiskSpaceBilledGb: total.highPerformanceStorageDiskSpaceBilledGb,
  }));
  return json(200, records);
}

export const billingRoutes: RouteTable = {
  rest: [
    { method: "GET", pattern: "/v1/billing/pods", handler: podBilling },
    { method: "GET", pattern: "/v1/billing/endpoints", handler: endpointBilling },
    { method: "GET", pattern: "/v1/billing/networkvolumes", handler: networkVolumeBilling },
  ],
};
