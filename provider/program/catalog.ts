/**
 * Catalog reads for programs: GPU types, CPU flavors, data centers, public templates, and the
 * ordered (data center, GPU type) candidates a `Pod`'s `placement.candidates` takes.
 *
 * The catalog is not a reservation (docs/api-model.md, What the service does, 4): a GPU reported as
 * available can be gone by the time a pod is created. That is why a pod takes a list of candidates
 * and walks it.
 */

import { type CandidateQuery, type CatalogCandidate, catalogCandidates } from "../catalog/candidates.js";
import type { CpuFlavor, DataCenter, GpuType, PublicTemplate } from "../catalog/types.js";
import type { RunpodApi } from "../client/api.js";
import type { Availability, Region } from "../client/vocabulary.js";
import { programApi } from "./program.js";

/** The options each catalog read takes. */
export interface GpuTypeQuery {
  /** @default "POD" */
  product?: "POD" | "SERVERLESS" | "CLUSTER";
  cloud?: "SECURE" | "COMMUNITY";
  /** GPUs per pod the stock must allow. @default 1 */
  count?: number;
  /** Only stock in these countries (ISO 3166-1 alpha-2, e.g. `["US", "CA"]`). */
  countryCodes?: string[];
  cudaVersions?: string[];
  minCudaVersion?: string;
}

/**
 * @internal The catalog reads on one API client: what the program functions below run with the
 * program's settings, and what the provider plugin's invokes run with the provider's
 * (provider/plugin/invokes.ts).
 */
export function catalogReads(api: RunpodApi) {
  return {
    getGpuTypes: (options: GpuTypeQuery = {}): Promise<GpuType[]> =>
      api.catalog.gpuTypes({
        include: ["AVAILABILITY"],
        product: [options.product ?? "POD"],
        ...(options.cloud ? { cloud: options.cloud } : {}),
        ...(options.count ? { count: options.count } : {}),
        ...(options.countryCodes?.length ? { countryCodes: options.countryCodes } : {}),
        ...(options.cudaVersions?.length ? { cudaVersions: options.cudaVersions } : {}),
        ...(options.minCudaVersion ? { minCudaVersion: options.minCudaVersion } : {}),
      }),
    getCpuFlavors: (): Promise<CpuFlavor[]> =>
      api.catalog.cpuFlavors({ include: ["AVAILABILITY"], product: ["POD"] }),
    getDataCenters: (options: { regions?: Region[]; globalNetwork?: boolean } = {}): Promise<DataCenter[]> =>
      api.catalog.dataCenters({
        include: ["GPU_AVAILABILITY", "CPU_AVAILABILITY"],
        ...(options.regions?.length ? { regions: options.regions } : {}),
        ...(options.globalNetwork === undefined ? {} : { globalNetwork: options.globalNetwork }),
      }),
    getPublicTemplates: (
      options: { source?: "official" | "verified" | "community" } = {},
    ): Promise<PublicTemplate[]> =>
      api.catalog.publicTemplates(options.source ? { source: options.source } : {}),
    placementCandidates: (query: CandidateQuery): Promise<CatalogCandidate[]> =>
      catalogCandidates(api.catalog, query),
  };
}

/**
 * GPU types with their stock for a product (per data center) and the CUDA versions hosts report.
 * @example const gpus = await getGpuTypes({ minCudaVersion: "12.4" });
 */
export function getGpuTypes(options: GpuTypeQuery = {}): Promise<GpuType[]> {
  return catalogReads(programApi()).getGpuTypes(options);
}

/** CPU flavors, their valid vCPU range, RAM per vCPU and stock per data center. */
export function getCpuFlavors(): Promise<CpuFlavor[]> {
  return catalogReads(programApi()).getCpuFlavors();
}

/**
 * Data centers with GPU and CPU availability and global-networking eligibility.
 * @example const europe = await getDataCenters({ regions: ["EUROPE"] });
 */
export function getDataCenters(
  options: { regions?: Region[]; globalNetwork?: boolean } = {},
): Promise<DataCenter[]> {
  return catalogReads(programApi()).getDataCenters(options);
}

/** Public templates; `serverless` tells pod templates from serverless ones. @default source "official" */
export function getPublicTemplates(
  options: { source?: "official" | "verified" | "community" } = {},
): Promise<PublicTemplate[]> {
  return catalogReads(programApi()).getPublicTemplates(options);
}

export type { Availability, CandidateQuery, CatalogCandidate };

/**
 * Ordered (data center, GPU type) candidates for a `Pod`: higher availability first (or, with
 * `order: "price"`, the cheapest GPU type in `cloud` first among those with stock), then your GPU
 * order, then your region order; CUDA constraints filter hosts. Pass the result as
 * `placement.candidates`.
 * @example
 * const candidates = await placementCandidates({ gpuTypeIds: ["NVIDIA A40", "NVIDIA L40S"], regions: ["EUROPE", "NORTH_AMERICA"] });
 * new Pod("p", { name: "p", image, gpu: { id: "NVIDIA A40" }, placement: { candidates } });
 */
export function placementCandidates(query: CandidateQuery): Promise<CatalogCandidate[]> {
  return catalogReads(programApi()).placementCandidates(query);
}
