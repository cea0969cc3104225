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
