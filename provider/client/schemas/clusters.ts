/**
 * Instant clusters (`{base_url}/v2/clusters`): a homogeneous group of 2 to 250 GPU pods in one data
 * center on a private network. Only the name changes after create; the member pods are listed by
 * `GET /v2/clusters/{id}/pods` and refuse changes of their own.
 */
import { z } from "zod";
import { CLUSTER_BODY } from "../../resources/cluster/fields.js";
import { CLUSTER_TYPES, POD_STATUSES } from "../vocabulary.js";

export { CLUSTER_TYPES };

/**
 * The create body: a Cluster's declared fields (provider/resources/cluster/fields.ts). No
 * `registry`: clusters cannot pull private images yet (v2 description).
 */
export const CreateClusterRequest = z.strictObject(CLUSTER_BODY);
export type CreateClusterRequest = z.infer<typeof CreateClusterRequest>;

/** A rename: the only change a cluster takes. */
export const UpdateClusterRequest = z.strictObject({ name: CLUSTER_BODY.name });

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
