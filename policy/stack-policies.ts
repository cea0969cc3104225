/**
 * Stack policies: rules about the stack as a whole, run by `AnalyzeStack` at the end of a preview
 * or update over every resource's outputs (a resource about to be created shows its inputs).
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import {
  configOf,
  isUnknown,
  list,
  NETWORK_VOLUME_TYPE,
  POD_TYPE,
  placementSource,
  plainProps,
  type ResourceView,
  record,
  SSH_KEY_TYPE,
  subject,
  typeOf,
  violation,
} from "./common";

/**
 * The data centers a pod's create may use, or undefined when the provider may pick any: it then
 * follows the volume (catalog-built candidates are asked for the volume's data center only).
 */
function reachableDataCenters(props: Record<string, unknown>): string[] | undefined {
  const placement = record(props.placement);
  switch (placementSource(placement)) {
    case "candidates": {
      const ids = (list(placement?.candidates) ?? []).map((c) => record(c)?.dataCenterId);
      return ids.length > 0 && ids.every((id) => typeof id === "string") ? (ids as string[]) : undefined;
    }
    case "catalog":
      return undefined;
    case "request": {
      const dcs = list(props.dataCenterIds);
      return dcs && dcs.length > 0 && dcs.every((d) => typeof d === "string") ? (dcs as string[]) : undefined;
    }
  }
}

const maxPodsSchema = {
  properties: {
    maxPods: {
      type: "integer" as const,
      minimum: 0,
      description: "Most Pod resources one stack may declare. No limit when unset.",
    },
  },
};

/** Every stack policy. */
export const stackPolicies: readonly StackValidationPolicy[] = [
  {
    name: "ssh-key-for-start-ssh",
    description: "A pod with startSsh needs a registered SSH key; this stack declares none.",
    enforcementLevel: "advisory",
    validateStack: (args, reportViolation) => {
      const resources: ResourceView[] = args.resources.map((r) => ({
        type: typeOf(r.type),
        name: r.name,
        urn: r.urn,
        props: typeOf(r.type) === POD_TYPE ? plainProps(r.props) : {},
      }));
      if (resources.some((r) => r.type === SSH_KEY_TYPE)) return;
      for (const pod of resources) {
        if (pod.type !== POD_TYPE || pod.props.startSsh !== true) continue;
        reportViolation(
          violation(
            subject(pod.type, pod.name),
            "startSsh",
            "startSsh injects the account's registered SSH public keys and this stack registers none, so unless a key was registered outside this stack the pod has no SSH access",
            'declare new SshKey("...", { publicKey }) in this stack and make the pod dependsOn it',
          ),
          pod.urn,
        );
      }
    },
  },
  {
    name: "pod-volume-reachable",
    description: "A pod's placement candidates include the data center of the network volume it mounts.",
    enforcementLevel: "advisory",
    validateStack: (args, reportViolation) => {
      const volumes = args.resources.filter((r) => typeOf(r.type) === NETWORK_VOLUME_TYPE);
      for (const r of args.resources) {
        if (typeOf(r.type) !== POD_TYPE) continue;
        const props = plainProps(r.props);
        const mount = record(list(record(props.mounts)?.network)?.[0]);
        if (!mount) continue;
        // The volume, by id once it is known, or by the dependency preview records while it is not.
        const volume =
          volumes.find(
            (v) => !isUnknown(mount.volumeId) && plainProps(v.props).volumeId === mount.volumeId,
          ) ?? volumes.find((v) => (r.propertyDependencies.mounts ?? []).some((d) => d.urn === v.urn));
        const dataCenter = volume ? plainProps(volume.props).dataCenterId : undefined;
        const reachable = reachableDataCenters(props);
        if (typeof dataCenter !== "string" || !reachable || reachable.includes(dataCenter)) continue;
        reportViolation(
          violation(
            subject(typeOf(r.type), r.name),
            "placement",
            `it mounts network volume "${volume?.name}" in ${dataCenter}, but its candidates are ${reachable.join(", ")}: every create would be refused`,
            `add ${dataCenter} to the candidates (or dataCenterIds), or leave them out and let the provider place the pod in the volume's data center`,
          ),
          r.urn,
        );
      }
    },
  },
  {
    name: "max-pods-per-stack",
    description: "A stack declares at most maxPods pods.",
    enforcementLevel: "mandatory",
    configSchema: maxPodsSchema,
    validateStack: (args, reportViolation) => {
      const { maxPods } = configOf<{ maxPods?: number }>(args, maxPodsSchema);
      if (maxPods === undefined) return;
      const pods = args.resources.filter((r) => typeOf(r.type) === POD_TYPE);
      if (pods.length <= maxPods) return;
      reportViolation(
        violation(
          "This stack",
          "Pod resources",
          `${pods.length} pods (${pods.map((p) => `"${p.name}"`).join(", ")}) are more than maxPods ${maxPods}`,
          "remove pods or split them across stacks, or raise maxPods in the policy pack config",
        ),
      );
    },
  },
];
