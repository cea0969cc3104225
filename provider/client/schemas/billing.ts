/**
 * Billing history (`{base_url}/v2/billing`, `/v2/billing/pods|serverless|network-volumes|clusters`;
 * v2 description: ListBillingResponse, ListPodBillingResponse, ListServerlessBillingResponse,
 * ListNetworkVolumeBillingResponse, ListClusterBillingResponse). One record per resource per time bucket, with the cost split
 * into components; v2 has no grouping and no GPU filter. `metadata` echoes the window the service
 * resolved (it snaps `startTime`/`endTime` to bucket boundaries) and sums the records.
 *
 * `/v2/billing/endpoints` is billing for RunPod's public (hosted model) endpoints, not for serverless
 * endpoints: those are `/v2/billing/serverless`.
 */
import { z } from "zod";

export const BUCKET_SIZES = ["hour", "day", "week", "month", "year"] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

/**
 * The query every billing route takes: a window by `startTime`/`endTime`, or the last `lastN`
 * buckets (the service refuses both at once), in buckets of `bucketSize`.
 */
export interface BillingQuery {
  readonly startTime?: string | undefined;
  readonly endTime?: string | undefined;
  readonly bucketSize?: BucketSize | undefined;
  readonly lastN?: number | undefined;
}

/** A record's bucket, or the resolved window in `metadata.query`: [startTime, endTime). */
const TimeRange = { startTime: z.string(), endTime: z.string() };

/** The window the service answered for (BillingQuery); loose, with the route's filter echoed. */
export const BillingQueryEcho = z.looseObject({ ...TimeRange, bucketSize: z.string() });
export type BillingQueryEcho = z.infer<typeof BillingQueryEcho>;

const amount = z.number();

export const PodBillingAmounts = {
  totalAmount: amount,
  gpuAmount: amount,
  cpuAmount: amount,
  diskAmount: amount,
};
export const PodBillingRecord = z.looseObject({ ...TimeRange, podId: z.string(), ...PodBillingAmounts });
export type PodBillingRecord = z.infer<typeof PodBillingRecord>;
export const ListPodBillingResponse = z.looseObject({
  records: z.array(PodBillingRecord),
  metadata: z.looseObject({ query: BillingQueryEcho }).optional(),
});

export const ServerlessBillingAmounts = {
  totalAmount: amount,
  gpuAmount: amount,
  cpuAmount: amount,
  diskAmount: amount,
  feeAmount: amount,
};
export const ServerlessBillingRecord = z.looseObject({
  ...TimeRange,
  serverlessId: z.string(),
  ...ServerlessBillingAmounts,
});
export type ServerlessBillingRecord = z.infer<typeof ServerlessBillingRecord>;
export const ListServerlessBillingResponse = z.looseObject({
  records: z.array(ServerlessBillingRecord),
  metadata: z.looseObject({ query: BillingQueryEcho }).optional(),
});

export const NetworkVolumeBillingAmounts = {
  totalAmount: amount,
  standardAmount: amount,
  highPerformanceAmount: amount,
};
export const NetworkVolumeBillingRecord = z.looseObject({
  ...TimeRange,
  networkVolumeId: z.string(),
  ...NetworkVolumeBillingAmounts,
});
export type NetworkVolumeBillingRecord = z.infer<typeof NetworkVolumeBillingRecord>;
export const ListNetworkVolumeBillingResponse = z.looseObject({
  records: z.array(NetworkVolumeBillingRecord),
  metadata: z.looseObject({ query: BillingQueryEcho }).optional(),
});

export const ClusterBillingAmounts = {
  totalAmount: amount,
  gpuAmount: amount,
  diskAmount: amount,
  networkingAmount: amount,
};
export const ClusterBillingRecord = z.looseObject({
  ...TimeRange,
  clusterId: z.string(),
  ...ClusterBillingAmounts,
});
export type ClusterBillingRecord = z.infer<typeof ClusterBillingRecord>;
export const ListClusterBillingResponse = z.looseObject({
  records: z.array(ClusterBillingRecord),
  metadata: z.looseObject({ query: BillingQueryEcho }).optional(),
});

/** BillingAmounts: every cost component of the account, prefixed by the resource family. */
export const BillingAmounts = {
  totalAmount: amount,
  podGpuAmount: amount,
  podCpuAmount: amount,
  podDiskAmount: amount,
  serverlessGpuAmount: amount,
  serverlessCpuAmount: amount,
  serverlessDiskAmount: amount,
  serverlessFeeAmount: amount,
  storageStandardAmount: amount,
  storageHighPerformanceAmount: amount,
  endpointAmount: amount,
  clusterGpuAmount: amount,
  clusterDiskAmount: amount,
  clusterNetworkingAmount: amount,
};
/** One bucket of the whole account's spend (`GET /v2/billing`). */
export const BillingRecord = z.looseObject({ ...TimeRange, ...BillingAmounts });
export type BillingRecord = z.infer<typeof BillingRecord>;
export const ListBillingResponse = z.looseObject({
  records: z.array(BillingRecord),
  metadata: z.looseObject({ query: BillingQueryEcho }).optional(),
});

/**
 * An RFC 3339 date-time with an offset (`2026-11-01T00:00:00Z`, `2026-11-01T02:00:00.5+02:00`), a
 * real calendar date and clock time: the billing API's `startTime`/`endTime`. RFC 3339 allows a
 * lowercase `t` and `z`; they are upper-cased before the check.
 */
export const Rfc3339 = z.iso.datetime({ offset: true });

export function isRfc3339(value: string): boolean {
  return Rfc3339.safeParse(value.replace(/^(\d{4}-\d{2}-\d{2})t/, "$1T").replace(/z$/, "Z")).success;
}
