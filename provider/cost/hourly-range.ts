/** Rates in USD per hour, as ranges: what an estimate adds up, and how it shows them. */
import { HOURS_PER_MONTH } from "./prices.js";

/** USD per hour: one figure when `low` equals `high`, a range otherwise. */
export interface HourlyRange {
  readonly low: number;
  readonly high: number;
}

/** One line of an estimate: what is billed and its rate. */
export interface CostPart {
  readonly what: string;
  readonly hourly: HourlyRange;
}

/** What an hourly rate comes to over a month of HOURS_PER_MONTH hours. */
export const perMonth = (hourly: number): number => hourly * HOURS_PER_MONTH;

/** Hourly rate of a monthly storage charge. */
export const storageHourly = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / HOURS_PER_MONTH;

/** One figure as a range. */
export const single = (usd: number): HourlyRange => ({ low: usd, high: usd });
/** The range of a whole estimate: its parts added up. */
export const sum = (parts: readonly CostPart[]): HourlyRange => ({
  low: parts.reduce((s, p) => s + p.hourly.low, 0),
  high: parts.reduce((s, p) => s + p.hourly.high, 0),
});
/** `r` for `n` of a thing at the low end, `m` at the high end. */
export const times = (r: HourlyRange, n: number, m = n): HourlyRange => ({
  low: r.low * n,
  high: r.high * m,
});
/** Lowest to highest of `rates`. */
export const rangeOf = (rates: readonly number[]): HourlyRange => ({
  low: Math.min(...rates),
  high: Math.max(...rates),
});
const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;
/** `$0.4400`, or `$1.20-$2.50` for a range. */
export const showRange = (r: HourlyRange) => (r.low === r.high ? usd(r.low) : `${usd(r.low)}-${usd(r.high)}`);
