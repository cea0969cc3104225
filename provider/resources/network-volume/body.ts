/** NetworkVolume's request bodies, its outputs from the API's answer and its inputs from its outputs. */
import type { z } from "zod";
import type {
  NetworkVolume as ApiVolume,
  CreateNetworkVolumeRequest,
  UpdateNetworkVolumeRequest,
} from "../../client/schemas/network-volumes.js";
import { apiBody, mirroredInputs, mirroredOutputs } from "../../fields/derive.js";
import { NETWORK_VOLUME, NETWORK_VOLUME_CREATE_ONLY, NETWORK_VOLUME_UPDATE, VolumeType } from "./fields.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./types.js";

/** The create body: the declared fields under their API names (`dataCenterId` is `dataCenter`). */
export function createVolumeBody(inputs: NetworkVolumeInputs): CreateNetworkVolumeRequest {
  return apiBody(
    NETWORK_VOLUME,
    { ...NETWORK_VOLUME_UPDATE, ...NETWORK_VOLUME_CREATE_ONLY },
    inputs,
  ) as CreateNetworkVolumeRequest;
}

export function volumeOutputs(v: ApiVolume): NetworkVolumeOutputs {
  const built = { volumeId: v.id };
  return { ...(mirroredOutputs(NETWORK_VOLUME, v, {}) as Omit<NetworkVolumeOutputs, "volumeId">), ...built };
}

export function inputsFromOutputs(
  o: NetworkVolumeOutputs,
  prior: Partial<NetworkVolumeInputs>,
): NetworkVolumeInputs {
  // A tier this provider does not know is left out: no opinion, rather than a value check refuses.
  const { type, ...rest } = mirroredInputs(NETWORK_VOLUME, o, prior);
  return {
    ...rest,
    ...(VolumeType.safeParse(type).success ? { type } : {}),
    ...(prior.adoptId ? { adoptId: prior.adoptId } : {}),
  } as NetworkVolumeInputs;
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
  return apiBody(NETWORK_VOLUME, NETWORK_VOLUME_UPDATE, news, { only: updates });
}
