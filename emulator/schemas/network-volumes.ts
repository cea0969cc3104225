/** Network volume bodies (v2 description: CreateNetworkVolumeRequest, UpdateNetworkVolumeRequest). */
import { z } from "zod";

/** Storage tiers (v2 description: VolumeType). */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;

/** Allocated storage in GB, 10 to 4096. */
const VolumeSize = z.int().min(10).max(4096);

export const CreateNetworkVolumeRequest = z.strictObject({
  name: z.string().min(1),
  size: VolumeSize,
  dataCenter: z.string().min(1),
  type: z.enum(VOLUME_TYPES).optional(),
});

/** A rename, a resize (grow only, checked by the handler), or both. */
export const UpdateNetworkVolumeRequest = z.strictObject({
  name: z.string().min(1).optional(),
  size: VolumeSize.optional(),
});
