/**
 * The billing window every billing command takes: its flags, the query they send, the window the
 * API answered for, and the line under a table that names it.
 */
import { type Command, Option } from "commander";
import type { schemas } from "../../provider/client/index.js";
import { BUCKET_SIZES, type BucketSize } from "../../provider/client/schemas/billing.js";
import { UsageError } from "../errors.js";
import { money, type Terminal } from "../output.js";
import { choice, type FormatOptions, intOption, timeOption } from "../parse.js";

type BillingQuery = schemas.BillingQuery;
type BillingQueryEcho = schemas.BillingQueryEcho;

export interface WindowOptions extends FormatOptions {
  bucketSize: BucketSize;
  startTime?: string;
  endTime?: string;
  lastN?: number;
}

export const TIME_HELP = `
Times are RFC 3339 date-times, e.g. 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00. RunPod
widens the window to whole buckets; the JSON's query shows the window it answered for.
Tables show US dollars and bucket start times in your time zone (TZ).`;

export function addWindowOptions(command: Command): Command {
  return command
    .addOption(choice("--bucket-size <size>", "length of one billing bucket", BUCKET_SIZES, "day"))
    .option(
      "--start-time <time>",
      "first instant to include (RFC 3339; default 30 days ago)",
      timeOption("--start-time"),
    )
    .option("--end-time <time>", "instant to stop before (RFC 3339; default now)", timeOption("--end-time"))
    .addOption(
      new Option("--last-n <n>", "the last n buckets, ending with the current one, instead of a window")
        .argParser(intOption("--last-n", 1, 10_000))
        .conflicts(["startTime", "endTime"]),
    );
}

/** The window's query parameters in the order sent; an unset flag is not sent. */
export function windowQuery(opts: WindowOptions): BillingQuery {
  if (opts.startTime && opts.endTime && Date.parse(opts.startTime) >= Date.parse(opts.endTime)) {
    throw new UsageError(`--start-time (${opts.startTime}) must be before --end-time (${opts.endTime}).`);
  }
  return {
    startTime: opts.startTime,
    endTime: opts.endTime,
    bucketSize: opts.bucketSize,
    lastN: opts.lastN,
  };
}

/** `query` of the JSON output: the window as the API resolved it (what was sent, without an echo). */
export function windowView(sent: BillingQuery, echo: BillingQueryEcho | undefined) {
  return {
    startTime: echo?.startTime ?? sent.startTime ?? null,
    endTime: echo?.endTime ?? sent.endTime ?? null,
    bucketSize: echo?.bucketSize ?? sent.bucketSize ?? "day",
    lastN: sent.lastN ?? null,
  };
}

/** The window as the JSON output's `query` shows it. */
export type BillingWindow = ReturnType<typeof windowView>;

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The closing line under a table: the total and the window, and when RunPod widened the window to
 * whole buckets (a week bucket starts on its Monday, before a mid-week --start-time), that it did.
 */
export function summary(
  out: Terminal,
  total: number,
  count: number,
  window: BillingWindow,
  askedStart: string | undefined,
): string {
  const span =
    window.startTime && window.endTime
      ? ` from ${out.localTime(window.startTime)} to ${out.localTime(window.endTime)}`
      : "";
  const widened =
    askedStart && window.startTime && Date.parse(window.startTime) < Date.parse(askedStart)
      ? ` RunPod bills whole ${window.bucketSize}s, so the first bucket starts before --start-time (${out.localTime(askedStart)}).`
      : "";
  return `Total ${money(total)} over ${plural(count, "record")}${span}.${widened}`;
}

export const EMPTY = "No billing records in this window.";
