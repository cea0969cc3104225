/**
 * The strict schema a Cluster's `check` validates against: the v2 create body (network volumes
 * only, as `mounts`), plus the provider's `templateId`, timeouts, failure policy and `adoptId`.
 * Kept out of provider/resources/cluster.ts so the declarations programs compile against never
 * import zod; `ClusterInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreateClusterRequest } from "../../client/schemas/clusters.js";
import type { Same } from "../same-type.js";
import type { ClusterInputs } from "./types.js";

export const ClusterArgsSchema = CreateClusterRequest.extend({
  mounts: z
    .strictObject({
      network: z
        .array(z.strictObject({ volumeId: z.string().min(1), path: z.string().min(1) }))
        .max(1)
        .optional(),
    })
    .optional(),
  templateId: z.string().min(1).optional(),
  timeouts: z
    .strictObject({
      create: z.int().min(1).max(86_400).optional(),
      delete: z.int().min(1).max(86_400).optional(),
    })
    .optional(),
  onCreateFailure: z.enum(["terminate", "keep"]).optional(),
  adoptId: z.string().min(1).optional(),
});

// Fails the build as soon as `ClusterInputs` and the schema stop describing the same object.
true satisfies Same<ClusterInputs, z.infer<typeof ClusterArgsSchema>>;
