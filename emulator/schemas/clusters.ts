/** Instant cluster bodies (v2 description: CreateClusterRequest, UpdateClusterRequest). */
import { z } from "zod";
import { BaseContainerFields, Mounts } from "./common.js";

export const CLUSTER_TYPES = ["APPLICATION", "TRAINING", "SLURM", "RAY"] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];

export const ClusterCompute = z.strictObject({
  gpuTypeId: z.string().min(1),
  gpuCountPerPod: z.int().min(1),
  podCount: z.int().min(2).max(250),
});

/**
 * BaseContainerConfig, not ContainerConfig: "Private registries are not yet supported for
 * clusters — there is no `registry` field here". No `templateId` either: a template's fields are
 * spread into the body.
 */
export const CreateClusterRequest = z.strictObject({
  name: z.string().min(1),
  type: z.enum(CLUSTER_TYPES),
  compute: ClusterCompute,
  ...BaseContainerFields,
  dataCenterIds: z.array(z.string()).optional(),
  mounts: Mounts.optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
});
export type CreateClusterRequest = z.infer<typeof CreateClusterRequest>;

/** A rename: `name` only. (`minProperties: 1` is checked on the body as sent, clusters/routes.ts.) */
export const UpdateClusterRequest = z.strictObject({ name: z.string().min(1).optional() });
