/** Network volumes (`{base_url}/v2/network-volumes`): 10-4096 GB, grow only, type fixed at create. */
import { z } from "zod";
import { NETWORK_VOLUME_CREATE_ONLY, NETWORK_VOLUME_UPDATE } from "../../resources/network-volume/fields.js";
import { VOLUME_TYPES } from "../vocabulary.js";

export { VOLUME_TYPES };

export const VolumeType = z.enum(VOLUME_TYPES);

export const NetworkVolume = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  size: z.int(),
  dataCenter: z.string(),
  type: z.string(),
});
export type NetworkVolume = z.infer<typeof NetworkVolume>;
export const ListNetworkVolumesResponse = z.looseObject({ networkVolumes: z.array(NetworkVolume) });

/**
 * The create body: a NetworkVolume's declared fields (provider/resources/network-volume/fields.ts)
 * under their API names: the data center is `dataCenter` here.
 */
export const CreateNetworkVolumeRequest = z.strictObject({
  ...NETWORK_VOLUME_UPDATE,
  dataCenter: NETWORK_VOLUME_CREATE_ONLY.dataCenterId,
  type: NETWORK_VOLUME_CREATE_ONLY.type,
});
export type CreateNetworkVolumeRequest = z.infer<typeof CreateNetworkVolumeRequest>;

export const UpdateNetworkVolumeRequest = z.strictObject(NETWORK_VOLUME_UPDATE).partial();
