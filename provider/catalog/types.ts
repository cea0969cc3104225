/**
 * The catalog as a program sees it (`getGpuTypes`, `getCpuFlavors`, `getDataCenters`,
 * `getPublicTemplates`): written by hand, so the declarations a program compiles against never
 * import zod. The client parses the same answers with loose schemas (provider/client/schemas/), so
 * a field the service adds is kept; each type here is proven equal to its schema's below.
 */

import type {
  CpuFlavor as ApiCpuFlavor,
  DataCenter as ApiDataCenter,
  GpuType as ApiGpuType,
} from "../client/schemas/catalog.js";
import type { Template as ApiTemplate } from "../client/schemas/templates.js";
import type { Availability, Region } from "../client/vocabulary.js";
import type { Same } from "../resources/same-type.js";

/** A GPU type or CPU flavor in one data center, or one data center's stock of it. */
export interface NamedAvailability {
  id: string;
  name: string;
  availability: Availability;
  [field: string]: unknown;
}

/** A GPU type, with its stock for the product asked for and the CUDA versions hosts report. */
export interface GpuType {
  id: string;
  name: string;
  pool: string | null;
  manufacturer: string;
  /** GB of GPU memory. */
  memory: number;
  secure: boolean;
  community: boolean;
  /** USD per GPU per hour. */
  price: { secure: number; community: number; serverless?: number | undefined; [field: string]: unknown };
  maxCount: { secure: number; community: number; [field: string]: unknown };
  availability?: Availability | undefined;
  dataCenters?: NamedAvailability[] | undefined;
  cudaVersions?: { version: string; available: boolean; [field: string]: unknown }[] | undefined;
  [field: string]: unknown;
}

/** A CPU flavor, its valid vCPU range, RAM per vCPU and stock. */
export interface CpuFlavor {
  id: string;
  name: string;
  group: string;
  vcpu: { min: number; max: number; [field: string]: unknown };
  ramGbPerVcpu: number;
  /** USD per vCPU per hour. */
  price: { securePerVcpu: number; serverlessPerVcpu: number; [field: string]: unknown };
  availability?: Availability | undefined;
  dataCenters?: NamedAvailability[] | undefined;
  [field: string]: unknown;
}

/** A data center, its region, global-networking eligibility and GPU and CPU stock. */
export interface DataCenter {
  id: string;
  name: string;
  region: Region;
  globalNetwork: boolean;
  networkVolumeTypes: string[];
  compliance: string[];
  gpuAvailability?: NamedAvailability[] | undefined;
  cpuAvailability?: NamedAvailability[] | undefined;
  [field: string]: unknown;
}

// ---------------------------------------------------------------- reading it

/** What `GET /v2/catalog/gpus` is asked for. */
export type GpuTypesQuery = {
  include?: readonly "AVAILABILITY"[];
  product?: readonly ("POD" | "CLUSTER" | "SERVERLESS")[];
  count?: number;
  cloud?: "SECURE" | "COMMUNITY";
  countryCodes?: readonly string[];
  cudaVersions?: readonly string[];
  minCudaVersion?: string;
};

/** What `GET /v2/catalog/cpus` is asked for. */
export type CpuFlavorsQuery = {
  include?: readonly "AVAILABILITY"[];
  product?: readonly string[];
};

/** What `GET /v2/catalog/datacenters` is asked for. */
export type DataCentersQuery = {
  include?: readonly ("GPU_AVAILABILITY" | "CPU_AVAILABILITY")[];
  regions?: readonly string[];
  globalNetwork?: boolean;
};

/**
 * The catalog reads candidates are built from: the API's own (`api.catalog`), or a provider host's
 * shared ones (provider/host/context.ts, `SharedReads`), which answer a fleet's pods with one request.
 */
export interface CatalogReader {
  gpuTypes(query?: GpuTypesQuery): Promise<GpuType[]>;
  cpuFlavors(query?: CpuFlavorsQuery): Promise<CpuFlavor[]>;
  dataCenters(query?: DataCentersQuery): Promise<DataCenter[]>;
}

/** A public template; `serverless` tells pod templates from serverless ones. */
export interface PublicTemplate {
  id: string;
  name: string;
  image: string;
  args: string;
  cmd?: string[] | undefined;
  entrypoint?: string[] | undefined;
  disk: number;
  mounts: {
    persistent?: { size: number; path: string; [field: string]: unknown } | undefined;
    [field: string]: unknown;
  };
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
  serverless: boolean;
  public: boolean;
  category: string;
  startSsh: boolean;
  startJupyter: boolean;
  allowedCudaVersions: string[];
  [field: string]: unknown;
}

// Fail the build as soon as a type here and the client's schema stop describing the same object.
true satisfies Same<GpuType, ApiGpuType>;
true satisfies Same<CpuFlavor, ApiCpuFlavor>;
true satisfies Same<DataCenter, ApiDataCenter>;
true satisfies Same<PublicTemplate, ApiTemplate>;
