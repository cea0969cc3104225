/**
 * A Cluster's replace/update table.
 */

import { differs } from "../common.js";
import type { ClusterInputs, ClusterOutputs } from "./types.js";

/** Everything but the name is fixed at create. */
const FIXED = [
  "type",
  "compute",
  "templateId",
  "image",
  "args",
  "disk",
  "ports",
  "dataCenterIds",
  "mounts",
  "startJupyter",
  "startSsh",
] as const;

/**
 * The replace/update table (pure): a new name is a rename in place; any other change replaces the
 * cluster. A left-out input is no opinion; an unknown value (preview) counts as a change.
 */
export function diffCluster(olds: Partial<ClusterOutputs>, news: ClusterInputs) {
  const replaces: string[] = [];
  for (const k of FIXED) {
    const n = news[k];
    if (n !== undefined && differs(n, olds[k])) replaces.push(k);
  }
  if (differs(news.env ?? {}, olds.env ?? {})) replaces.push("env");
  const updates = differs(news.name, olds.name) ? ["name"] : [];
  return { replaces, updates };
}
