/**
 * The shape of the emulator's starting world: what `--seed FILE` may replace, key by key, and the
 * defaults a seeded template gets. The catalog records are written here from the v2 description
 * (GpuType, CpuFlavor, DataCenter), without the availability the emulator derives from stock.
 */
import { z } from "zod";
import { Availability, REGIONS } from "../schemas/catalog.js";
import { CLUSTER_TYPES } from "../schemas/clusters.js";
import { ContainerBehaviour } from "../schemas/container-behaviour.js";

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
    /**
     * A user template's account (account/accounts.ts); the default user's when not given. Public
     * ones have none.
     */
    account: z.string().min(1).optional(),
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
      /** The user the key belongs to; without one, the default user (account/accounts.ts). */
      userId: z.string().min(1).optional(),
      /** A key created inside a team acts for that team and needs no X-Team-Id (docs/api-model.md, Authentication 4). */
      teamId: z.string().min(1).optional(),
      /** A rate-limit-exempt caller: no quota, and no RateLimit headers (docs/api-model.md, Limits). */
      rateLimitExempt: z.boolean().default(false),
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
    z.object({
      id: z.string(),
      name: z.string(),
      size: z.int(),
      dataCenter: z.string(),
      type: z.string(),
      /** The account that owns it (account/accounts.ts). @default the default user */
      account: z.string().min(1).optional(),
    }),
  ),
  globalVolumes: z.array(z.object({ id: z.string(), name: z.string() })),
  sshKeys: z.array(z.string()),
  /**
   * Teams: their owner and members (user ids). A member's request with `X-Team-Id: <id>` acts for
   * the team; anyone else's runs against their own account (docs/api-model.md, Authentication 3).
   */
  teams: z
    .array(
      z.object({
        id: z.string().min(1),
        name: z.string().optional(),
        ownerId: z.string().min(1),
        memberIds: z.array(z.string().min(1)).default(() => []),
      }),
    )
    .default(() => []),
  hostedModels: z.array(z.object({ id: z.string(), kind: z.enum(["image", "video", "audio", "echo"]) })),
  /**
   * Pods that exist when the seed is loaded, RUNNING or stopped (EXITED) since then and billed
   * from then on (the default seed's are the pods its billing history bills). Like the seeded
   * clusters' members they hold no stock: the seed's stock figures are what is free besides them.
   */
  pods: z
    .array(
      z
        .object({
          id: z.string().min(1),
          name: z.string().min(1),
          image: z.string().min(1),
          gpu: z.object({ id: z.string(), count: z.int().min(1).default(1) }).optional(),
          cpu: z.object({ id: z.string(), vcpuCount: z.int().min(2) }).optional(),
          cloud: z.enum(["SECURE", "COMMUNITY"]).default("SECURE"),
          dataCenterId: z.string(),
          disk: z.int().min(1).default(20),
          persistent: z.object({ size: z.int().min(10), path: z.string() }).optional(),
          status: z.enum(["RUNNING", "EXITED"]).default("RUNNING"),
          account: z.string().min(1).optional(),
        })
        .refine(
          (p) => (p.gpu === undefined) !== (p.cpu === undefined),
          "a pod has exactly one of gpu or cpu",
        ),
    )
    .default(() => []),
  /**
   * Serverless endpoints that exist when the seed is loaded (QUEUE, scaled by queue delay; the
   * default seed's are the endpoints its billing history bills). Their workers bill from then on.
   */
  endpoints: z
    .array(
      z
        .object({
          id: z.string().min(1),
          name: z.string().min(1),
          image: z.string().min(1),
          gpu: z.object({ pools: z.array(z.string()).min(1), count: z.int().min(1).default(1) }).optional(),
          cpu: z.array(z.object({ id: z.string(), vcpuCount: z.int().min(2) })).optional(),
          workers: z
            .object({
              min: z.int().min(0).default(0),
              max: z.int().min(0).default(3),
              idleTimeout: z.int().min(1).default(10),
            })
            .default(() => ({ min: 0, max: 3, idleTimeout: 10 })),
          account: z.string().min(1).optional(),
        })
        .refine(
          (e) => (e.gpu === undefined) !== (e.cpu === undefined),
          "an endpoint has exactly one of gpu or cpu",
        ),
    )
    .default(() => []),
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
   * What a container of an image does (pods/containers.ts), first match wins: `start` (the default for
   * any image no rule matches), `imageNotFound`, `unauthorized`, `crashLoop`, `outOfDisk`.
   */
  containerBehaviours: z.array(ContainerBehaviour).default(() => []),
  /**
   * Usage history, hourly rows. The billing routes split each row into the description's
   * components (`gpuAmount`, `cpuAmount`, `diskAmount`, `feeAmount`, `networkingAmount`,
   * `highPerformanceStorageAmount`), and a row without them counts whole as compute: CPU for a pod
   * row whose `gpuTypeId` is a CPU flavor, else GPU (billing/routes.ts). A row belongs to the
   * account its `account` names, the default user's when it names none (billing/usage.ts).
   */
  billing: z.object({
    pods: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    /** Serverless endpoints (`endpointId`): `/v2/billing/serverless`. */
    endpoints: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    networkVolumes: z.array(z.looseObject({ time: z.string(), amount: z.number() })),
    /** Public (hosted model) endpoints: `/v2/billing/endpoints`. */
    publicEndpoints: z.array(z.looseObject({ time: z.string(), amount: z.number() })).default(() => []),
    clusters: z.array(z.looseObject({ time: z.string(), amount: z.number() })).default(() => []),
  }),
  hubListings: z.array(
    z.looseObject({ id: z.string(), repoOwner: z.string(), repoName: z.string(), type: z.string() }),
  ),
});
export type Seed = z.infer<typeof SeedSchema>;
export type SeedInput = z.input<typeof SeedSchema>;
