/**
 * Organisation limits: policies that take parameters through the pack's config (`configSchema`,
 * set with `--policy-pack-config`). They are mandatory by default, and inert until configured
 * except `max-gpus-per-pod`, whose default is 8.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import {
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

/** Every GPU type a resource may be placed on, with the field that names it. */
function gpuTypesOf(resource: ResourceView): Array<readonly [field: string, gpuTypeId: unknown]> {
  const { props } = resource;
  if (resource.type === SERVERLESS_ENDPOINT_TYPE) {
    return (list(props.gpuTypeIds) ?? []).map((id, i) => [`gpuTypeIds[${i}]`, id] as const);
  }
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
  resourcePolicy<{ allowedGpuTypes: readonly string[] }>({
    name: "allowed-gpu-types",
    description: "Pods and serverless endpoints use only the GPU types this organisation allows.",
    enforcementLevel: "mandatory",
    types: [POD_TYPE, SERVERLESS_ENDPOINT_TYPE],
    configSchema: {
      properties: {
        allowedGpuTypes: {
          type: "array",
          items: { type: "string", minLength: 1 },
          default: [],
          description: "GPU type ids (as in the GPU catalog) that may be used; empty allows any.",
        },
      },
    },
    validate: (resource, { allowedGpuTypes }, report) => {
      if (allowedGpuTypes.length === 0) return;
      for (const [field, id] of gpuTypesOf(resource)) {
        if (typeof id !== "string" || isUnknown(id) || allowedGpuTypes.includes(id)) continue;
        report(
          violation(
            subject(resource.type, resource.name),
            field,
            `GPU type "${id}" is not allowed (allowedGpuTypes: ${quoted(allowedGpuTypes)})`,
            `use an allowed GPU type, or add "${id}" to allowedGpuTypes in the policy pack config`,
          ),
        );
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
