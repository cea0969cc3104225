/**
 * The cost estimate (provider/cost/estimate.ts), rule by rule, against two price lists: a
 * hand-written catalog that has every edge (a type offered in one cloud only, pools of several
 * types, data centers with one, two or no volume tiers), and the emulator's default seed as its
 * own catalog routes serve it. Expected figures are written from the catalog's numbers and
 * RunPod's published storage rates, not from the code.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadDist } from "../support/dist.js";
import { frozenEmulator } from "../support/emulator.js";

const { estimate, fromSnapshot } = loadDist<typeof import("../../provider/review.js")>("provider/review.js");
const { priceList } = loadDist<typeof import("../../provider/cost/prices.js")>("provider/cost/prices.js");
const { toSnapshot } = loadDist<typeof import("../../provider/cost/price-snapshot.js")>(
  "provider/cost/price-snapshot.js",
);
const { rankCandidates } = loadDist<typeof import("../../provider/catalog/candidates.js")>(
  "provider/catalog/candidates.js",
);
type Estimate = import("../../provider/review.js").Estimate;
type PriceList = import("../../provider/review.js").PriceList;

const T = "pulumi-nodejs:dynamic/runpod:";
/** USD per hour of `gb` at `usdPerGbMonth`, over the 30-day month of 720 hours. */
const storage = (gb: number, usdPerGbMonth: number) => (gb * usdPerGbMonth) / 720;

const gpu = (id: string, pool: string | null, secure: number, community: number, serverless?: number) => ({
  id,
  name: id,
  pool,
  manufacturer: "NVIDIA",
  memory: 48,
  secure: secure > 0,
  community: community > 0,
  price: { secure, community, ...(serverless === undefined ? {} : { serverless }) },
  maxCount: { secure: 8, community: 4 },
});

const HAND = priceList(
  {
    gpus: [
      gpu("T-A", "P1", 1.0, 0.5, 2.0),
      gpu("T-B", "P1", 3.0, 0, 2.0),
      gpu("T-C", "P2", 1.1, 0.9, 1.2),
      gpu("T-D", "P2", 1.4, 1.0, 1.5),
      gpu("T-X", null, 5.0, 0),
    ],
    cpus: [
      {
        id: "c1",
        name: "Compute",
        group: "g",
        vcpu: { min: 2, max: 32 },
        ramGbPerVcpu: 2,
        price: { securePerVcpu: 0.05, serverlessPerVcpu: 0.07 },
      },
    ],
    dataCenters: [
      {
        id: "DC-1",
        name: "One",
        region: "EUROPE",
        globalNetwork: true,
        networkVolumeTypes: ["STANDARD"],
        compliance: [],
      },
      {
        id: "DC-2",
        name: "Two",
        region: "EUROPE",
        globalNetwork: false,
        networkVolumeTypes: ["STANDARD", "HIGH_PERFORMANCE"],
        compliance: [],
      },
      {
        id: "DC-3",
        name: "Three",
        region: "ASIA",
        globalNetwork: false,
        networkVolumeTypes: [],
        compliance: [],
      },
    ],
  },
  "hand-written",
  "2026-11-01T00:00:00Z",
);

const r = (n: number) => Math.round(n * 1e10) / 1e10;

/** The estimate's figures rounded to 10 decimals, so float noise in a sum never decides a test. */
function rounded(e: Estimate): unknown {
  if (e.kind !== "priced") return e;
  return {
    kind: e.kind,
    hourly: { low: r(e.hourly.low), high: r(e.hourly.high) },
    billedHourly: e.billedHourly,
    notes: e.notes,
    gpus: e.gpus,
  };
}

const priced = (
  low: number,
  high = low,
  extra: { billedHourly?: number; notes?: string[]; gpus?: unknown[] } = {},
) =>
  rounded({
    kind: "priced",
    hourly: { low, high },
    parts: [],
    billedHourly: extra.billedHourly ?? null,
    notes: extra.notes ?? [],
    gpus: (extra.gpus ?? []) as { id: string; hourly: number }[],
  });

