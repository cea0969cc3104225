/** NetworkVolume's replace/update table. */
import { declaredChanges } from "../../fields/derive.js";
import { NETWORK_VOLUME } from "./fields.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./types.js";

export interface NetworkVolumeDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/**
 * The replace/update table (pure), as each input's declaration says (fields.ts): a new data center
 * or type replaces (both fixed at create); a new name or size updates in place. A left-out `type`
 * is no opinion; an unknown value (preview) counts as a change.
 */
export function diffNetworkVolume(
  olds: Partial<NetworkVolumeOutputs>,
  news: NetworkVolumeInputs,
): NetworkVolumeDiff {
  const { replaces, updates } = declaredChanges(NETWORK_VOLUME, olds, news, []);
  return { changes: replaces.length + updates.length > 0, replaces, updates };
}
