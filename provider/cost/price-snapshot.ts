/**
 * A price list written to a file and read back: what `runpod-dynamic catalog snapshot` writes and
 * what the cost command (`--prices`) and the policy pack's budget (`pricesFile`) read, so a pull
 * request is priced without an API key and the pack makes no network call of its own.
 *
 * Reading is strict: a file that is not a snapshot, or one whose prices are missing or not
 * numbers, is refused with the field named, never read as zero.
 */
import { z } from "zod";
import type { Same } from "../resources/same-type.js";
import { propertyPath } from "../validation/failures.js";
import type { CpuPrice, DataCenterTiers, GpuPrice, PriceList } from "./prices.js";

export const SNAPSHOT_FORMAT = "runpod-dynamic/prices@1";

const price = z.number().positive().nullable();

const Snapshot = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  takenAt: z.iso.datetime({ offset: true }),
  source: z.string().min(1),
  gpus: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      pool: z.string().nullable(),
      memory: z.number().nonnegative(),
      secure: price,
      community: price,
      serverless: price,
    }),
  ),
  cpus: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      vcpu: z.object({ min: z.int().positive(), max: z.int().positive() }),
      securePerVcpu: z.number().positive(),
      serverlessPerVcpu: z.number().positive(),
    }),
  ),
  dataCenters: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      region: z.string(),
      networkVolumeTypes: z.array(z.string()),
    }),
  ),
});

/** The snapshot file's JSON: the price list with its maps as arrays. */
export interface PriceSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  takenAt: string;
  source: string;
  gpus: GpuPrice[];
  cpus: CpuPrice[];
  dataCenters: (Omit<DataCenterTiers, "networkVolumeTypes"> & { networkVolumeTypes: string[] })[];
}

// The hand-written type keeps zod out of the declarations programs and the policy pack compile
// against; this fails the build as soon as it and the schema disagree.
true satisfies Same<PriceSnapshot, z.infer<typeof Snapshot>>;

/** The file's contents for `list`. */
export function toSnapshot(list: PriceList): PriceSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    takenAt: list.takenAt,
    source: list.source,
    gpus: [...list.gpus.values()].map((g) => ({ ...g })),
    cpus: [...list.cpus.values()].map((c) => ({ ...c, vcpu: { ...c.vcpu } })),
    dataCenters: [...list.dataCenters.values()].map((d) => ({
      ...d,
      networkVolumeTypes: [...d.networkVolumeTypes],
    })),
  };
}

/** The price list a snapshot file holds; `where` names the file in every error. */
export function fromSnapshot(text: string, where: string): PriceList {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not a price snapshot: it is not JSON (${(err as Error).message}).`);
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== SNAPSHOT_FORMAT) {
    throw new Error(
      `${where} is not a price snapshot: its "format" is ${JSON.stringify(format) ?? "missing"}, not "${SNAPSHOT_FORMAT}". Write one with \`runpod-dynamic catalog snapshot --out ${where}\`.`,
    );
  }
  const parsed = Snapshot.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${propertyPath(i.path) || "(file)"}: ${i.message}`)
      .join("; ");
    throw new Error(`${where} is not a valid price snapshot: ${issues}.`);
  }
  const s = parsed.data;
  return {
    takenAt: s.takenAt,
    source: `${where} (from ${s.source})`,
    gpus: new Map(s.gpus.map((g) => [g.id, g])),
    cpus: new Map(s.cpus.map((c) => [c.id, c])),
    dataCenters: new Map(s.dataCenters.map((d) => [d.id, d])),
  };
}
