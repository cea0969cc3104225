/**
 * A priced change as people and scripts read it: aligned columns for a terminal, a markdown table
 * for a pull-request comment, one JSON object for scripts. Hourly figures have 4 decimals (as the
 * billing commands print dollars), monthly ones 2; a range prints lowest to highest.
 */
import type { Estimate } from "../../provider/cost/estimate.js";
import { type HourlyRange, perMonth } from "../../provider/cost/hourly-range.js";
import { table } from "../output.js";
import { type CostReport, type CostRow, shortType, subjectOf } from "./diff.js";

const dollars = (digits: number) =>
  new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
const HOURLY = dollars(4);
const MONTHLY = dollars(2);

const monthly = (r: HourlyRange): HourlyRange => ({ low: perMonth(r.low), high: perMonth(r.high) });

/** `$0.4400`, or `$0.0000-$5.5200` for a range. */
function range(r: HourlyRange, format: Intl.NumberFormat): string {
  const low = format.format(r.low);
  const high = format.format(r.high);
  return low === high ? low : `${low}-${high}`;
}

/** `+$1.2345`, `-$0.4400`, `$0.0000`; a range's ends each signed. */
function signed(r: HourlyRange, format: Intl.NumberFormat): string {
  const one = (n: number) => {
    const text = format.format(Math.abs(n));
    return text === format.format(0) ? text : `${n > 0 ? "+" : "-"}${text}`;
  };
  const low = one(r.low);
  const high = one(r.high);
  return low === high ? low : `${low} to ${high}`;
}

/** A side's cell: its rate, and what RunPod bills now when that is not the same figure. */
function cell(e: Estimate | null, format: Intl.NumberFormat, per: (r: HourlyRange) => HourlyRange): string {
  if (e === null) return "";
  switch (e.kind) {
    case "priced": {
      const rate = range(per(e.hourly), format);
      const billed =
        e.billedHourly === null
          ? undefined
          : format.format(per({ low: e.billedHourly, high: e.billedHourly }).low);
      return billed === undefined || billed === rate ? rate : `${rate} (billed ${billed})`;
    }
    case "unknown":
      return "unknown";
    case "not-priced":
      return "not priced";
    case "no-charge":
      return "no charge";
    case "error":
      return "error";
  }
}

const hourlyCell = (e: Estimate | null) => cell(e, HOURLY, (r) => r);
const monthlyCell = (e: Estimate | null) => cell(e, MONTHLY, monthly);
function changeCell(r: CostRow): string {
  if (r.op === "read") return "not managed";
  if (r.change !== null) return signed(r.change, HOURLY);
  return r.before?.kind === "not-priced" || r.after?.kind === "not-priced" ? "not priced" : "unknown";
}

/** What an estimate says beside its figure; unknown and unpriced ones are named with the totals. */
function remarks(e: Estimate | null): readonly string[] {
  if (e?.kind === "priced") return e.notes;
  if (e?.kind === "no-charge") return [e.reason];
  return [];
}

/** Each remark once, with the resources it concerns. */
function notes(report: CostReport): string[] {
  const byNote = new Map<string, string[]>();
  for (const r of report.rows) {
    for (const n of remarks(r.after ?? r.before)) byNote.set(n, [...(byNote.get(n) ?? []), subjectOf(r)]);
  }
  return [...byNote].map(([note, who]) => `${note} (${who.join(", ")})`);
}

function totalLines(report: CostReport, bold: (s: string) => string): string[] {
  const { totals } = report;
  const lines =
    report.kind === "state"
      ? [
          bold(
            `List rate: ${range(totals.after, HOURLY)} per hour, ${range(monthly(totals.after), MONTHLY)} per 30-day month.`,
          ),
        ]
      : [
          bold(
            `Per hour: ${range(totals.before, HOURLY)} before, ${range(totals.after, HOURLY)} after this change (${signed(totals.change, HOURLY)}).`,
          ),
          bold(
            `Per 30-day month: ${range(monthly(totals.before), MONTHLY)} before, ${range(monthly(totals.after), MONTHLY)} after (${signed(monthly(totals.change), MONTHLY)}).`,
          ),
        ];
  if (report.unlisted > 0)
    lines.push(
      `The totals leave out ${report.unlisted} unchanged resource${report.unlisted === 1 ? "" : "s"} the preview does not list: run \`pulumi preview --json --show-sames\` for the whole stack.`,
    );
  if (totals.unknown.length > 0) lines.push(`Not in the totals, unknown: ${totals.unknown.join("; ")}.`);
  if (totals.notPriced.length > 0)
    lines.push(`Not in the totals, not priced: ${totals.notPriced.join("; ")}.`);
  return lines;
}

