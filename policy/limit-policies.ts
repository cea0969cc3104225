/**
 * Organisation limits: policies that take parameters through the pack's config (`configSchema`,
 * set with `--policy-pack-config`). They are mandatory by default, and inert until configured
 * except `max-gpus-per-pod`, whose default is 8.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import {
  CLUSTER_TYPE,
  isUnknown,
  list,
  POD_TYPE,
  type ResourceView,
  record,
  resourcePolicy,
  SERVERLESS_ENDPOINT_TYPE,
  subject,
  violation,
} from "./common";

const quoted = (values: readonly unknown[]) => values.map((v) => `"${String(v)}"`).join(", ");

/**
 * Every GPU type a pod or cluster may be placed on, with the field that names it. A serverless
 * endpoint names GPU pools instead (a pool's types come from the catalog, which a policy cannot
 * read): its pools are checked against `allowedGpuPools`.
 */
function gpuTypesOf(resource: ResourceView): Array<readonly [field: string, gpuTypeId: unknown]> {
  const { props } = resource;
  if (resource.type === SERVERLESS_ENDPOINT_TYPE) return [];
  if (resource.type === CLUSTER_TYPE)
    return [["compute.gpuTypeId", record(props.compute)?.gpuTypeId] as const];
  const placement = record(props.placement);
  return [
    ["gpu.id", record(props.gpu)?.id] as const,
    ...(list(placement?.gpuTypeIds) ?? []).map((id, i) => [`placement.gpuTypeIds[${i}]`, id] as const),
    ...(list(placement?.candidates) ?? []).map(
      (c, i) => [`placement.candidates[${i}].gpuTypeId`, record(c)?.gpuTypeId] as const,
    ),
  ];
}

/** Every parameterised resource policy. */
export const limitPolicies: readonly ResourceValidationPolicy[] = [
  resourcePolicy<{ allowedGpuTypes: readonly string[]; allowedGpuPools: readonly string[] }>({
    name: "allowed-gpu-types",
    description:
      "Pods and clusters use only the GPU types this organisation allows; serverless endpoints only the GPU pools it allows.",
    enforcementLevel: "mandatory",
    types: [POD_TYPE, CLUSTER_TYPE, SERVERLESS_ENDPOINT_TYPE],
    configSchema: {
      properties: {
        allowedGpuTypes: {
          type: "array",
          items: { type: "string", minLength: 1 },
          default: [],
          description: "GPU type ids (as in the GPU catalog) pods and clusters may use; empty allows any.",
        },
        allowedGpuPools: {
          type: "array",
          items: { type: "string", minLength: 1 },
          default: [],
          description: "Serverless GPU pool ids (the catalog's `pool`) endpoints may use; empty allows any.",
        },
      },
    },
    validate: (resource, { allowedGpuTypes, allowedGpuPools }, report) => {
      const refuse = (field: string, what: string, id: string, allowed: readonly string[], key: string) =>
        report(
          violation(
            subject(resource.type, resource.name),
            field,
            `${what} "${id}" is not allowed (${key}: ${quoted(allowed)})`,
            `use an allowed ${what}, or add "${id}" to ${key} in the policy pack config`,
          ),
        );
      if (allowedGpuTypes.length > 0) {
        for (const [field, id] of gpuTypesOf(resource)) {
          if (typeof id !== "string" || isUnknown(id) || allowedGpuTypes.includes(id)) continue;
          refuse(field, "GPU type", id, allowedGpuTypes, "allowedGpuTypes");
        }
      }
      if (allowedGpuPools.length > 0 && resource.type === SERVERLESS_ENDPOINT_TYPE) {
        (list(record(resource.props.gpu)?.pools) ?? []).forEach((pool, i) => {
          if (typeof pool !== "string" || isUnknown(pool) || allowedGpuPools.includes(pool)) return;
          refuse(`gpu.pools[${i}]`, "GPU pool", pool, allowedGpuPools, "allowedGpuPools");
        });
      }
    },
  }),
  resourcePolicy<{ maxGpuCount: number }>({
    name: "max-gpus-per-pod",
    description: "A pod asks for at most maxGpuCount GPUs.",
    enforcementLevel: "mandatory",
    types: [POD_TYPE],
    configSchema: {
      properties: {
        maxGpuCount: {
          type: "integer",
          minimum: 1,
          default: 8,
          description: "Largest gpu.count a pod may request.",
        },
      },
    },
    validate: (pod, { maxGpuCount }, report) => {
      const gpu = record(pod.props.gpu);
      if (gpu === undefined) return;
      const count = gpu.count ?? 1;
      if (typeof count !== "number" || count <= maxGpuCount) return;
      report(
        violation(
          subject(pod.type, pod.name),
          "gpu.count",
          `${count} GPUs is more than the ${maxGpuCount} allowed per pod`,
          `request at most ${maxGpuCount} GPUs, or raise maxGpuCount in the policy pack config`,
        ),
      );
    },
  }),
  resourcePolicy<{ allowedClouds: readonly string[] }>({
    name: "allowed-clouds",
    description: "Pods run only in the clouds this organisation allows.",
    enforcementLevel: "mandatory",
    types: [POD_TYPE],
    configSchema: {
      properties: {
        allowedClouds: {
          type: "array",
          items: { type: "string", enum: ["SECURE", "COMMUNITY"] },
          default: ["SECURE", "COMMUNITY"],
          description: "SECURE (provider-owned data centers) and/or COMMUNITY (community-hosted hardware).",
        },
      },
    },
    validate: (pod, { allowedClouds }, report) => {
      const cloud = pod.props.cloud ?? "SECURE";
      if (typeof cloud !== "string" || isUnknown(cloud) || allowedClouds.includes(cloud)) return;
      const which = pod.props.cloud === undefined ? " (the default)" : "";
      report(
        violation(
          subject(pod.type, pod.name),
          "cloud",
          `cloud "${cloud}"${which} is not allowed (allowedClouds: ${quoted(allowedClouds)})`,
          `set cloud to one of ${quoted(allowedClouds)}, or change allowedClouds in the policy pack config`,
        ),
      );
    },
  }),
];
