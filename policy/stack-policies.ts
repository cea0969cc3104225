/**
 * Stack policies: rules about the stack as a whole, run by `AnalyzeStack` at the end of a preview
 * or update over every resource's outputs (a resource about to be created shows its inputs).
 */
import type { StackValidationPolicy } from "@pulumi/policy";
import {
  configOf,
  POD_TYPE,
  plainProps,
  type ResourceView,
  SSH_KEY_TYPE,
  subject,
  violation,
} from "./common";

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
        type: r.type,
        name: r.name,
        urn: r.urn,
        props: r.type === POD_TYPE ? plainProps(r.props) : {},
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
    name: "max-pods-per-stack",
    description: "A stack declares at most maxPods pods.",
    enforcementLevel: "mandatory",
    configSchema: maxPodsSchema,
    validateStack: (args, reportViolation) => {
      const { maxPods } = configOf<{ maxPods?: number }>(args, maxPodsSchema);
      if (maxPods === undefined) return;
      const pods = args.resources.filter((r) => r.type === POD_TYPE);
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
