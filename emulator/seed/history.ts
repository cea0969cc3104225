/**
 * The default seed's history: hourly usage rows behind the billing routes, and the hub listings.
 */
import { createHash } from "node:crypto";

/** A stable opaque id for a seed record: 25 lower-case letters and digits. */
function opaqueId(of: string): string {
  return BigInt(`0x${createHash("sha256").update(of).digest("hex").slice(0, 32)}`)
    .toString(36)
    .padStart(25, "0")
    .slice(-25);
}

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
    repoId: opaqueId(`repo:${repoOwner}/${repoName}`),
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
          build: release.imageName
            ? { id: opaqueId(`build:${id}:${release.imageName}`), imageName: release.imageName }
            : null,
        }
      : null,
  };
}

/** Usage history, hourly rows (billing/usage.ts reads them). */
export function billingSeed() {
  return {
    pods: usage("2026-11-01T00:00:00Z", 20, (h) => {
      // amount = gpuAmount + cpuAmount + diskAmount; disk at $0.10 per GB-month (730 h).
      const rows: Record<string, unknown>[] = [
        {
          podId: "pod-hist-trainer",
          amount: 2.99,
          gpuAmount: 2.979,
          cpuAmount: 0,
          diskAmount: 0.011,
        },
      ];
      if (h % 24 < 10)
        rows.push({
          podId: "pod-hist-notebook",
          amount: 0.69,
          gpuAmount: 0.6873,
          cpuAmount: 0,
          diskAmount: 0.0027,
        });
      if (h >= 240)
        rows.push({
          podId: "pod-hist-cpu",
          amount: round(0.03 * 4),
          gpuAmount: 0,
          cpuAmount: 0.1186,
          diskAmount: 0.0014,
        });
      return rows;
    }),
    endpoints: usage("2026-11-01T00:00:00Z", 20, (h) => [
      {
        endpointId: "ep-hist-sdxl",
        ...serverlessSplit(round(0.0003 * ((h * 37) % 900))),
      },
      ...(h % 2 === 0
        ? [
            {
              endpointId: "ep-hist-vllm",
              ...serverlessSplit(round(0.00076 * ((h * 53) % 1200))),
            },
          ]
        : []),
    ]),
    // Two standard volumes, 100 GB and 50 GB at $0.07 per GB-month: $0.0146 an hour together.
    networkVolumes: usage("2026-11-01T00:00:00Z", 20, () => [
      {
        networkVolumeId: "nv-tx3-datasets",
        amount: 0.0097,
        highPerformanceStorageAmount: 0,
      },
      {
        networkVolumeId: "nv-ro1-models",
        amount: 0.0049,
        highPerformanceStorageAmount: 0,
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
  };
}

/** Public hub listings, some with a release. */
export function hubListingsSeed() {
  return [
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
    listing("hub-draft", "someone", "draft-worker", "SERVERLESS", "LLM", [3, 0, 40], "2026-11-10T10:00:00Z"),
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
  ];
}
