/** Network volumes (`{base_url}/v2/network-volumes`): 10-4096 GB, grow only, type fixed at create. */
import { z } from "zod";
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

export const CreateNetworkVolumeRequest = z.strictObject({
  name: z.string().min(1),
  size: z.int().min(10).max(4096),
  dataCenter: z.string().min(1),
  type: VolumeType.optional(),
});
export type CreateNetworkVolumeRequest = z.infer<typeof CreateNetworkVolumeRequest>;

export const UpdateNetworkVolumeRequest = z.strictObject({
  name: z.string().min(1).optional(),
  size: z.int().min(10).max(4096).optional(),
});
