/**
 * Instant clusters (`{base_url}/v2/clusters`): a homogeneous group of 2 to 250 GPU pods in one data
 * center on a private network. Only the name changes after create; the member pods are listed by
 * `GET /v2/clusters/{id}/pods` and refuse changes of their own.
 */
import { z } from "zod";
import { CLUSTER_TYPES, POD_STATUSES } from "../vocabulary.js";
import { EnvMap, Port } from "./common.js";
import { MountsRequest } from "./pods.js";

export { CLUSTER_TYPES };

export const ClusterCompute = z.strictObject({
  gpuTypeId: z.string().min(1),
  gpuCountPerPod: z.int().min(1),
  podCount: z.int().min(2).max(250),
});

/** No `registry`: clusters cannot pull private images yet (v2 description). */
export const CreateClusterRequest = z.strictObject({
  name: z.string().min(1),
  type: z.enum(CLUSTER_TYPES),
  compute: ClusterCompute,
  image: z.string().min(1).optional(),
  args: z.string().optional(),
  disk: z.int().min(1).optional(),
  env: EnvMap.optional(),
  ports: z.array(Port).optional(),
  dataCenterIds: z.array(z.string().min(1)).optional(),
  mounts: MountsRequest.optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
});
export type CreateClusterRequest = z.infer<typeof CreateClusterRequest>;

/** A rename: the only change a cluster takes. */
export const UpdateClusterRequest = z.strictObject({ name: z.string().min(1) });

export const Cluster = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  type: z.enum(CLUSTER_TYPES),
  compute: z.looseObject({ gpuTypeId: z.string(), gpuCountPerPod: z.number(), podCount: z.number() }),
  template: z.string().optional(),
  dataCenterId: z.string().optional(),
  pods: z.looseObject({ total: z.number(), byStatus: z.record(z.string(), z.number()) }),
  network: z.looseObject({ cidr: z.string() }).optional(),
  primary: z
    .looseObject({ podId: z.string(), status: z.enum(POD_STATUSES), sshEndpoint: z.string().optional() })
    .optional(),
  createdAt: z.string(),
});
export type Cluster = z.infer<typeof Cluster>;
export const ListClustersResponse = z.looseObject({ clusters: z.array(Cluster) });
/** `GET /v2/clusters/{id}/pods` answers a ListPodsResponse. */
export { ListPodsResponse as ListClusterPodsResponse } from "./pods.js";
