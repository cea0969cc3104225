/** Billing query vocabulary (v2 description: BillingBucketSize). */
import { z } from "zod";

export const BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

const DateTime = z.iso.datetime({ offset: true });

/** An RFC 3339 date-time with an offset; RFC 3339 allows a lowercase `t` and `z`. */
export function isDateTime(value: string): boolean {
  return DateTime.safeParse(value.replace(/^(\d{4}-\d{2}-\d{2})t/, "$1T").replace(/z$/, "Z")).success;
}
