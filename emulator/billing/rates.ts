/**
 * What the emulator bills per hour (docs/cost.md has where the rates come from). Compute is the
 * pod's own `costPerHour`, the catalog price it was created at; storage is RunPod's published
 * rates, which the catalog does not carry, per GB and 30-day month (720 hours):
 *
 * - a running pod's container disk and volume disk (`mounts.persistent`): $0.10;
 * - a stopped pod's volume disk: $0.20 (its container disk is wiped, and not billed);
 * - a STANDARD network volume: $0.07 for its first 1,000 GB, $0.05 beyond.
 *
 * RunPod publishes no rate for HIGH_PERFORMANCE network volumes: the emulator bills them nothing.
 * The emulator keeps its own copy of these figures, apart from the provider's estimate, so a
 * wrong figure on one side shows against the other.
 */
import type { Metering } from "../store/usage-ledger.js";

export const HOURS_PER_MONTH = 720;
const POD_RUNNING_GB_MONTH = 0.1;
const POD_STOPPED_VOLUME_GB_MONTH = 0.2;
const VOLUME_GB_MONTH = 0.07;
const VOLUME_ABOVE_TIER_GB_MONTH = 0.05;
const VOLUME_TIER_GB = 1000;

/** What a pod's billing depends on. */
export interface MeteredPod {
  readonly status: string;
  readonly costPerHour: number;
  readonly disk: number;
  readonly mounts: { readonly persistent?: { readonly size: number } };
  readonly gpu?: { readonly id: string };
  readonly cluster?: unknown;
}

/**
 * What a pod bills in its status: compute (GPU or CPU, its `costPerHour`) and both disks from its
 * create until it is stopped, as its `cost` says (PROVISIONING, STARTING, RUNNING and ERROR alike);
 * stopped, its volume disk alone; terminated, nothing. A cluster's member pods are billed with
 * their cluster, not here.
 */
export function podMetering(pod: MeteredPod): Metering | undefined {
  if (pod.cluster !== undefined || pod.status === "TERMINATED") return undefined;
  const volumeGb = pod.mounts.persistent?.size ?? 0;
  const compute = pod.gpu ? "gpuAmount" : "cpuAmount";
  if (pod.status === "EXITED") {
    return {
      rates: { [compute]: 0, diskAmount: (volumeGb * POD_STOPPED_VOLUME_GB_MONTH) / HOURS_PER_MONTH },
    };
  }
  const diskGb = pod.disk + volumeGb;
  return {
    rates: { [compute]: pod.costPerHour, diskAmount: (diskGb * POD_RUNNING_GB_MONTH) / HOURS_PER_MONTH },
  };
}

/** What a network volume bills: STANDARD at the tiered rate; HIGH_PERFORMANCE nothing (no published rate). */
export function volumeMetering(volume: {
  readonly size: number;
  readonly type: string;
}): Metering | undefined {
  if (volume.type !== "STANDARD") return undefined;
  const below = Math.min(volume.size, VOLUME_TIER_GB);
  const above = Math.max(0, volume.size - VOLUME_TIER_GB);
  const perMonth = below * VOLUME_GB_MONTH + above * VOLUME_ABOVE_TIER_GB_MONTH;
  return {
    rates: { standardAmount: perMonth / HOURS_PER_MONTH, highPerformanceAmount: 0 },
  };
}
