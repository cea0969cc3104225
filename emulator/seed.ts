/**
 * The emulator's starting world: a realistic catalog (seed-catalog.ts), public templates, volumes,
 * hosted model endpoints, billing history and hub listings (seed-history.ts). `--seed FILE`
 * replaces any top-level key of this; seed-schema.ts says what each key holds.
 */
import { catalogSeed, H100 } from "./seed-catalog.js";
import { billingSeed, hubListingsSeed } from "./seed-history.js";
import { type Seed, type SeedInput, SeedSchema } from "./seed-schema.js";

export const DEFAULT_API_KEY = "rpa_EMULATOR_TEST_KEY_0000000000000000";
/** A key without access to the H100 pools: creates there answer 403. */
export const LIMITED_API_KEY = "rpa_EMULATOR_LIMITED_KEY_000000000000";

export function defaultSeed(): Seed {
  return SeedSchema.parse({
    apiKeys: [{ key: DEFAULT_API_KEY }, { key: LIMITED_API_KEY, forbidden: [{ gpuTypeId: H100 }] }],
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