const pricesLine = (report: CostReport) =>
  `List prices from ${report.prices.source} (read ${report.prices.takenAt}); storage at RunPod's published rates. Ranges run from the cheapest candidate to the dearest; serverless from workers.min to workers.max busy workers.`;

/** The terminal view. */
export function costTable(report: CostReport): string[] {
  const rows = report.rows;
  const lines =
    report.kind === "state"
      ? table(
          [
            { header: "resource" },
            { header: "type" },
            { header: "list/h", align: "right" },
            { header: "list/month", align: "right" },
          ],
          rows.map((r) => [r.name, shortType(r.type), hourlyCell(r.after), monthlyCell(r.after)]),
        )
      : table(
          [
            { header: "resource" },
            { header: "type" },
            { header: "op" },
            { header: "before/h", align: "right" },
            { header: "after/h", align: "right" },
            { header: "change/h", align: "right" },
            { header: "after/month", align: "right" },
          ],
          rows.map((r) => [
            r.name,
            shortType(r.type),
            r.op,
            hourlyCell(r.before),
            hourlyCell(r.after),
            changeCell(r),
            monthlyCell(r.after),
          ]),
        );
  const noted = notes(report);
  return [
    ...(rows.length === 0 ? ["No resources."] : lines),
    "",
    ...totalLines(report, (s) => s),
    ...(noted.length > 0 ? ["", "Notes:", ...noted.map((n) => `  - ${n}`)] : []),
    "",
    pricesLine(report),
  ];
}

const md = (s: string) => s.replace(/\|/g, "\\|");

/** The pull-request comment. */
export function costMarkdown(report: CostReport): string[] {
  const header =
    report.kind === "state"
      ? ["| Resource | Type | List /h | List /month |", "| --- | --- | ---: | ---: |"]
      : [
          "| Resource | Type | Op | Before /h | After /h | Change /h | After /month |",
          "| --- | --- | --- | ---: | ---: | ---: | ---: |",
        ];
  const body = report.rows.map((r) =>
    report.kind === "state"
      ? `| \`${md(r.name)}\` | ${md(shortType(r.type))} | ${hourlyCell(r.after)} | ${monthlyCell(r.after)} |`
      : `| \`${md(r.name)}\` | ${md(shortType(r.type))} | ${r.op} | ${hourlyCell(r.before)} | ${hourlyCell(r.after)} | ${changeCell(r)} | ${monthlyCell(r.after)} |`,
  );
  const noted = notes(report);
  return [
    report.kind === "state" ? "### RunPod: what this stack costs" : "### RunPod: what this change costs",
    "",
    ...(report.rows.length === 0 ? ["No resources."] : [...header, ...body]),
    "",
    ...totalLines(report, (s) => `**${s}**`).map((l) => `${l}  `),
    ...(noted.length > 0
      ? ["", "<details><summary>Notes</summary>", "", ...noted.map((n) => `- ${md(n)}`), "", "</details>"]
      : []),
    "",
    `<sub>${pricesLine(report)}</sub>`,
  ];
}

function estimateView(e: Estimate | null) {
  if (e === null) return null;
  if (e.kind !== "priced") return e;
  return {
    kind: e.kind,
    hourly: e.hourly,
    monthly: monthly(e.hourly),
    billedHourly: e.billedHourly,
    parts: e.parts,
    gpus: e.gpus,
    notes: e.notes,
  };
}

/** The JSON (and YAML) view: stable field names, full precision. */
export function costJson(report: CostReport) {
  const { totals } = report;
  return {
    kind: report.kind,
    prices: report.prices,
    unlisted: report.unlisted,
    resources: report.rows.map((r) => ({
      name: r.name,
      urn: r.urn,
      type: r.type,
      op: r.op,
      before: estimateView(r.before),
      after: estimateView(r.after),
      changeHourly: r.change,
    })),
    totals: {
      before: { hourly: totals.before, monthly: monthly(totals.before) },
      after: { hourly: totals.after, monthly: monthly(totals.after) },
      change: { hourly: totals.change, monthly: monthly(totals.change) },
      unknown: totals.unknown,
      notPriced: totals.notPriced,
    },
  };
}