const NO_DISK = "container disk: its size comes from the template or the API's default; not included";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const pod = (inputs: Record<string, unknown>, live?: Record<string, unknown>) => ({
  type: `${T}Pod`,
  inputs: { name: "p", image: "i", ...inputs },
  ...(live ? { live } : {}),
});

describe("Pod", () => {
  it.each<[string, ReturnType<typeof pod>, unknown]>([
    [
      "one GPU in the Secure cloud (the default), no disk declared",
      pod({ gpu: { id: "T-A" } }),
      priced(1.0, 1.0, { notes: [NO_DISK], gpus: [{ id: "T-A", hourly: 1.0 }] }),
    ],
    [
      "with autostop: a note of what an idle spell bills before the pod stops (the window at its rate)",
      pod({ gpu: { id: "T-A", count: 2 }, disk: 0, autostop: { idleMinutes: 90 } }),
      priced(2.0, 2.0, {
        notes: [
          "autostop: stopped after 90 min with every GPU under 5 %, so an idle spell bills about $3.00 before it stops",
        ],
        gpus: [{ id: "T-A", hourly: 1.0 }],
      }),
    ],
    [
      "with autostop, stopped: nothing to cap, no note",
      pod({ gpu: { id: "T-A" }, disk: 0, desiredStatus: "STOPPED", autostop: {} }),
      priced(0, 0, { gpus: [{ id: "T-A", hourly: 1.0 }] }),
    ],
    [
      "two GPUs in the Community cloud with a 40 GB container disk",
      pod({ gpu: { id: "T-A", count: 2 }, cloud: "COMMUNITY", disk: 40 }),
      priced(2 * 0.5 + storage(40, 0.1), 2 * 0.5 + storage(40, 0.1), { gpus: [{ id: "T-A", hourly: 0.5 }] }),
    ],
    [
      "a volume disk is billed like the container disk while running",
      pod({ gpu: { id: "T-A" }, disk: 10, mounts: { persistent: { size: 50, path: "/w" } } }),
      priced(1.0 + storage(60, 0.1), 1.0 + storage(60, 0.1), { gpus: [{ id: "T-A", hourly: 1.0 }] }),
    ],
    [
      "catalog candidates: a range from the cheapest GPU type to the dearest",
      pod({ gpu: { id: "T-A" }, disk: 0, placement: { regions: ["EUROPE"], gpuTypeIds: ["T-B"] } }),
      priced(1.0, 3.0, {
        gpus: [
          { id: "T-A", hourly: 1.0 },
          { id: "T-B", hourly: 3.0 },
        ],
      }),
    ],
    [
      "explicit candidates: each candidate's GPU type, gpu.id where it names none",
      pod({
        gpu: { id: "T-C", count: 2 },
        disk: 0,
        placement: { candidates: [{ dataCenterId: "DC-1" }, { dataCenterId: "DC-2", gpuTypeId: "T-D" }] },
      }),
      priced(2.2, 2.8, {
        gpus: [
          { id: "T-C", hourly: 1.1 },
          { id: "T-D", hourly: 1.4 },
        ],
      }),
    ],
    [
      "a candidate not offered in the pod's cloud is left out of the range",
      pod({ gpu: { id: "T-A" }, cloud: "COMMUNITY", disk: 0, placement: { gpuTypeIds: ["T-B"] } }),
      priced(0.5, 0.5, { gpus: [{ id: "T-A", hourly: 0.5 }] }),
    ],
    [
      "placed: the GPU type it runs on (outputs), and what RunPod bills",
      pod(
        { gpu: { id: "T-A" }, disk: 0, placement: { gpuTypeIds: ["T-B"] } },
        { status: "RUNNING", gpu: { id: "T-B", count: 1 }, cloud: "SECURE", cost: 3.0 },
      ),
      priced(3.0, 3.0, { billedHourly: 3.0, gpus: [{ id: "T-B", hourly: 3.0 }] }),
    ],
    [
      "stopped: the GPU is not billed, the volume disk at the stopped rate, the container disk not at all",
      pod({
        gpu: { id: "T-A" },
        disk: 10,
        desiredStatus: "STOPPED",
        mounts: { persistent: { size: 20, path: "/w" } },
      }),
      priced(storage(20, 0.2), storage(20, 0.2), { gpus: [{ id: "T-A", hourly: 1.0 }] }),
    ],
    [
      "a CPU pod: the flavor's rate per vCPU",
      pod({ cpu: { id: "c1", vcpuCount: 4 }, disk: 10 }),
      priced(4 * 0.05 + storage(10, 0.1)),
    ],
    [
      "a global volume is billed by use: named, not included",
      pod({ cpu: { id: "c1", vcpuCount: 2 }, disk: 0, mounts: { global: [{ volumeId: "g" }] } }),
      priced(0.1, 0.1, { notes: ["global volume: billed by use, not included"] }),
    ],
    [
      "gpu.id unknown in preview: unknown, never zero",
      pod({ gpu: { id: UNKNOWN } }),
      { kind: "unknown", field: "gpu.id", reason: "gpu.id is not known until the change is applied" },
    ],
    [
      "gpu.count a secret in the preview's JSON",
      pod({ gpu: { id: "T-A", count: "[secret]" } }),
      { kind: "unknown", field: "gpu.count", reason: "gpu.count is a secret" },
    ],
    [
      "the whole placement unknown",
      pod({ gpu: { id: "T-A" }, placement: UNKNOWN }),
      { kind: "unknown", field: "placement", reason: "placement is not known until the change is applied" },
    ],
    [
      "a GPU type the catalog lacks",
      pod({ gpu: { id: "NVIDIA B999" } }),
      {
        kind: "error",
        field: "gpu.id",
        reason: 'GPU type "NVIDIA B999" is not in the catalog (hand-written)',
      },
    ],
    [
      "a fallback GPU type the catalog lacks, named by its field",
      pod({ gpu: { id: "T-A" }, placement: { gpuTypeIds: ["T-B", "T-Z"] } }),
      {
        kind: "error",
        field: "placement.gpuTypeIds[1]",
        reason: 'GPU type "T-Z" is not in the catalog (hand-written)',
      },
    ],
    [
      "no candidate offered in the Community cloud",
      pod({ gpu: { id: "T-B" }, cloud: "COMMUNITY" }),
      {
        kind: "error",
        field: "gpu.id",
        reason: "no GPU type this pod may use is offered in the COMMUNITY cloud",
      },
    ],
    [
      "a CPU flavor in the Community cloud has no price",
      pod({ cpu: { id: "c1", vcpuCount: 2 }, cloud: "COMMUNITY" }),
      {
        kind: "error",
        field: "cloud",
        reason: "the catalog prices CPU flavors for the SECURE cloud only, not COMMUNITY",
      },
    ],
  ])("%s", (_name, resource, expected) => {
    expect(rounded(estimate(resource, HAND))).toEqual(expected);
  });
});

