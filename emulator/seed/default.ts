/**
 * The emulator's starting world: a realistic catalog (catalog.ts), public templates, volumes,
 * hosted model endpoints, billing history and hub listings (history.ts), and the pods and
 * serverless endpoints that history bills, so that it can be attributed to GPU types. `--seed FILE`
 * replaces any top-level key of this; schema.ts says what each key holds.
 */
import { catalogSeed, H100, RTX4090 } from "./catalog.js";
import { billingSeed, hubListingsSeed } from "./history.js";
import { type Seed, type SeedInput, SeedSchema } from "./schema.js";

export const DEFAULT_API_KEY = "rpa_EMULATOR_TEST_KEY_0000000000000000";
/** A key without access to the H100 pools: creates there answer 403. */
export const LIMITED_API_KEY = "rpa_EMULATOR_LIMITED_KEY_000000000000";
/** A rate-limit-exempt key of the default user: no quota, no RateLimit headers (docs/api-model.md, Limits). */
export const EXEMPT_API_KEY = "rpa_EMULATOR_EXEMPT_KEY_0000000000000";

/** The pods the seeded billing history bills (history.ts), as they are when the seed loads. */
export const HISTORY_PODS = ["pod-hist-trainer", "pod-hist-notebook", "pod-hist-cpu"] as const;
/** The serverless endpoints the seeded billing history bills. */
export const HISTORY_ENDPOINTS = ["ep-hist-sdxl", "ep-hist-vllm"] as const;

export function defaultSeed(): Seed {
  return SeedSchema.parse({
    apiKeys: [
      { key: DEFAULT_API_KEY },
      { key: LIMITED_API_KEY, forbidden: [{ gpuTypeId: H100 }] },
      { key: EXEMPT_API_KEY, rateLimitExempt: true },
    ],
    ...catalogSeed(),
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
    // The history's pods: the trainer ran throughout and still runs, the notebook is stopped, the
    // CPU pod has run since 2026-11-11.
    pods: [
      {
        id: HISTORY_PODS[0],
        name: "history-trainer",
        image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
        gpu: { id: H100 },
        dataCenterId: "US-TX-3",
        disk: 80,
      },
      {
        id: HISTORY_PODS[1],
        name: "history-notebook",
        image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
        gpu: { id: RTX4090 },
        dataCenterId: "US-GA-1",
        disk: 20,
        status: "EXITED",
      },
      {
        id: HISTORY_PODS[2],
        name: "history-etl",
        image: "python:3.12-slim",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        dataCenterId: "US-TX-3",
        disk: 10,
      },
    ],
    // The history's endpoints: SDXL on the ADA_24 pool (its RTX 4090), vLLM on AMPERE_80 (A100).
    endpoints: [
      {
        id: HISTORY_ENDPOINTS[0],
        name: "history-sdxl",
        image: "runpod/worker-sdxl:3.1.0",
        gpu: { pools: ["ADA_24"] },
        workers: { min: 0, max: 3 },
      },
      {
        id: HISTORY_ENDPOINTS[1],
        name: "history-vllm",
        image: "runpod/worker-v1-vllm:v2.4.0",
        gpu: { pools: ["AMPERE_80"] },
        workers: { min: 0, max: 1 },
      },
    ],
    clusters: [{ id: "clu-demo-ray", gpuTypeId: H100, dataCenterId: "US-TX-3", members: 2 }],
    billing: billingSeed(),
    registries: [],
    containerBehaviours: [
      { image: "emulator/image-not-found*", kind: "imageNotFound" },
      { image: "emulator/private*", kind: "unauthorized" },
      { image: "emulator/crash-loop*", kind: "crashLoop" },
      { image: "emulator/out-of-disk*", kind: "outOfDisk", sizeGb: 50 },
    ],
    hubListings: hubListingsSeed(),
  });
}

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

/** The default seed with any top-level keys of `overrides` replacing its own. */
export function mergeSeed(overrides: Partial<SeedInput> | undefined): Seed {
  if (!overrides) return defaultSeed();
  return SeedSchema.parse({ ...defaultSeed(), ...overrides });
}
