/** Catalog reads (`GET {base_url}/v2/catalog/gpus|cpus|datacenters|templates`). */
import { z } from "zod";
import { AVAILABILITY_LEVELS, REGIONS } from "../vocabulary.js";

export { AVAILABILITY_LEVELS, REGIONS };

export const Availability = z.enum(AVAILABILITY_LEVELS);
export type Availability = z.infer<typeof Availability>;

export const Region = z.enum(REGIONS);
export type Region = z.infer<typeof Region>;

const NamedAvailability = z.looseObject({ id: z.string(), name: z.string(), availability: Availability });

export const GpuType = z.looseObject({
  id: z.string(),
  name: z.string(),
  pool: z.string().nullable(),
  manufacturer: z.string(),
  memory: z.number(),
  secure: z.boolean(),
  community: z.boolean(),
  price: z.looseObject({ secure: z.number(), community: z.number(), serverless: z.number().optional() }),
  maxCount: z.looseObject({ secure: z.int(), community: z.int() }),
  availability: Availability.optional(),
  dataCenters: z.array(NamedAvailability).optional(),
  cudaVersions: z.array(z.looseObject({ version: z.string(), available: z.boolean() })).optional(),
});
export type GpuType = z.infer<typeof GpuType>;
export const ListGpuTypesResponse = z.looseObject({ gpus: z.array(GpuType) });

export const CpuFlavor = z.looseObject({
  id: z.string(),
  name: z.string(),
  group: z.string(),
  vcpu: z.looseObject({ min: z.int(), max: z.int() }),
  ramGbPerVcpu: z.number(),
  price: z.looseObject({ securePerVcpu: z.number(), serverlessPerVcpu: z.number() }),
  availability: Availability.optional(),
  dataCenters: z.array(NamedAvailability).optional(),
});
export type CpuFlavor = z.infer<typeof CpuFlavor>;
export const ListCpuFlavorsResponse = z.looseObject({ cpus: z.array(CpuFlavor) });

export const DataCenter = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: Region,
  globalNetwork: z.boolean(),
  networkVolumeTypes: z.array(z.string()),
  compliance: z.array(z.string()),
  gpuAvailability: z.array(NamedAvailability).optional(),
  cpuAvailability: z.array(NamedAvailability).optional(),
});
export type DataCenter = z.infer<typeof DataCenter>;
export const ListDataCentersResponse = z.looseObject({ dataCenters: z.array(DataCenter) });
