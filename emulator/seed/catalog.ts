/**
 * The default seed's catalog: data centers in four regions, GPU types with per-data-center stock
 * and CUDA versions, CPU flavors with their stock, and the public templates.
 */
export const H100 = "NVIDIA H100 80GB HBM3";
const H200 = "NVIDIA H200";
export const A100 = "NVIDIA A100 80GB PCIe";
const A40 = "NVIDIA A40";
const L40S = "NVIDIA L40S";
export const RTX4090 = "NVIDIA GeForce RTX 4090";
const A5000 = "NVIDIA RTX A5000";
const L4 = "NVIDIA L4";
const MI300X = "AMD Instinct MI300X OAM";

/**
 * Serverless list price per GPU-hour of each pool: one rate for every GPU type in a pool, as the
 * description says `price.serverless` is "the rate for this GPU's pool".
 */
const POOL_RATES: Record<string, number> = {
  ADA_80_PRO: 4.78,
  HOPPER_141: 6.38,
  AMPERE_80: 2.62,
  AMPERE_48: 0.7,
  ADA_48_PRO: 1.38,
  ADA_24: 1.1,
  AMPERE_24: 0.43,
};

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
    price: { secure, community, ...(pool ? { serverless: POOL_RATES[pool] } : {}) },
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

/** The catalog half of the default seed. */
export function catalogSeed() {
  return {
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
  };
}
