/**
 * A change priced: every resource's estimate before and after, what the change adds per hour, and
 * the totals. Totals add priced resources only; an unknown or unpriced one is named beside them,
 * never counted as zero. An estimate that is an error (a GPU type the price list lacks) fails the
 * whole command with every such resource named: a total that silently leaves one out would be
 * worse than none.
 */
import { type Estimate, estimate } from "../../provider/cost/estimate.js";
import type { HourlyRange } from "../../provider/cost/hourly-range.js";
import type { PriceList } from "../../provider/cost/prices.js";
import { runpodTypeName } from "../../provider/resources/type-tokens.js";
import { CliError } from "../errors.js";
import type { CostChange, CostDocument, CostOp } from "./documents.js";

export interface CostRow {
  readonly urn: string;
  readonly name: string;
  /** `Pod` for RunPod resources, the whole token for others. */
  readonly type: string;
  readonly op: CostOp;
  readonly before: Estimate | null;
  readonly after: Estimate | null;
  /** after minus before, per hour; null when either side is not priced. */
  readonly change: HourlyRange | null;
}

export interface CostTotals {
  readonly before: HourlyRange;
  readonly after: HourlyRange;
  readonly change: HourlyRange;
  /** `Pod "trainer": gpu.id is not known until the change is applied` */
  readonly unknown: readonly string[];
  /** `aws:s3/bucket:Bucket "logs": not a RunPod resource` */
  readonly notPriced: readonly string[];
}

export interface CostReport {
  readonly kind: CostDocument["kind"];
  /** Unchanged resources the preview does not list (see CostDocument). */
  readonly unlisted: number;
  readonly prices: { readonly source: string; readonly takenAt: string };
  readonly rows: readonly CostRow[];
  readonly totals: CostTotals;
}

const ZERO: HourlyRange = { low: 0, high: 0 };
const add = (a: HourlyRange, b: HourlyRange): HourlyRange => ({ low: a.low + b.low, high: a.high + b.high });

/** The hourly figure a side adds to a total: nothing when absent or not billed, null when unpriced. */
function hourlyOf(e: Estimate | null): HourlyRange | null {
  if (e === null || e.kind === "no-charge") return ZERO;
  return e.kind === "priced" ? e.hourly : null;
}

function changeOf(before: Estimate | null, after: Estimate | null): HourlyRange | null {
  const b = hourlyOf(before);
  const a = hourlyOf(after);
  return a && b ? { low: a.low - b.low, high: a.high - b.high } : null;
}

export const shortType = (type: string): string => runpodTypeName(type) ?? type;
export const subjectOf = (row: { type: string; name: string }) => `${shortType(row.type)} "${row.name}"`;

/** Every row and the totals; throws naming each resource whose estimate is an error. */
export function priceChanges(document: CostDocument, prices: PriceList): CostReport {
  const rows = document.changes.map((c: CostChange): CostRow => {
    const before = c.before && estimate(c.before, prices);
    const after = c.after && estimate(c.after, prices);
    return {
      urn: c.urn,
      name: c.name,
      type: c.type,
      op: c.op,
      before,
      after,
      change: changeOf(before, after),
    };
  });
  const errors = rows.flatMap((r) =>
    [r.before, r.after].flatMap((e) =>
      e?.kind === "error" ? [`${subjectOf(r)}, ${e.field}: ${e.reason}.`] : [],
    ),
  );
  if (errors.length > 0)
    throw new CliError(`cannot price this change:\n  ${[...new Set(errors)].join("\n  ")}`, "COST_ERROR");

  let before = ZERO;
  let after = ZERO;
  const unknown = new Set<string>();
  const notPriced = new Set<string>();
  for (const r of rows) {
    for (const [side, e] of [
      ["before", r.before],
      ["after", r.after],
    ] as const) {
      const h = hourlyOf(e);
      if (h) {
        if (side === "before") before = add(before, h);
        else after = add(after, h);
      } else if (e?.kind === "unknown") {
        unknown.add(`${subjectOf(r)}: ${e.reason}`);
      } else if (e?.kind === "not-priced") {
        notPriced.add(`${subjectOf(r)}: ${e.reason}`);
      }
    }
  }
  return {
    kind: document.kind,
    unlisted: document.unlisted,
    prices: { source: prices.source, takenAt: prices.takenAt },
    rows,
    totals: {
      before,
      after,
      change: { low: after.low - before.low, high: after.high - before.high },
      unknown: [...unknown],
      notPriced: [...notPriced],
    },
  };
}