describe("Cluster, ServerlessEndpoint, NetworkVolume and the rest", () => {
  const CLUSTER_NOTE = "the members' disks and the cluster's networking are billed on top and not included";
  const floor = (min: number, max: number) =>
    `floor: ${min} always-on worker${min === 1 ? "" : "s"}; ceiling: ${max} workers busy; the rest bill only while they handle requests`;
  it.each<
    [string, { type: string; inputs: Record<string, unknown>; live?: Record<string, unknown> }, unknown]
  >([
    [
      "a cluster: every member at the Secure rate",
      { type: `${T}Cluster`, inputs: { compute: { gpuTypeId: "T-A", gpuCountPerPod: 4, podCount: 2 } } },
      priced(8.0, 8.0, { notes: [CLUSTER_NOTE], gpus: [{ id: "T-A", hourly: 1.0 }] }),
    ],
    [
      "a cluster of a GPU type the catalog lacks",
      { type: `${T}Cluster`, inputs: { compute: { gpuTypeId: "T-Q", gpuCountPerPod: 1, podCount: 2 } } },
      {
        kind: "error",
        field: "compute.gpuTypeId",
        reason: 'GPU type "T-Q" is not in the catalog (hand-written)',
      },
    ],
    [
      "an endpoint with the default workers (0 to 3) on one pool",
      { type: `${T}ServerlessEndpoint`, inputs: { name: "e", gpu: { pools: ["P1"] } } },
      priced(0, 6.0, {
        notes: [floor(0, 3)],
        gpus: [
          { id: "T-A", hourly: 2.0 },
          { id: "T-B", hourly: 2.0 },
        ],
      }),
    ],
    [
      "an endpoint's floor at workers.min, its ceiling at workers.max, excluded types left out",
      {
        type: `${T}ServerlessEndpoint`,
        inputs: {
          name: "e",
          gpu: { pools: ["P2"], excludedTypes: ["T-D"], count: 2 },
          workers: { min: 1, max: 2 },
        },
      },
      priced(2.4, 4.8, { notes: [floor(1, 2)], gpus: [{ id: "T-C", hourly: 1.2 }] }),
    ],
    [
      "an endpoint over two pools ranges from the cheaper to the dearer",
      {
        type: `${T}ServerlessEndpoint`,
        inputs: { name: "e", gpu: { pools: ["P2", "P1"] }, workers: { min: 1, max: 1 } },
      },
      priced(1.2, 2.0, {
        notes: [floor(1, 1)],
        gpus: [
          { id: "T-C", hourly: 1.2 },
          { id: "T-D", hourly: 1.5 },
          { id: "T-A", hourly: 2.0 },
          { id: "T-B", hourly: 2.0 },
        ],
      }),
    ],
    [
      "a CPU endpoint: the flavors' serverless rate per vCPU",
      {
        type: `${T}ServerlessEndpoint`,
        inputs: {
          name: "e",
          cpu: [
            { id: "c1", vcpuCount: 4 },
            { id: "c1", vcpuCount: 8 },
          ],
          workers: { min: 0, max: 2 },
        },
      },
      priced(0, 2 * 8 * 0.07, { notes: [floor(0, 2)] }),
    ],
    [
      "a pool the catalog does not have",
      { type: `${T}ServerlessEndpoint`, inputs: { name: "e", gpu: { pools: ["P1", "NOPE"] } } },
      {
        kind: "error",
        field: "gpu.pools[1]",
        reason: '"NOPE" is not a serverless pool in the catalog (hand-written)',
      },
    ],
    [
      "workers.max unknown in preview",
      {
        type: `${T}ServerlessEndpoint`,
        inputs: { name: "e", gpu: { pools: ["P1"] }, workers: { max: UNKNOWN } },
      },
      {
        kind: "unknown",
        field: "workers.max",
        reason: "workers.max is not known until the change is applied",
      },
    ],
    [
      "a STANDARD network volume",
      { type: `${T}NetworkVolume`, inputs: { name: "v", size: 100, dataCenterId: "DC-2", type: "STANDARD" } },
      priced(storage(100, 0.07)),
    ],
    [
      "beyond 1 TB the lower rate",
      {
        type: `${T}NetworkVolume`,
        inputs: { name: "v", size: 1500, dataCenterId: "DC-1", type: "STANDARD" },
      },
      priced(storage(1000, 0.07) + storage(500, 0.05)),
    ],
    [
      "no tier given, in a data center with one: that tier",
      { type: `${T}NetworkVolume`, inputs: { name: "v", size: 10, dataCenterId: "DC-1" } },
      priced(storage(10, 0.07)),
    ],
    [
      "no tier given, in a data center with two: unknown until it exists",
      { type: `${T}NetworkVolume`, inputs: { name: "v", size: 10, dataCenterId: "DC-2" } },
      {
        kind: "unknown",
        field: "type",
        reason:
          "DC-2 offers STANDARD and HIGH_PERFORMANCE volume tiers; the volume gets its default, known once it exists: set type",
      },
    ],
    [
      "existing, its tier from its outputs",
      {
        type: `${T}NetworkVolume`,
        inputs: { name: "v", size: 10, dataCenterId: "DC-2" },
        live: { volumeId: "v1", size: 10, dataCenterId: "DC-2", type: "STANDARD" },
      },
      priced(storage(10, 0.07)),
    ],
    [
      "HIGH_PERFORMANCE has no published rate",
      {
        type: `${T}NetworkVolume`,
        inputs: { name: "v", size: 10, dataCenterId: "DC-2", type: "HIGH_PERFORMANCE" },
      },
      { kind: "not-priced", reason: "RunPod publishes no rate for HIGH_PERFORMANCE network volumes" },
    ],
    [
      "a data center the catalog lacks",
      { type: `${T}NetworkVolume`, inputs: { name: "v", size: 10, dataCenterId: "DC-9" } },
      {
        kind: "error",
        field: "dataCenterId",
        reason: 'data center "DC-9" is not in the catalog (hand-written)',
      },
    ],
    [
      "an SSH key",
      { type: `${T}SshKey`, inputs: { publicKey: "ssh-ed25519 AAAA" } },
      { kind: "no-charge", reason: "an account SSH key is not billed" },
    ],
    [
      "an account secret",
      { type: `${T}Secret`, inputs: { name: "hf-token" } },
      { kind: "no-charge", reason: "an account secret is not billed" },
    ],
    [
      "a job",
      { type: `${T}ServerlessJob`, inputs: { endpointId: "e" } },
      {
        kind: "no-charge",
        reason: "a job is billed as its endpoint's worker time, within the endpoint's range",
      },
    ],
    [
      "another provider's resource",
      { type: "aws:s3/bucket:Bucket", inputs: {} },
      { kind: "not-priced", reason: "not a RunPod resource" },
    ],
  ])("%s", (_name, resource, expected) => {
    expect(rounded(estimate(resource, HAND))).toEqual(expected);
  });
});

