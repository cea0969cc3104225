/**
 * A NetworkVolume's fields, each declared once (docs/decisions.md, "One declaration per field").
 * The data center is the API's `dataCenter`.
 */
import { z } from "zod";
import { VOLUME_TYPES } from "../../client/vocabulary.js";
import { declareResource, mirror } from "../../fields/declaration.js";
import { choice } from "../../fields/meta.js";
import { adoptId } from "../common-fields.js";
import { NETWORK_VOLUME_DESCRIPTION, NETWORK_VOLUME_EXAMPLES, NETWORK_VOLUME_GET } from "./docs.js";

export const VolumeType = choice("VolumeType", "A network volume's storage tier.", VOLUME_TYPES);

/** The fields of the update body, also in the create body. */
export const NETWORK_VOLUME_UPDATE = {
  name: z.string().min(1).meta({ description: "Human-readable name, not unique.", onChange: "update" }),
  size: z.int().min(10).max(4096).meta({
    description:
      "Size, 10 to 4096. It can only grow: a smaller size fails at check, unless the volume is replaced anyway.",
    unit: "GB",
    onChange: "update",
  }),
};

/** The fields of the create body only: fixed once the volume exists. */
export const NETWORK_VOLUME_CREATE_ONLY = {
  dataCenterId: z
    .string()
    .min(1)
    .meta({
      description: "Data center. Pods mounting the volume are placed there.",
      apiName: "dataCenter",
      onChange: { kinds: ["replace"], detail: "the data does not move" },
    }),
  type: VolumeType.optional().meta({
    description: "Storage tier.",
    defaultText: "the data center's primary tier",
    onChange: "replace",
  }),
};

export const NetworkVolumeArgsSchema = z.strictObject({
  ...NETWORK_VOLUME_UPDATE,
  ...NETWORK_VOLUME_CREATE_ONLY,
  adoptId: adoptId("a volume"),
});

const input = NetworkVolumeArgsSchema.shape;

export const NetworkVolumeStateSchema = z.object({
  volumeId: z.string().meta({
    description: "The volume id; also the resource id. Give it to a Pod's network mount.",
  }),
  name: mirror(input.name, "api"),
  size: mirror(input.size, "api"),
  dataCenterId: mirror(input.dataCenterId, "api"),
  type: mirror(input.type, "api"),
});

export const NETWORK_VOLUME = declareResource({
  kind: "NetworkVolume",
  description: NETWORK_VOLUME_DESCRIPTION,
  get: NETWORK_VOLUME_GET,
  examples: NETWORK_VOLUME_EXAMPLES,
  inputs: NetworkVolumeArgsSchema,
  outputs: NetworkVolumeStateSchema,
});
