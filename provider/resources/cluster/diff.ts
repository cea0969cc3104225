/**
 * A Cluster's replace/update table.
 */

import { diffTable } from "../../fields/derive.js";
import { differs } from "../../validation/compare.js";
import { CLUSTER } from "./fields.js";
import type { ClusterInputs, ClusterOutputs } from "./types.js";

/** The inputs a change of which replaces the cluster (fields.ts): everything but the name. */
const FIXED = diffTable(CLUSTER)
  .filter((row) => row.kinds.includes("replace"))
  .map((row) => row.field as keyof ClusterInputs & keyof ClusterOutputs);

/**
 * The replace/update table (pure): a new name is a rename in place; any other change replaces the
 * cluster. A left-out input is no opinion (env: no variables); an unknown value (preview) counts
 * as a change.
 */
export function diffCluster(olds: Partial<ClusterOutputs>, news: ClusterInputs) {
  const replaces: string[] = [];
  for (const k of FIXED) {
    const n = k === "env" ? (news.env ?? {}) : news[k];
    if (n !== undefined && differs(n, k === "env" ? (olds.env ?? {}) : olds[k])) replaces.push(k);
  }
  const updates = differs(news.name, olds.name) ? ["name"] : [];
  return { replaces, updates };
}
