/**
 * Placement candidates as a program builds them: the (data center, GPU type) pairs a `Pod` walks,
 * how catalog rows are ranked into them, where a pod's candidates come from, and how they are read
 * from the catalog. Free of the API client (the catalog comes in as a `CatalogReader`), so programs
 * and the policy pack compile against it without reaching zod; the walk itself (one create per
 * candidate) is provider/host/placement.ts.
 */

import type { Availability, Region } from "../client/vocabulary.js";
import type { CatalogReader, DataCenter, GpuType } from "./types.js";

/** One place to try. An absent data center lets the scheduler choose among the request's own list. */
export interface PlacementCandidate {
  readonly dataCenterId?: string | undefined;
  readonly gpuTypeId?: string | undefined;
}

/** A candidate read from the catalog: always a data center, and a GPU type for GPU pods. */
export interface CatalogCandidate {
  readonly dataCenterId: string;
  readonly gpuTypeId?: string;
}

const LEVEL_RANK: Record<Availability, number> = { NONE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

export interface CandidateQuery {
  /** GPU types in order of preference. For CPU pods leave it out and give `cpuFlavorId`. */
  readonly gpuTypeIds?: readonly string[];
  /** CPU flavor, for CPU pods. */
  readonly cpuFlavorId?: string;
  /** Continent-level regions, in order of preference; every region when absent. */
  readonly regions?: readonly Region[];
  /**
   * Skip candidates the catalog rates below this. Without it nothing is skipped: the catalog is
   * not a reservation and is often wrong both ways, so availability only orders candidates.
   */
  readonly minAvailability?: Exclude<Availability, "NONE">;
  /** Only these data centers (for example the one a network volume lives in). */
  readonly dataCenterIds?: readonly string[];
  /** Only data centers eligible for global networking. */
  readonly globalNetworking?: boolean;
  /** Only hosts reporting one of these CUDA versions (exact, as gpu.allowedCudaVersions). */
  readonly allowedCudaVersions?: readonly string[];
  /** Only hosts at or above this CUDA version (numeric, as gpu.minCudaVersion). */
  readonly minCudaVersion?: string;
  /** GPUs per pod the stock must allow (as gpu.count). @default 1 */
  readonly gpuCount?: number;
  /** Only stock in these countries (ISO 3166-1 alpha-2, uppercase). */
  readonly countryCodes?: readonly string[];
  /** @default 12 */
  readonly maxCandidates?: number;
  /**
   * `availability`: the most stock first. `price`: the cheapest GPU type first (among rows with
   * stock), by `gpuPrices`. @default "availability"
   */
  readonly order?: "availability" | "price";
  /** The pod's cloud, whose prices `order: "price"` compares. @default "SECURE" */
  readonly cloud?: "SECURE" | "COMMUNITY";
  /** USD per GPU-hour of each GPU type in `cloud`, for `order: "price"` (read from the catalog). */
  readonly gpuPrices?: ReadonlyMap<string, number>;
}

/** One (data center, GPU type or CPU flavor) the catalog offers, with its stock level. */
export interface CatalogRow {
  readonly dataCenter: DataCenter;
  readonly gpuTypeId?: string;
  readonly availability: Availability;
}

/**
 * Orders catalog rows into candidates: rows below the minimum (when one is asked for) are
 * skipped, then higher availability first (by price, `order: "price"`: rows with stock first, then
 * the cheapest GPU type, then higher availability), then the GPU order asked for, then the region
 * order, then the catalog's own data-center order. The catalog is not a reservation: a candidate can still answer "no
 * capacity", which is why the walk goes on to the next.
 */
export function rankCandidates(rows: readonly CatalogRow[], query: CandidateQuery): CatalogCandidate[] {
  const min = query.minAvailability === undefined ? LEVEL_RANK.NONE : LEVEL_RANK[query.minAvailability];
  const regions = query.regions ?? [];
  const gpus = query.gpuTypeIds ?? [];
  const dcOrder = new Map<string, number>();
  for (const r of rows) if (!dcOrder.has(r.dataCenter.id)) dcOrder.set(r.dataCenter.id, dcOrder.size);
  return rows
    .filter((r) => LEVEL_RANK[r.availability] >= min)
    .filter((r) => regions.length === 0 || regions.includes(r.dataCenter.region))
    .filter((r) => !query.dataCenterIds?.length || query.dataCenterIds.includes(r.dataCenter.id))
    .filter((r) => !query.globalNetworking || r.dataCenter.globalNetwork)
    .filter(
      (r) => query.cpuFlavorId !== undefined || (r.gpuTypeId !== undefined && gpus.includes(r.gpuTypeId)),
    )
    .map((r) => ({
      r,
      key: [
        ...(query.order === "price"
          ? [
              r.availability === "NONE" ? 1 : 0,
              // A type without a price in the pod's cloud is not offered there: last.
              r.gpuTypeId === undefined ? 0 : (query.gpuPrices?.get(r.gpuTypeId) ?? Number.MAX_VALUE),
            ]
          : []),
        -LEVEL_RANK[r.availability],
        r.gpuTypeId === undefined ? 0 : gpus.indexOf(r.gpuTypeId),
        regions.length === 0 ? 0 : regions.indexOf(r.dataCenter.region),
        dcOrder.get(r.dataCenter.id) ?? 0,
      ],
    }))
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i += 1) {
        const d = (a.key[i] ?? 0) - (b.key[i] ?? 0);
        if (d !== 0) return d;
      }
      return 0;
    })
    .slice(0, query.maxCandidates ?? 12)
    .map(({ r }) =>
      r.gpuTypeId === undefined
        ? { dataCenterId: r.dataCenter.id }
        : { dataCenterId: r.dataCenter.id, gpuTypeId: r.gpuTypeId },
    );
}

