/** Billing history (`{rest_url}/v1/billing/pods|endpoints|networkvolumes`, the routes runpodctl calls). */
import { z } from "zod";

export const BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;

export const BillingRecord = z.looseObject({
  time: z.string(),
  amount: z.number(),
  timeBilledMs: z.number().optional(),
  diskSpaceBilledGb: z.number().optional(),
  podId: z.string().optional(),
  gpuTypeId: z.string().optional(),
  endpointId: z.string().optional(),
  highPerformanceStorageAmount: z.number().optional(),
  highPerformanceStorageDiskSpaceBilledGb: z.number().optional(),
});
export type BillingRecord = z.infer<typeof BillingRecord>;
export const BillingRecords = z.array(BillingRecord);

/**
 * An RFC 3339 date-time with an offset (`2026-11-01T00:00:00Z`, `2026-11-01T02:00:00.5+02:00`), a
 * real calendar date and clock time: the billing API's `startTime`/`endTime`. RFC 3339 allows a
 * lowercase `t` and `z`; they are upper-cased before the check.
 */
export const Rfc3339 = z.iso.datetime({ offset: true });

export function isRfc3339(value: string): boolean {
  return Rfc3339.safeParse(value.replace(/^(\d{4}-\d{2}-\d{2})t/, "$1T").replace(/z$/, "Z")).success;
}