describe("against the emulator's default seed, read through its catalog routes", () => {
  let seed: PriceList;
  beforeAll(async () => {
    const { emu, api } = await frozenEmulator();
    const [gpus, cpus, dataCenters] = await Promise.all([
      api.catalog.gpuTypes(),
      api.catalog.cpuFlavors(),
      api.catalog.dataCenters(),
    ]);
    seed = priceList({ gpus, cpus, dataCenters }, emu.baseUrl, "2026-11-01T00:00:00Z");
    await emu.close();
  });

  it.each<[string, { type: string; inputs: Record<string, unknown> }, number, number]>([
    // The quickstart's pod: an H100 at $2.99 with a 40 GB container disk.
    [
      "an H100 pod",
      { type: `${T}Pod`, inputs: { gpu: { id: "NVIDIA H100 80GB HBM3" }, disk: 40 } },
      2.99 + storage(40, 0.1),
      2.99 + storage(40, 0.1),
    ],
    [
      "two RTX 4090s in the Community cloud",
      {
        type: `${T}Pod`,
        inputs: { gpu: { id: "NVIDIA GeForce RTX 4090", count: 2 }, cloud: "COMMUNITY", disk: 0 },
      },
      0.68,
      0.68,
    ],
    [
      "an A40 with an L40S and an A100 to fall back on",
      {
        type: `${T}Pod`,
        inputs: {
          gpu: { id: "NVIDIA A40" },
          disk: 0,
          placement: { gpuTypeIds: ["NVIDIA L40S", "NVIDIA A100 80GB PCIe"] },
        },
      },
      0.44,
      1.64,
    ],
    [
      "a 4 vCPU cpu3c pod",
      { type: `${T}Pod`, inputs: { cpu: { id: "cpu3c", vcpuCount: 4 }, disk: 0 } },
      0.12,
      0.12,
    ],
    // The quickstart's endpoint: ADA_24 ($1.10) and ADA_48_PRO ($1.38), at most 2 workers.
    [
      "the quickstart's endpoint",
      {
        type: `${T}ServerlessEndpoint`,
        inputs: { name: "e", gpu: { pools: ["ADA_24", "ADA_48_PRO"] }, workers: { min: 0, max: 2 } },
      },
      0,
      2.76,
    ],
    [
      "a 50 GB volume in US-TX-3",
      {
        type: `${T}NetworkVolume`,
        inputs: { name: "v", size: 50, dataCenterId: "US-TX-3", type: "STANDARD" },
      },
      storage(50, 0.07),
      storage(50, 0.07),
    ],
  ])("%s", (_name, resource, low, high) => {
    expect(rounded(estimate(resource, seed))).toMatchObject({
      kind: "priced",
      hourly: { low: r(low), high: r(high) },
    });
  });

  it("a price list survives its snapshot file unchanged", () => {
    const text = JSON.stringify(toSnapshot(seed));
    const back = fromSnapshot(text, "prices.json");
    expect([
      back.takenAt,
      back.source,
      [...back.gpus.values()],
      [...back.cpus.values()],
      [...back.dataCenters.values()],
    ]).toEqual([
      seed.takenAt,
      `prices.json (from ${seed.source})`,
      [...seed.gpus.values()],
      [...seed.cpus.values()],
      [...seed.dataCenters.values()],
    ]);
  });
});

