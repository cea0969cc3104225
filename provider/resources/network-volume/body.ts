/** NetworkVolume's request bodies, its outputs from the API's answer and its inputs from its outputs. */
import type { z } from "zod";
import {
  type NetworkVolume as ApiVolume,
  type CreateNetworkVolumeRequest,
  type UpdateNetworkVolumeRequest,
  VolumeType,
} from "../../client/schemas/network-volumes.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./types.js";

/** The create body: `dataCenterId` is the API's `dataCenter`; nothing else of ours is sent. */
export function createVolumeBody(inputs: NetworkVolumeInputs): CreateNetworkVolumeRequest {
  return {
    name: inputs.name,
    size: inputs.size,
    dataCenter: inputs.dataCenterId,
    ...(inputs.type !== undefined ? { type: inputs.type } : {}),
  };
}

export function volumeOutputs(v: ApiVolume): NetworkVolumeOutputs {
  return { volumeId: v.id, name: v.name, size: v.size, dataCenterId: v.dataCenter, type: v.type };
}

export function inputsFromOutputs(
  o: NetworkVolumeOutputs,
  prior: Partial<NetworkVolumeInputs>,
): NetworkVolumeInputs {
  const type = VolumeType.safeParse(o.type);
  return {
    name: o.name,
    size: o.size,
    dataCenterId: o.dataCenterId,
    ...(type.success ? { type: type.data } : {}),
    ...(prior.adoptId ? { adoptId: prior.adoptId } : {}),
  };
}

export function shrinkError(what: string, id: string, from: number, to: number): Error {
  return new Error(
    `${what}: volume ${id} has ${from} GB; network volume storage cannot be reduced to ${to} GB. Keep size at ${from} or more, or create a new NetworkVolume and copy the data.`,
  );
}

export function patchBody(
  updates: readonly string[],
  news: NetworkVolumeInputs,
): z.input<typeof UpdateNetworkVolumeRequest> {
  return {
    ...(updates.includes("name") ? { name: news.name } : {}),
    ...(updates.includes("size") ? { size: news.size } : {}),
  };
}
