/** NetworkVolume's replace/update table. */
import { differs } from "../common.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./types.js";

export interface NetworkVolumeDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/**
 * The replace/update table (pure): a new data center or type replaces (both immutable after
 * create); a new name or size updates in place. A left-out `type` is no opinion; an unknown value
 * (preview) counts as a change.
 */
export function diffNetworkVolume(
  olds: Partial<NetworkVolumeOutputs>,
  news: NetworkVolumeInputs,
): NetworkVolumeDiff {
  const replaces: string[] = [];
  const updates: string[] = [];
  if (differs(news.dataCenterId, olds.dataCenterId)) replaces.push("dataCenterId");
  if (news.type !== undefined && differs(news.type, olds.type)) replaces.push("type");
  if (differs(news.name, olds.name)) updates.push("name");
  if (differs(news.size, olds.size)) updates.push("size");
  return { changes: replaces.length + updates.length > 0, replaces, updates };
}