/**
 * Where a pod's candidates come from, in this precedence: explicit `candidates`, then the catalog
 * (`regions`, `gpuTypeIds`, `minAvailability`, `countryCodes` or `order: "price"`), then the
 * request's own `dataCenterIds`. Shared
 * with the policy pack, which must reason about placement exactly as create does.
 */
export function placementSource(
  placement:
    | {
        candidates?: unknown;
        regions?: unknown;
        gpuTypeIds?: unknown;
        minAvailability?: unknown;
        countryCodes?: unknown;
        order?: unknown;
      }
    | undefined,
): "candidates" | "catalog" | "request" {
  if (placement?.candidates) return "candidates";
  if (
    placement?.regions ||
    placement?.gpuTypeIds ||
    placement?.minAvailability ||
    placement?.countryCodes ||
    placement?.order === "price"
  )
    return "catalog";
  return "request";
}

// ---------------------------------------------------------------- from the catalog

/** Each GPU type's price per GPU-hour in `cloud`, where it is offered there. */
function pricesIn(gpus: readonly GpuType[], cloud: "SECURE" | "COMMUNITY" = "SECURE"): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of gpus) {
    const offered = cloud === "SECURE" ? g.secure : g.community;
    const price = cloud === "SECURE" ? g.price.secure : g.price.community;
    if (offered && price > 0) out.set(g.id, price);
  }
  return out;
}

/**
 * Reads the catalog and returns ordered candidates: what a program's `catalog` helpers and a Pod's
 * create both build when the inputs ask for placement by region, CUDA version or country rather
 * than a fixed list. Without a CUDA constraint one data-center read is enough; with one, the GPU catalog filtered by CUDA says which data centers qualify.
 * Ordering by price also reads the GPU catalog, for its prices.
 */
export async function catalogCandidates(
  catalog: CatalogReader,
  query: CandidateQuery,
): Promise<CatalogCandidate[]> {
  const regions = query.regions?.length ? { regions: query.regions } : {};
  if (query.cpuFlavorId !== undefined) {
    const dcs = await catalog.dataCenters({ include: ["CPU_AVAILABILITY"], ...regions });
    const rows = dcs.flatMap((dc) =>
      (dc.cpuAvailability ?? [])
        .filter((a) => a.id === query.cpuFlavorId)
        .map((a) => ({ dataCenter: dc, availability: a.availability })),
    );
    return rankCandidates(rows, query);
  }
  const cuda = query.allowedCudaVersions?.length
    ? { cudaVersions: query.allowedCudaVersions }
    : query.minCudaVersion !== undefined
      ? { minCudaVersion: query.minCudaVersion }
      : {};
  // The data-center catalog rates stock for one GPU anywhere; the GPU catalog takes the GPU count,
  // CUDA constraints and countries into account, at the cost of joining it with the data centers.
  const scoped = {
    ...cuda,
    ...(query.gpuCount !== undefined && query.gpuCount > 1 ? { count: query.gpuCount } : {}),
    ...(query.countryCodes?.length ? { countryCodes: query.countryCodes } : {}),
  };
  const byPrice = query.order === "price";
  if (Object.keys(scoped).length === 0) {
    const [dcs, gpus] = await Promise.all([
      catalog.dataCenters({ include: ["GPU_AVAILABILITY"], ...regions }),
      byPrice ? catalog.gpuTypes() : Promise.resolve([]),
    ]);
    const rows = dcs.flatMap((dc) =>
      (dc.gpuAvailability ?? []).map((a) => ({
        dataCenter: dc,
        gpuTypeId: a.id,
        availability: a.availability,
      })),
    );
    return rankCandidates(rows, byPrice ? { ...query, gpuPrices: pricesIn(gpus, query.cloud) } : query);
  }
  const [dcs, gpus] = await Promise.all([
    catalog.dataCenters(regions),
    catalog.gpuTypes({ include: ["AVAILABILITY"], product: ["POD"], ...scoped }),
  ]);
  const rows: CatalogRow[] = [];
  for (const dc of dcs) {
    for (const gpu of gpus) {
      const at = gpu.dataCenters?.find((d) => d.id === dc.id);
      if (at) rows.push({ dataCenter: dc, gpuTypeId: gpu.id, availability: at.availability });
    }
  }
  return rankCandidates(rows, byPrice ? { ...query, gpuPrices: pricesIn(gpus, query.cloud) } : query);
}
