/**
 * The strict schema a NetworkVolume's `check` validates against. Kept out of
 * provider/resources/network-volume.ts so the declarations programs compile against never import
 * zod; `NetworkVolumeInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { VolumeType } from "../../client/schemas/network-volumes.js";
import type { Same } from "../same-type.js";
import type { NetworkVolumeInputs } from "./types.js";

export const NetworkVolumeArgsSchema = z.strictObject({
  name: z.string().min(1),
  size: z.int().min(10).max(4096),
  dataCenterId: z.string().min(1),
  type: VolumeType.optional(),
  adoptId: z.string().min(1).optional(),
});

// Fails the build as soon as `NetworkVolumeInputs` and the schema stop describing the same object.
true satisfies Same<NetworkVolumeInputs, z.infer<typeof NetworkVolumeArgsSchema>>;
