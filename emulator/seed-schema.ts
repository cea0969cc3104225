/**
 * The shape of the emulator's starting world: what `--seed FILE` may replace, key by key, and the
 * defaults a seeded template gets. The catalog records are written here from the v2 description
 * (GpuType, CpuFlavor, DataCenter), without the availability the emulator derives from stock.
 */
import { z } from "zod";
import { ContainerBehaviour } from "./containers.js";
import { Availability, REGIONS } from "./schemas/catalog.js";
import { CLUSTER_TYPES } from "./schemas/clusters.js";

/** A data center (v2 description: DataCenter). */
const SeedDataCenter = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: z.enum(REGIONS),
  globalNetwork: z.boolean(),
  networkVolumeTypes: z.array(z.string()),
  compliance: z.array(z.string()),
});

/** A GPU type (v2 description: GpuType): its pool, memory, clouds, prices and per-pod maximum. */
const SeedGpuType = z.looseObject({
  id: z.string(),
  name: z.string(),
  pool: z.string().nullable(),
  manufacturer: z.string(),
  memory: z.number(),
  secure: z.boolean(),
  community: z.boolean(),
  price: z.looseObject({ secure: z.number(), community: z.number(), serverless: z.number().optional() }),
  maxCount: z.looseObject({ secure: z.int(), community: z.int() }),
});

/** A CPU flavor (v2 description: CpuFlavor): its vCPU range, RAM per vCPU and prices per vCPU. */
const SeedCpuFlavor = z.looseObject({
  id: z.string(),
  name: z.string(),
  group: z.string(),
  vcpu: z.looseObject({ min: z.int(), max: z.int() }),
  ramGbPerVcpu: z.number(),
  price: z.looseObject({ securePerVcpu: z.number(), serverlessPerVcpu: z.number() }),
});

/**
 * A seeded template. Every field but `id` and `source` may be left out and gets the one default
 * given here, the same for the default seed's templates and a `--seed` file's: named after its id,
 * no image or command, a 20 GB disk, no mounts, ports or environment, public, category NVIDIA,
 * SSH provisioned (`startSsh` true), no Jupyter (`startJupyter` false), any CUDA version, no readme.
 * (A template created through `POST /v2/templates` takes that request's defaults instead.)
 */
const SeedTemplate = z
  .looseObject({
    id: z.string(),
    source: z.enum(["official", "verified", "community", "user"]),
    name: z.string().optional(),
    image: z.string().default(""),
    args: z.string().default(""),
    disk: z.number().default(20),
    mounts: z
      .object({ persistent: z.object({ size: z.number(), path: z.string() }).optional() })
      .default(() => ({})),
    ports: z.array(z.string()).default(() => []),
    env: z.record(z.string(), z.string()).default(() => ({})),
    registry: z.string().nullable().default(null),
    serverless: z.boolean().default(false),
    public: z.boolean().default(true),
    category: z.string().default("NVIDIA"),
    startSsh: z.boolean().default(true),
    startJupyter: z.boolean().default(false),
    allowedCudaVersions: z.array(z.string()).default(() => []),
    readme: z.string().default(""),
  })
  .transform(({ id, name, ...t }) => ({ id, name: name ?? id, ...t }));

export const SeedSchema = z.object({
  apiKeys: z.array(
    z.object({
      key: z.string().min(8),
      /** Pools this key may not use: a create matching one answers 403. */
      forbidden: z
        .array(z.object({ dataCenterId: z.string().optional(), gpuTypeId: z.string().optional() }))
        .default([]),
    }),
  ),
  dataCenters: z.array(SeedDataCenter),
  gpuTypes: z.array(SeedGpuType),
  gpuStock: z.array(
    z.object({
      dataCenterId: z.string(),
      gpuTypeId: z.string(),
      total: z.int().min(0),
      free: z.int().min(0).optional(),
      cudaVersions: z.array(z.string()),
      ramPerGpu: z.number(),
      vcpuPerGpu: z.number(),
      /** What the catalog reports, when it should differ from what is really free. */
      availability: Availability.optional(),
    }),
  ),
  cpuFlavors: z.array(SeedCpuFlavor),
  cpuStock: z.array(
    z.object({
      dataCenterId: z.string(),
      cpuFlavorId: z.string(),
      totalVcpu: z.int().min(0),
      free: z.int().min(0).optional(),
    }),
  ),
  templates: z.array(SeedTemplate),
  networkVolumes: z.array(
    z.object({ id: z.string(), name: z.string(), size: z.int(), dataCenter: z.string(), type: z.string() }),
  ),
  globalVolumes: z.array(z.object({ id: z.string(), name: z.string() })),
  sshKeys: z.array(z.string()),
  hostedModels: z.array(z.object({ id: z.string(), kind: z.enum(["image", "video", "audio", "echo"]) })),
  /** Clusters running since the seed was loaded, with their member pods. */
  clusters: z.array(
    z.object({
      id: z.string(),
      name: z.string().optional(),
      type: z.enum(CLUSTER_TYPES).default("RAY"),
      gpuTypeId: z.string(),
      gpuCountPerPod: z.int().min(1).default(8),
      dataCenterId: z.string(),
      members: z.int().min(1),
      image: z.string().default("runpod/ray:2.40.0-gpu"),
    }),
  ),
  /** Registry credentials (`/v2/registries`); username and password are never answered. */
  registries: z
    .array(z.object({ id: z.string(), name: z.string(), username: z.string(), password: z.string() }))
    .default(() => []),
  /**
   * What a container of an image does (containers.ts), first match wins: `start` (the default for
   * any image no rule matches), `imageNotFound`, `unauthorized`, `crashLoop`, `outOfDisk`.
   */
  containerBehaviours: z.array(ContainerBehaviour).default(() => []),
  /**
   * Usage history, hourly rows. The v1 routes read `amount` and their grouping fields; the v2
   * routes split each row into the description's components (`gpuAmount`, `cpuAmount`,
   * `diskAmount`, `feeAmount`, `networkingAmount`, `highPerformanceStorageAmount`), and a row
   * without them counts whole as compute (billing.ts).
   */
  billing: z.object({
    pods: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    /** Serverless endpoints (`endpointId`): v1 `/billing/endpoints`, v2 `/billing/serverless`. */
    endpoints: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    networkVolumes: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    /** Public (hosted model) endpoints: v2 `/billing/endpoints`. */
    publicEndpoints: z.array(z.looseObject({ time: z.string(), amount: z.number() })).default(() => []),
    clusters: z.array(z.looseObject({ time: z.string(), amount: z.number() })).default(() => []),
  }),
  hubListings: z.array(
    z.looseObject({ id: z.string(), repoOwner: z.string(), repoName: z.string(), type: z.string() }),
  ),
});
export type Seed = z.infer<typeof SeedSchema>;
export type SeedInput = z.input<typeof SeedSchema>;
