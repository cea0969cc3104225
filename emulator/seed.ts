/**
 * The emulator's starting world: a realistic catalog (data centers in four regions, GPU types with
 * per-data-center stock and CUDA versions, CPU flavors), public templates, volumes, hosted model
 * endpoints, billing history and hub listings. `--seed FILE` replaces any top-level key of this.
 */
import { z } from "zod";
import { Availability, CpuFlavor, DataCenter, GpuType } from "../provider/client/schemas/catalog.js";
import { ContainerBehaviour } from "./containers.js";
import { CLUSTER_TYPES } from "./schemas/clusters.js";

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

const SeedSchema = z.object({
  apiKeys: z.array(
    z.object({
      key: z.string().min(8),
      /** Pools this key may not use: a create matching one answers 403. */
      forbidden: z
        .array(z.object({ dataCenterId: z.string().optional(), gpuTypeId: z.string().optional() }))
        .default([]),
    }),
  ),
  // The catalog's own shapes, without the availability the emulator derives from stock.
  dataCenters: z.array(DataCenter.omit({ gpuAvailability: true, cpuAvailability: true })),
  gpuTypes: z.array(GpuType.omit({ availability: true, dataCenters: true, cudaVersions: true })),
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
  cpuFlavors: z.array(CpuFlavor.omit({ availability: true, dataCenters: true })),
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

export const DEFAULT_API_KEY = "rpa_EMULATOR_TEST_KEY_0000000000000000";
/** A key without access to the H100 pools: creates there answer 403. */
export const LIMITED_API_KEY = "rpa_EMULATOR_LIMITED_KEY_000000000000";

const H100 = "NVIDIA H100 80GB HBM3";
const H200 = "NVIDIA H200";
const A100 = "NVIDIA A100 80GB PCIe";
const A40 = "NVIDIA A40";
const L40S = "NVIDIA L40S";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const A5000 = "NVIDIA RTX A5000";
const L4 = "NVIDIA L4";
const MI300X = "AMD Instinct MI300X OAM";

function gpu(
  id: string,
  pool: string | null,
  memory: number,
  secure: number,
  community: number,
  maxCount = 8,
  manufacturer = "NVIDIA",
) {
  return {
    id,
    name: id.replace(/^(NVIDIA|AMD) (GeForce )?/, ""),
    pool,
    manufacturer,
    memory,
    secure: true,
    community: community > 0,
    price: { secure, community, ...(pool ? { serverless: Math.round(secure * 1.6 * 100) / 100 } : {}) },
    maxCount: { secure: maxCount, community: community > 0 ? Math.min(maxCount, 4) : 0 },
  };
}

/** Stock per (data center, GPU): [total, free, CUDA versions, RAM per GPU, vCPU per GPU]. */
const STOCK: [string, string, number, number, string[], number, number][] = [
  ["US-TX-3", H100, 32, 6, ["12.4", "12.6", "12.8"], 188, 24],
  ["US-TX-3", A100, 24, 10, ["12.2", "12.4"], 117, 16],
  ["US-TX-3", RTX4090, 48, 30, ["12.4", "12.8"], 62, 16],
  ["US-TX-3", A40, 16, 0, ["12.4"], 50, 9],
  ["US-KS-2", H100, 16, 1, ["12.8", "13.0"], 188, 24],
  ["US-KS-2", A40, 24, 12, ["12.2", "12.4"], 50, 9],
  ["US-KS-2", L40S, 16, 9, ["12.4", "12.6"], 94, 16],
  ["US-GA-1", RTX4090, 32, 4, ["12.2", "12.4"], 62, 16],
  ["US-GA-1", A5000, 24, 20, ["11.8", "12.2"], 31, 8],
  ["CA-MTL-1", H200, 8, 3, ["12.6", "12.8"], 256, 24],
  ["CA-MTL-1", A100, 16, 0, ["12.4"], 117, 16],
  ["CA-MTL-1", L4, 16, 12, ["12.2", "12.4"], 50, 12],
  ["EU-RO-1", H100, 24, 10, ["12.4", "12.8"], 188, 24],
  ["EU-RO-1", A40, 32, 20, ["12.4"], 50, 9],
  ["EU-RO-1", RTX4090, 24, 2, ["12.4", "12.6"], 62, 16],
  ["EU-SE-1", A100, 16, 8, ["12.2", "12.4", "12.11"], 117, 16],
  ["EU-SE-1", L40S, 8, 1, ["12.4"], 94, 16],
  ["EUR-IS-1", RTX4090, 24, 16, ["12.4", "12.8"], 62, 16],
  ["EUR-IS-1", MI300X, 8, 4, [], 235, 24],
  ["AP-JP-1", L40S, 8, 6, ["12.4", "12.6"], 94, 16],
  ["AP-JP-1", A5000, 8, 0, ["12.2"], 31, 8],
  ["OC-AU-1", RTX4090, 8, 5, ["12.4"], 62, 16],
];

const CPU_FLAVORS = [
  {
    id: "cpu3c",
    name: "Compute-Optimized",
    group: "cpu3",
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu: 2,
    price: 0.03,
  },
  {
    id: "cpu3g",
    name: "General Purpose",
    group: "cpu3",
    vcpu: { min: 2, max: 32 },
    ramGbPerVcpu: 4,
    price: 0.04,
  },
  {
    id: "cpu3m",
    name: "Memory-Optimized",
    group: "cpu3",
    vcpu: { min: 2, max: 16 },
    ramGbPerVcpu: 8,
    price: 0.06,
  },
  {
    id: "cpu5c",
    name: "Compute-Optimized",
    group: "cpu5",
    vcpu: { min: 2, max: 64 },
    ramGbPerVcpu: 2,
    price: 0.035,
  },
  {
    id: "cpu5g",
    name: "General Purpose",
    group: "cpu5",
    vcpu: { min: 4, max: 64 },
    ramGbPerVcpu: 4,
    price: 0.045,
  },
];

const CPU_DCS = ["US-TX-3", "US-KS-2", "CA-MTL-1", "EU-RO-1", "EU-SE-1"];

/** Hourly usage rows between two instants, deterministic. */
function usage(
  fromIso: string,
  days: number,
  rows: (hourIndex: number, time: string) => Record<string, unknown>[],
) {
  const out: Record<string, unknown>[] = [];
  const start = Date.parse(fromIso);
  for (let h = 0; h < days * 24; h += 1) {
    const time = new Date(start + h * 3_600_000).toISOString().replace(".000Z", "Z");
    for (const r of rows(h, time)) out.push({ time, ...r });
  }
  return out;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** A serverless usage amount split into GPU, disk and platform fee, exactly (in $0.0001 units). */
function serverlessSplit(amount: number) {
  const units = Math.round(amount * 10_000);
  const fee = Math.floor(units / 10);
  const disk = Math.floor(units / 50);
  return {
    amount,
    gpuAmount: (units - fee - disk) / 10_000,
    cpuAmount: 0,
    diskAmount: disk / 10_000,
    feeAmount: fee / 10_000,
  };
}

function listing(
  id: string,
  repoOwner: string,
  repoName: string,
  type: "POD" | "SERVERLESS",
  category: string,
  stats: [stars: number, deploys: number, views: number],
  createdAt: string,
  release?: { imageName: string | null; config: Record<string, unknown>; releasedAt: string },
) {
  return {
    id,
    title: repoName
      .split(/[-_]/)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(" "),
    repoName,
    repoOwner,
    repoOwnerAvatarUrl: `https://avatars.example.invalid/${repoOwner}.png`,
    description: `${repoName} by ${repoOwner}`,
    category,
    type,
    tags: [category.toLowerCase(), type === "SERVERLESS" ? "serverless" : "pod"],
    stars: stats[0],
    deploys: stats[1],
    views: stats[2],
    openIssues: stats[0] % 7,
    watchers: Math.floor(stats[0] / 10),
    language: "Python",
    createdAt,
    updatedAt: release?.releasedAt ?? createdAt,
    listedRelease: release
      ? {
          id: `rel-${id}`,
          name: "v1.0.0",
          tagName: "v1.0.0",
          config: JSON.stringify(release.config),
          deploys: stats[1],
          createdAt: release.releasedAt,
          releasedAt: release.releasedAt,
          updatedAt: release.releasedAt,
          build: release.imageName ? { imageName: release.imageName } : null,
        }
      : null,
  };
}

export function defaultSeed(): Seed {
  return SeedSchema.parse({
    apiKeys: [{ key: DEFAULT_API_KEY }, { key: LIMITED_API_KEY, forbidden: [{ gpuTypeId: H100 }] }],
    dataCenters: [
      [
        "US-TX-3",
        "Texas 3",
        "NORTH_AMERICA",
        true,
        ["STANDARD", "HIGH_PERFORMANCE"],
        ["SOC_2_TYPE_2", "ISO_IEC_27001"],
      ],
      ["US-KS-2", "Kansas 2", "NORTH_AMERICA", true, ["STANDARD"], ["SOC_2_TYPE_2"]],
      ["US-GA-1", "Georgia 1", "NORTH_AMERICA", false, ["STANDARD"], []],
      ["CA-MTL-1", "Montreal 1", "NORTH_AMERICA", true, ["STANDARD", "HIGH_PERFORMANCE"], ["RENEWABLE"]],
      ["EU-RO-1", "Romania 1", "EUROPE", true, ["STANDARD"], ["GDPR", "ISO_IEC_27001"]],
      ["EU-SE-1", "Sweden 1", "EUROPE", false, ["STANDARD"], ["GDPR", "RENEWABLE"]],
      ["EUR-IS-1", "Iceland 1", "EUROPE", false, [], ["GDPR", "RENEWABLE"]],
      ["AP-JP-1", "Japan 1", "ASIA", false, ["STANDARD"], []],
      ["OC-AU-1", "Australia 1", "OCEANIA", false, [], []],
    ].map(([id, name, region, globalNetwork, networkVolumeTypes, compliance]) => ({
      id,
      name,
      region,
      globalNetwork,
      networkVolumeTypes,
      compliance,
    })),
    gpuTypes: [
      gpu(H100, "ADA_80_PRO", 80, 2.99, 2.39),
      gpu(H200, "HOPPER_141", 141, 3.99, 0),
      gpu(A100, "AMPERE_80", 80, 1.64, 1.19),
      gpu(A40, "AMPERE_48", 48, 0.44, 0.35),
      gpu(L40S, "ADA_48_PRO", 48, 0.86, 0.79),
      gpu(RTX4090, "ADA_24", 24, 0.69, 0.34),
      gpu(A5000, "AMPERE_24", 24, 0.27, 0.16),
      gpu(L4, "ADA_24", 24, 0.43, 0.0),
      gpu(MI300X, null, 192, 2.49, 0, 8, "AMD"),
    ],
    gpuStock: STOCK.map(([dataCenterId, gpuTypeId, total, free, cudaVersions, ramPerGpu, vcpuPerGpu]) => ({
      dataCenterId,
      gpuTypeId,
      total,
      free,
      cudaVersions,
      ramPerGpu,
      vcpuPerGpu,
    })),
    cpuFlavors: CPU_FLAVORS.map(({ price, ...f }) => ({
      ...f,
      price: { securePerVcpu: price, serverlessPerVcpu: Math.round(price * 1.4 * 1000) / 1000 },
    })),
    cpuStock: CPU_DCS.flatMap((dc, i) =>
      CPU_FLAVORS.map((f, j) => ({
        dataCenterId: dc,
        cpuFlavorId: f.id,
        totalVcpu: 256,
        free: (i + j) % 4 === 3 ? 0 : 128,
      })),
    ),
    templates: [
      {
        id: "runpod-torch-v240",
        source: "official",
        name: "Runpod Pytorch 2.4.0",
        image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
        ports: ["8888/http", "22/tcp"],
        disk: 20,
        mounts: { persistent: { size: 20, path: "/workspace" } },
        env: { JUPYTER_DIR: "/workspace" },
        startJupyter: true,
        allowedCudaVersions: ["12.4", "12.6", "12.8"],
        readme: "PyTorch 2.4 with CUDA 12.4, JupyterLab on 8888 and SSH on 22.",
      },
      {
        id: "runpod-ubuntu-cpu",
        source: "official",
        name: "Runpod Ubuntu (CPU)",
        image: "runpod/base:0.6.2-cpu",
        ports: ["22/tcp"],
        disk: 10,
        category: "CPU",
        readme: "Ubuntu 22.04 with sshd, for CPU pods.",
      },
      {
        id: "comfyui-community",
        source: "community",
        name: "ComfyUI",
        image: "ghcr.io/ai-dock/comfyui:latest-cuda",
        ports: ["8188/http", "22/tcp"],
        disk: 40,
        env: { WEB_ENABLE_AUTH: "false" },
        allowedCudaVersions: ["12.4"],
      },
      {
        id: "runpod-worker-sdxl",
        source: "official",
        name: "Worker SDXL",
        image: "runpod/worker-sdxl:3.1.0",
        serverless: true,
        disk: 15,
        startSsh: false,
        readme: "Stable Diffusion XL serverless worker.",
      },
      {
        id: "vllm-worker",
        source: "verified",
        name: "vLLM Worker",
        image: "runpod/worker-v1-vllm:v2.4.0",
        serverless: true,
        disk: 30,
        env: { MODEL_NAME: "Qwen/Qwen2.5-7B-Instruct" },
        startSsh: false,
      },
    ],
    networkVolumes: [
      { id: "nv-tx3-datasets", name: "datasets", size: 100, dataCenter: "US-TX-3", type: "STANDARD" },
      { id: "nv-ro1-models", name: "models", size: 50, dataCenter: "EU-RO-1", type: "STANDARD" },
    ],
    globalVolumes: [{ id: "gv-shared-cache", name: "shared-cache" }],
    sshKeys: [],
    hostedModels: [
      { id: "black-forest-labs-flux-1-schnell", kind: "image" },
      { id: "wan-2-2-t2v-720", kind: "video" },
      { id: "minimax-speech-02-hd", kind: "audio" },
    ],
    clusters: [{ id: "clu-demo-ray", gpuTypeId: H100, dataCenterId: "US-TX-3", members: 2 }],
    billing: {
      pods: usage("2026-11-01T00:00:00Z", 20, (h) => {
        // amount = gpuAmount + cpuAmount + diskAmount; disk at $0.10 per GB-month (730 h).
        const rows: Record<string, unknown>[] = [
          {
            podId: "pod-hist-trainer",
            gpuTypeId: H100,
            amount: 2.99,
            gpuAmount: 2.979,
            cpuAmount: 0,
            diskAmount: 0.011,
            timeBilledMs: 3_600_000,
            diskSpaceBilledGb: 80,
          },
        ];
        if (h % 24 < 10)
          rows.push({
            podId: "pod-hist-notebook",
            gpuTypeId: RTX4090,
            amount: 0.69,
            gpuAmount: 0.6873,
            cpuAmount: 0,
            diskAmount: 0.0027,
            timeBilledMs: 3_600_000,
            diskSpaceBilledGb: 20,
          });
        if (h >= 240)
          rows.push({
            podId: "pod-hist-cpu",
            gpuTypeId: "cpu3c",
            amount: round(0.03 * 4),
            gpuAmount: 0,
            cpuAmount: 0.1186,
            diskAmount: 0.0014,
            timeBilledMs: 3_600_000,
            diskSpaceBilledGb: 10,
          });
        return rows;
      }),
      endpoints: usage("2026-11-01T00:00:00Z", 20, (h) => [
        {
          endpointId: "ep-hist-sdxl",
          podId: `worker-${h % 3}`,
          gpuTypeId: RTX4090,
          ...serverlessSplit(round(0.0003 * ((h * 37) % 900))),
          timeBilledMs: ((h * 37) % 900) * 1000,
        },
        ...(h % 2 === 0
          ? [
              {
                endpointId: "ep-hist-vllm",
                podId: "worker-9",
                gpuTypeId: A100,
                ...serverlessSplit(round(0.00076 * ((h * 53) % 1200))),
                timeBilledMs: ((h * 53) % 1200) * 1000,
              },
            ]
          : []),
      ]),
      // Two standard volumes, 100 GB and 50 GB at $0.07 per GB-month: $0.0146 an hour together.
      networkVolumes: usage("2026-11-01T00:00:00Z", 20, () => [
        {
          networkVolumeId: "nv-tx3-datasets",
          amount: 0.0097,
          diskSpaceBilledGb: 100,
          highPerformanceStorageAmount: 0,
          highPerformanceStorageDiskSpaceBilledGb: 0,
        },
        {
          networkVolumeId: "nv-ro1-models",
          amount: 0.0049,
          diskSpaceBilledGb: 50,
          highPerformanceStorageAmount: 0,
          highPerformanceStorageDiskSpaceBilledGb: 0,
        },
      ]),
      // Hosted models: FLUX images every third hour, a Wan video every eighth.
      publicEndpoints: usage("2026-11-01T00:00:00Z", 20, (h) => [
        ...(h % 3 === 0
          ? [{ endpointId: "black-forest-labs-flux-1-schnell", amount: round(0.0025 * (1 + (h % 5))) }]
          : []),
        ...(h % 8 === 0 ? [{ endpointId: "wan-2-2-t2v-720", amount: 0.3 }] : []),
      ]),
      // The seeded Ray cluster (2 pods of 8 H100) over the last four days of the history.
      clusters: usage("2026-11-17T00:00:00Z", 4, () => [
        {
          clusterId: "clu-demo-ray",
          gpuAmount: 47.84,
          diskAmount: 0.0137,
          networkingAmount: 0.05,
          amount: 47.9037,
        },
      ]),
    },
    registries: [],
    containerBehaviours: [
      { image: "emulator/image-not-found*", kind: "imageNotFound" },
      { image: "emulator/private*", kind: "unauthorized" },
      { image: "emulator/crash-loop*", kind: "crashLoop" },
      { image: "emulator/out-of-disk*", kind: "outOfDisk", sizeGb: 50 },
    ],
    hubListings: [
      listing(
        "hub-vllm",
        "runpod-workers",
        "worker-vllm",
        "SERVERLESS",
        "LLM",
        [1240, 15300, 98000],
        "2024-03-02T10:00:00Z",
        {
          imageName: "runpod/worker-v1-vllm:v2.4.0",
          config: {
            runsOn: "GPU",
            containerDiskInGb: 30,
            gpuIds: "AMPERE_80,ADA_80_PRO",
            gpuCount: 1,
            allowedCudaVersions: ["12.4"],
            env: [
              { key: "MODEL_NAME", input: { default: "Qwen/Qwen2.5-7B-Instruct" } },
              { key: "MAX_MODEL_LEN", input: { default: 8192 } },
            ],
          },
          releasedAt: "2026-10-30T12:00:00Z",
        },
      ),
      listing(
        "hub-sdxl",
        "runpod-workers",
        "worker-sdxl",
        "SERVERLESS",
        "Image",
        [860, 22100, 120000],
        "2023-11-12T10:00:00Z",
        {
          imageName: "runpod/worker-sdxl:3.1.0",
          config: { runsOn: "GPU", containerDiskInGb: 15, gpuIds: "ADA_24", gpuCount: 1, env: [] },
          releasedAt: "2026-09-14T09:00:00Z",
        },
      ),
      listing(
        "hub-comfy",
        "comfy-org",
        "comfyui-worker",
        "SERVERLESS",
        "Image",
        [2310, 9100, 140000],
        "2024-06-20T10:00:00Z",
        {
          imageName: "ghcr.io/comfy-org/comfyui-worker:5.0.1",
          config: {
            runsOn: "GPU",
            containerDiskInGb: 40,
            gpuIds: "ADA_24,AMPERE_48",
            env: [{ key: "COMFY_POLL_MS", input: { default: 250 } }],
          },
          releasedAt: "2026-11-02T09:00:00Z",
        },
      ),
      listing(
        "hub-whisper",
        "runpod-workers",
        "worker-faster-whisper",
        "SERVERLESS",
        "Audio",
        [540, 7400, 41000],
        "2023-12-01T10:00:00Z",
        {
          imageName: "runpod/worker-faster-whisper:1.2.0",
          config: { runsOn: "GPU", containerDiskInGb: 20, gpuIds: "AMPERE_24", env: [] },
          releasedAt: "2026-08-01T09:00:00Z",
        },
      ),
      listing(
        "hub-embed",
        "infinity-ai",
        "infinity-embeddings",
        "SERVERLESS",
        "Embedding",
        [210, 1900, 12000],
        "2024-09-01T10:00:00Z",
        {
          imageName: null,
          config: { runsOn: "GPU", containerDiskInGb: 10, gpuIds: "ADA_24" },
          releasedAt: "2026-11-19T09:00:00Z",
        },
      ),
      listing(
        "hub-draft",
        "someone",
        "draft-worker",
        "SERVERLESS",
        "LLM",
        [3, 0, 40],
        "2026-11-10T10:00:00Z",
      ),
      listing(
        "hub-cpu-tts",
        "tts-lab",
        "piper-tts-cpu",
        "SERVERLESS",
        "Audio",
        [95, 800, 5000],
        "2025-02-01T10:00:00Z",
        {
          imageName: "ghcr.io/tts-lab/piper-cpu:0.9",
          config: { runsOn: "CPU", containerDiskInGb: 5, env: [] },
          releasedAt: "2026-07-07T09:00:00Z",
        },
      ),
      listing(
        "hub-jupyter",
        "runpod",
        "pytorch-notebook",
        "POD",
        "Development",
        [1780, 54000, 300000],
        "2023-05-05T10:00:00Z",
        {
          imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
          config: { containerDiskInGb: 20, gpuIds: "ADA_24" },
          releasedAt: "2026-06-01T09:00:00Z",
        },
      ),
      listing(
        "hub-comfy-pod",
        "comfy-org",
        "comfyui-pod",
        "POD",
        "Image",
        [1520, 31000, 210000],
        "2024-02-14T10:00:00Z",
        {
          imageName: "ghcr.io/comfy-org/comfyui:latest-cuda",
          config: { containerDiskInGb: 40, gpuIds: "ADA_24" },
          releasedAt: "2026-10-10T09:00:00Z",
        },
      ),
      listing(
        "hub-ollama",
        "ollama-community",
        "ollama-pod",
        "POD",
        "LLM",
        [990, 12500, 87000],
        "2024-04-04T10:00:00Z",
        {
          imageName: "ollama/ollama:0.12.0",
          config: { containerDiskInGb: 50, gpuIds: "AMPERE_48" },
          releasedAt: "2026-09-09T09:00:00Z",
        },
      ),
      listing(
        "hub-axolotl",
        "axolotl-ai",
        "axolotl-trainer",
        "POD",
        "Training",
        [670, 4300, 33000],
        "2024-07-07T10:00:00Z",
        {
          imageName: "axolotlai/axolotl:main-latest",
          config: { containerDiskInGb: 100, gpuIds: "AMPERE_80" },
          releasedAt: "2026-10-21T09:00:00Z",
        },
      ),
      listing(
        "hub-flux-lora",
        "ostris",
        "flux-lora-trainer",
        "SERVERLESS",
        "Training",
        [430, 2600, 25000],
        "2025-01-15T10:00:00Z",
        {
          imageName: "ostris/ai-toolkit:1.0.4",
          config: { runsOn: "GPU", containerDiskInGb: 60, gpuIds: "ADA_80_PRO", gpuCount: 1, env: [] },
          releasedAt: "2026-11-05T09:00:00Z",
        },
      ),
    ],
  });
}

/** The default seed with any top-level keys of `overrides` replacing its own. */
/**
 * What is wrong with a seed file's content, one line per problem (`path: rule`): not an object, a
 * top-level key the seed does not have (a typo would otherwise be ignored), a value of the wrong
 * shape. Empty when `mergeSeed` takes it.
 */
export function seedProblems(input: unknown): string[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return ["the seed must be a JSON object whose top-level keys replace the default seed's"];
  }
  const known = Object.keys(SeedSchema.shape);
  const unknown = Object.keys(input).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    return unknown.map((k) => `${k}: not a seed key (the seed has ${known.join(", ")})`);
  }
  const parsed = SeedSchema.safeParse({ ...defaultSeed(), ...input });
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(the seed)"}: ${i.message}`);
}

export function mergeSeed(overrides: Partial<SeedInput> | undefined): Seed {
  if (!overrides) return defaultSeed();
  return SeedSchema.parse({ ...defaultSeed(), ...overrides });
}