describe("reading a snapshot file", () => {
  const good = () => JSON.parse(JSON.stringify(toSnapshot(HAND))) as Record<string, unknown>;
  it.each<[string, string, string]>([
    ["not JSON", "{", "prices.json is not a price snapshot: it is not JSON ("],
    [
      "JSON of something else",
      JSON.stringify({ steps: [] }),
      'prices.json is not a price snapshot: its "format" is missing, not "runpod-dynamic/prices@1". Write one with `runpod-dynamic catalog snapshot --out prices.json`.',
    ],
    [
      "a price that is not a number",
      JSON.stringify({ ...good(), gpus: [{ ...(good().gpus as object[])[0], secure: "1.00" }] }),
      "prices.json is not a valid price snapshot: gpus[0].secure: Invalid input: expected number, received string.",
    ],
    [
      "a zero price (which would print as free)",
      JSON.stringify({ ...good(), cpus: [{ ...(good().cpus as object[])[0], securePerVcpu: 0 }] }),
      "prices.json is not a valid price snapshot: cpus[0].securePerVcpu: Too small: expected number to be >0.",
    ],
  ])("%s", (_name, text, message) => {
    expect(() => fromSnapshot(text, "prices.json")).toThrow(message);
  });
});

describe("placement candidates ordered by price", () => {
  const dc = (id: string) => ({
    id,
    name: id,
    region: "EUROPE" as const,
    globalNetwork: false,
    networkVolumeTypes: [],
    compliance: [],
  });
  const rows = [
    { dataCenter: dc("A"), gpuTypeId: "X", availability: "HIGH" as const },
    { dataCenter: dc("A"), gpuTypeId: "Y", availability: "LOW" as const },
    { dataCenter: dc("B"), gpuTypeId: "Y", availability: "NONE" as const },
    { dataCenter: dc("B"), gpuTypeId: "X", availability: "MEDIUM" as const },
  ];
  const gpuPrices = new Map([
    ["X", 2.0],
    ["Y", 1.0],
  ]);
  it.each<[string, Record<string, unknown>, string[]]>([
    ["by availability (the default): most stock first", {}, ["A/X", "B/X", "A/Y", "B/Y"]],
    [
      "by price: the cheapest with stock first, out of stock last",
      { order: "price", gpuPrices },
      ["A/Y", "A/X", "B/X", "B/Y"],
    ],
  ])("%s", (_name, query, expected) => {
    const out = rankCandidates(rows, { gpuTypeIds: ["X", "Y"], ...query });
    expect(out.map((c) => `${c.dataCenterId}/${c.gpuTypeId}`)).toEqual(expected);
  });
});
