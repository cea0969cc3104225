/**
 * The usage records `billing pods` and `billing serverless` print: filtered by `--gpu-id`, and per
 * resource or summed per GPU selection.
 */
import { type Amounts, sumAmounts } from "./amounts.js";
import type { Attribution, UsageRow, UsageSpec } from "./usage-specs.js";

function matchesGpu(a: Attribution, wanted: string): boolean {
  const w = wanted.toLowerCase();
  return [...a.gpuIds, ...a.aliases].some((id) => id.toLowerCase() === w);
}

/**
 * The rows `--gpu-id` keeps (all of them without it), and the rows whose resource the API does
 * not list: those are left out by `--gpu-id`, and kept otherwise.
 */
export function splitByAttribution(
  rows: readonly UsageRow[],
  attributions: ReadonlyMap<string, Attribution> | undefined,
  wanted: string | undefined,
): { kept: UsageRow[]; lost: UsageRow[] } {
  if (!attributions) return { kept: [...rows], lost: [] };
  const lost = rows.filter((r) => !attributions.has(r.id));
  if (wanted === undefined) return { kept: [...rows], lost };
  const kept = rows.filter((r) => {
    const a = attributions.get(r.id);
    return a !== undefined && matchesGpu(a, wanted);
  });
  return { kept, lost };
}

/** One printed record: its JSON object, and what its table row shows. */
export interface Printed {
  readonly json: Record<string, unknown>;
  readonly startTime: string;
  /** The resource id, or the GPU types of a group. */
  readonly label: string;
  /** How many resources a GPU group sums. */
  readonly resources: number;
  readonly amounts: Amounts;
}

export const UNATTRIBUTED = "(unattributed)";

export function perResource(spec: UsageSpec, rows: readonly UsageRow[]): Printed[] {
  return rows.map((r) => ({
    json: { startTime: r.startTime, endTime: r.endTime, [spec.idField]: r.id, ...r.amounts },
    startTime: r.startTime,
    label: r.id,
    resources: 1,
    amounts: r.amounts,
  }));
}

/**
 * Rows summed per bucket and GPU selection (the unattributed together): by bucket, then by GPU
 * label, the unattributed last.
 */
export function perGpu(
  spec: UsageSpec,
  rows: readonly UsageRow[],
  attributions: ReadonlyMap<string, Attribution>,
): Printed[] {
  const groups = new Map<
    string,
    { first: UsageRow; attribution: Attribution | undefined; rows: UsageRow[] }
  >();
  for (const row of rows) {
    const attribution = attributions.get(row.id);
    const key = [row.startTime, row.endTime, attribution?.gpuIds.join("\n") ?? ""].join("\u0000");
    const group = groups.get(key) ?? { first: row, attribution, rows: [] };
    group.rows.push(row);
    groups.set(key, group);
  }
  const printed = [...groups.values()].map(({ first, attribution, rows: summed }) => {
    const ids = [...new Set(summed.map((r) => r.id))].sort();
    const amounts = sumAmounts(
      spec.amountFields,
      summed.map((r) => r.amounts),
    );
    return {
      json: {
        startTime: first.startTime,
        endTime: first.endTime,
        [spec.gpuField]: attribution ? spec.gpuValue(attribution) : null,
        [spec.idsField]: ids,
        ...amounts,
      },
      startTime: first.startTime,
      label: attribution?.gpuIds.join(", ") ?? UNATTRIBUTED,
      unattributed: attribution === undefined,
      resources: ids.length,
      amounts,
    };
  });
  return printed
    .sort(
      (a, b) =>
        Date.parse(a.startTime) - Date.parse(b.startTime) ||
        Number(a.unattributed) - Number(b.unattributed) ||
        (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
    )
    .map(({ unattributed: _, ...p }) => p);
}
