/** A Cluster's outputs from the API's cluster and its member pods, and the inputs that would produce them. */
import type { Cluster as ApiCluster } from "../../client/schemas/clusters.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import { mirroredOutputs } from "../../fields/derive.js";
import { CLUSTER } from "./fields.js";
import type { ClusterInputs, ClusterMember, ClusterOutputs } from "./types.js";

function memberOf(p: ApiPod): ClusterMember {
  return {
    podId: p.id,
    status: p.status,
    rank: p.cluster?.rank ?? null,
    role: p.cluster?.role ?? null,
    ip: p.cluster?.ip ?? null,
  };
}

/** Outputs from the API's cluster and member pods; JSON-clean (null, never undefined). */
export function clusterOutputs(
  c: ApiCluster,
  pods: readonly ApiPod[],
  inputs: Partial<ClusterInputs>,
): ClusterOutputs {
  const envOf = (pods[0]?.env ?? {}) as Record<string, string>;
  const declared = Object.keys(inputs.env ?? {});
  const built = {
    clusterId: c.id,
    compute: {
      gpuTypeId: c.compute.gpuTypeId,
      gpuCountPerPod: c.compute.gpuCountPerPod,
      podCount: c.compute.podCount,
    },
    dataCenterId: c.dataCenterId ?? null,
    members: pods
      .map(memberOf)
      .sort(
        (a, b) =>
          (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) ||
          a.podId.localeCompare(b.podId),
      ),
    primary: c.primary
      ? { podId: c.primary.podId, status: c.primary.status, sshEndpoint: c.primary.sshEndpoint ?? null }
      : null,
    network: c.network ? { cidr: c.network.cidr } : null,
    env: Object.fromEntries(declared.filter((k) => k in envOf).map((k) => [k, envOf[k] as string])),
    createdAt: c.createdAt,
  };
  // The rest repeat a field as the API has it or as the program gave it (fields.ts, `mirror`).
  const mirrored = mirroredOutputs(CLUSTER, c, inputs) as Omit<ClusterOutputs, keyof typeof built>;
  return { ...mirrored, ...built };
}

/** The inputs that would produce `outputs`: what refresh hands back, within what the program declared. */
export function inputsFromOutputs(o: ClusterOutputs, prior: Partial<ClusterInputs>): ClusterInputs {
  return {
    ...prior,
    name: o.name,
    type: o.type,
    compute: o.compute,
    ...(Object.keys(o.env).length > 0 || prior.env ? { env: o.env } : {}),
  } as ClusterInputs;
}
