/**
 * Candidates from the catalog: what a program's `catalog` helpers and a Pod's create both build when
 * the inputs ask for placement by region, CUDA version or country rather than a fixed list.
 */
import type { RunpodApi } from "../client/api.js";
import { type CandidateQuery, type CatalogCandidate, type CatalogRow, rankCandidates } from "./candidates.js";
import type { GpuType } from "./types.js";

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
 * Reads the catalog and returns ordered candidates. Without a CUDA constraint one data-center
 * read is enough; with one, the GPU catalog filtered by CUDA says which data centers qualify.
 * Ordering by price also reads the GPU catalog, for its prices.
 */
export async function catalogCandidates(api: RunpodApi, query: CandidateQuery): Promise<CatalogCandidate[]> {
  const regions = query.regions?.length ? { regions: query.regions } : {};
  if (query.cpuFlavorId !== undefined) {
    const dcs = await api.catalog.dataCenters({ include: ["CPU_AVAILABILITY"], ...regions });
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
      api.catalog.dataCenters({ include: ["GPU_AVAILABILITY"], ...regions }),
      byPrice ? api.catalog.gpuTypes() : Promise.resolve([]),
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
    api.catalog.dataCenters(regions),
    api.catalog.gpuTypes({ include: ["AVAILABILITY"], product: ["POD"], ...scoped }),
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
