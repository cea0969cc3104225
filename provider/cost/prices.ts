/**
 * List prices, as the cost estimate reads them: per GPU type and cloud, per serverless pool, per
 * CPU flavor, and each data center's network-volume tiers. Built from the v2 catalog
 * (`GET /v2/catalog/gpus|cpus|datacenters`) or read back from a snapshot file that
 * `runpod-dynamic catalog snapshot` wrote, which is how prices reach the policy pack without a
 * network call and how a pull request is priced without an API key.
 *
 * Storage is not in the catalog: its rates are RunPod's published ones (`STORAGE_RATES`, where
 * they come from is in docs/cost.md).
 */
import type { CpuFlavor, DataCenter, GpuType } from "../catalog/types.js";

/** One GPU type's list prices, USD per GPU per hour; null where RunPod does not offer it. */
export interface GpuPrice {
  readonly id: string;
  readonly name: string;
  /** The serverless pool the type belongs to, or null. */
  readonly pool: string | null;
  /** GB of GPU memory. */
  readonly memory: number;
  readonly secure: number | null;
  readonly community: number | null;
  /** A serverless worker's rate on this type's pool, per GPU. */
  readonly serverless: number | null;
}

/** One CPU flavor's list prices, USD per vCPU per hour, and the vCPU counts it takes. */
export interface CpuPrice {
  readonly id: string;
  readonly name: string;
  readonly vcpu: { readonly min: number; readonly max: number };
  readonly securePerVcpu: number;
  readonly serverlessPerVcpu: number;
}

/** What the estimate needs of a data center: the network-volume tiers it offers. */
export interface DataCenterTiers {
  readonly id: string;
  readonly name: string;
  readonly region: string;
  readonly networkVolumeTypes: readonly string[];
}

/** Prices by id, and where and when they were read. */
export interface PriceList {
  /** When the catalog was read (ISO 8601). */
  readonly takenAt: string;
  /** The API address the catalog came from, or the snapshot file it was read back from. */
  readonly source: string;
  readonly gpus: ReadonlyMap<string, GpuPrice>;
  readonly cpus: ReadonlyMap<string, CpuPrice>;
  readonly dataCenters: ReadonlyMap<string, DataCenterTiers>;
}

/**
 * RunPod's published storage rates, USD per GB per 30-day month; the catalog has none. Where they
 * come from, and when they were read, is in docs/cost.md.
 */
export const STORAGE_RATES = {
  /** Container disk and volume disk of a running pod. */
  podRunning: 0.1,
  /** Volume disk (`mounts.persistent`) of a stopped pod; its container disk is wiped and not billed. */
  podStoppedVolume: 0.2,
  /** STANDARD network volumes: this rate up to `networkVolumeTierGb` GB, `networkVolumeAbove` beyond. */
  networkVolume: 0.07,
  networkVolumeAbove: 0.05,
  networkVolumeTierGb: 1000,
} as const;

/** The 30-day month every monthly figure is counted in. */
export const HOURS_PER_MONTH = 720;

/** A catalog price of 0 for a cloud the type is not offered in means "not offered", never "free". */
function offered(available: boolean, price: number | undefined): number | null {
  return available && price !== undefined && price > 0 ? price : null;
}

/** The price list of a catalog read. */
export function priceList(
  catalog: {
    readonly gpus: readonly GpuType[];
    readonly cpus: readonly CpuFlavor[];
    readonly dataCenters: readonly DataCenter[];
  },
  source: string,
  takenAt: string,
): PriceList {
  return {
    takenAt,
    source,
    gpus: new Map(
      catalog.gpus.map((g) => [
        g.id,
        {
          id: g.id,
          name: g.name,
          pool: g.pool,
          memory: g.memory,
          secure: offered(g.secure, g.price.secure),
          community: offered(g.community, g.price.community),
          serverless: offered(g.pool !== null, g.price.serverless),
        },
      ]),
    ),
    cpus: new Map(
      catalog.cpus.map((c) => [
        c.id,
        {
          id: c.id,
          name: c.name,
          vcpu: { min: c.vcpu.min, max: c.vcpu.max },
          securePerVcpu: c.price.securePerVcpu,
          serverlessPerVcpu: c.price.serverlessPerVcpu,
        },
      ]),
    ),
    dataCenters: new Map(
      catalog.dataCenters.map((d) => [
        d.id,
        { id: d.id, name: d.name, region: d.region, networkVolumeTypes: [...d.networkVolumeTypes] },
      ]),
    ),
  };
}
