/**
 * Pod policies (type `pulumi-nodejs:dynamic/runpod:Pod`).
 *
 * The mandatory ones are the provider's own `checkPod` (strict schema plus every cross-field rule
 * of the contract, unknown-aware), split by rule: each check failure is assigned to one named
 * policy by {@link podCheckRules}, so `pulumi preview --policy-pack` and the provider's `check` can
 * never disagree, and a user can still disable or downgrade one rule (for example only the
 * request-size rule). Whatever `checkPod` reports that no named rule claims goes to
 * `pod-valid-inputs`, so nothing the provider would reject is lost if its wording changes.
 *
 * The advisory ones flag settings the API accepts but that silently do not do what they suggest.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { type CheckFailure, checkPod } from "runpod-dynamic/review";
import {
  isUnknown,
  list,
  POD_TYPE,
  type Props,
  placementSource,
  type ResourceView,
  record,
  resourcePolicy,
  subject,
  violation,
} from "./common";

/** The named policies that own `checkPod` failures. */
export const POD_CHECK_RULES = [
  {
    name: "pod-persistent-with-network",
    description: "A pod cannot combine a persistent mount with a network volume (the API answers 400).",
    fix: "drop mounts.persistent (deprecated) and keep the network volume",
  },
  {
    name: "pod-persistent-with-global",
    description: "A pod cannot combine a persistent mount with a global volume (the API answers 400).",
    fix: "drop mounts.persistent (deprecated) and keep the global volume",
  },
  {
    name: "pod-persistent-on-cpu",
    description: "A CPU pod cannot have a persistent mount.",
    fix: "remove mounts.persistent; a CPU pod can mount a network volume (mounts.network) or a global volume (mounts.global)",
  },
  {
    name: "pod-network-volume-community",
    description:
      "Network volumes are Secure Cloud only: a COMMUNITY pod cannot mount one (the API answers 400).",
    fix: "set cloud to SECURE (the default), or drop mounts.network and keep data in the container or volume disk",
  },
  {
    name: "pod-gpu-or-cpu",
    description: "A pod sets exactly one of gpu and cpu.",
    fix: "set gpu for a GPU pod or cpu for a CPU pod, not both and not neither",
  },
  {
    name: "pod-cuda-constraint-conflict",
    description:
      "A non-empty gpu.allowedCudaVersions cannot be combined with gpu.minCudaVersion (the API answers 400).",
    fix: "keep either gpu.allowedCudaVersions (exact versions) or gpu.minCudaVersion (a floor), not both",
  },
  {
    name: "pod-cuda-version-format",
    description: "CUDA versions are written major.minor.",
    fix: 'write each CUDA version as a "major.minor" string, e.g. "12.4"',
  },
  {
    name: "pod-cpu-vcpu-count",
    description: "A CPU pod's vCPU count is a power of two, at least 2.",
    fix: "set cpu.vcpuCount to 2, 4, 8, ... as the CPU flavor offers",
  },
  {
    name: "pod-disk-size",
    description: "A pod's container disk is a whole number of GB, at least 1.",
    fix: "set disk to 1 or more",
  },
  {
    name: "pod-persistent-size",
    description: "A persistent mount is at least 10 GB.",
    fix: "set mounts.persistent.size to 10 or more, or better, use a network volume",
  },
  {
    name: "pod-single-volume-mount",
    description: "A pod mounts at most one network volume and at most one global volume.",
    fix: "keep one entry in mounts.network and one in mounts.global",
  },
  {
    name: "pod-ports-format",
    description: "Each pod port is <port>/<protocol>.",
    fix: 'write each port as <port>/<protocol> with a port from 1 to 65535 and protocol http, tcp or udp, e.g. "8888/http" or "22/tcp"',
  },
  {
    name: "pod-name",
    description: "A pod has a non-empty name.",
    fix: "give the pod a non-empty name input",
  },
  {
    name: "pod-request-size",
    description:
      "A pod's create body, as the provider sends it, must fit in 102400 bytes (the API answers 413).",
    fix: "shrink the body: move large env values, commands or args into the image (a template's settings count too, once the API expands the request with them)",
  },
  {
    name: "pod-autostop-locked",
    description: "A locked pod cannot have autostop: the API never stops a locked pod.",
    fix: "remove autostop, or set locked to false",
  },
  {
    name: "pod-valid-inputs",
    description: "Pod inputs must pass the provider's check.",
    fix: "correct the input as the Pod reference (docs/reference) describes",
  },
] as const;

type PodCheckRuleName = (typeof POD_CHECK_RULES)[number]["name"];

/** The rule that owns whatever no other rule claims. */
const POD_CATCH_ALL: PodCheckRuleName = "pod-valid-inputs";

const RULE_NAMES: ReadonlySet<string> = new Set(POD_CHECK_RULES.map((r) => r.name));
const TOO_MANY = /at most 1 item/;

/**
 * Which named rule(s) own one `checkPod` failure. A cross-field rule of the provider names its
 * rules itself (`rules`; a persistent mount next to both a network and a global volume is one
 * failure and two rule violations); a schema failure is owned by its property path. Whatever no
 * rule claims falls to `pod-valid-inputs`: still mandatory, never lost.
 */
export function podCheckRules(failure: CheckFailure, _props: Props): PodCheckRuleName[] {
  const named = (failure.rules ?? []).filter((r): r is PodCheckRuleName => RULE_NAMES.has(r));
  if (named.length > 0) return named;
  const { property, reason } = failure;
  switch (property) {
    case "name":
      return ["pod-name"];
    case "gpu.minCudaVersion":
      return ["pod-cuda-version-format"];
    case "cpu.vcpuCount":
      return ["pod-cpu-vcpu-count"];
    case "disk":
      return ["pod-disk-size"];
    case "mounts.persistent.size":
      return ["pod-persistent-size"];
    case "mounts.network":
    case "mounts.global":
      // The schema's own wording for `.max(1)` (zod), the only schema rule on these paths.
      return TOO_MANY.test(reason) ? ["pod-single-volume-mount"] : [POD_CATCH_ALL];
  }
  if (/^gpu\.allowedCudaVersions(\[\d+\])?$/.test(property)) return ["pod-cuda-version-format"];
  if (/^ports(\[\d+\])?$/.test(property)) return ["pod-ports-format"];
  return [POD_CATCH_ALL];
}

/**
 * `checkPod`, never throwing: an exception in a policy fails the whole Analyze call ("failed to run
 * policy"), so a check that throws on a malformed input becomes a `pod-valid-inputs` failure.
 */
export function podCheckFailures(props: Props): CheckFailure[] {
  try {
    return checkPod(props);
  } catch (err) {
    return [{ property: "", reason: `the provider's check could not run: ${(err as Error).message}` }];
  }
}

function checkRulePolicy(rule: (typeof POD_CHECK_RULES)[number]): ResourceValidationPolicy {
  return resourcePolicy({
    name: rule.name,
    description: rule.description,
    enforcementLevel: "mandatory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      for (const failure of podCheckFailures(pod.props)) {
        if (podCheckRules(failure, pod.props).includes(rule.name)) {
          report(violation(subject(pod.type, pod.name), failure.property, failure.reason, rule.fix));
        }
      }
    },
  });
}

/** The ports a pod publishes, or undefined when they cannot be known now (preview, or a template's). */
function knownPorts(props: Props): readonly unknown[] | undefined {
  // Explicit body fields override the template's; without `ports` the template's apply
  // (docs/api-model.md, Templates on create, rule 1), and the pack cannot see them.
  if (props.ports === undefined && props.templateId !== undefined) return undefined;
  if (isUnknown(props.ports)) return undefined;
  return list(props.ports) ?? [];
}

function portPolicy(options: {
  name: string;
  description: string;
  flag: "startSsh" | "startJupyter";
  port: string;
  consequence: string;
}): ResourceValidationPolicy {
  return resourcePolicy({
    name: options.name,
    description: options.description,
    enforcementLevel: "advisory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      if (pod.props[options.flag] !== true) return;
      const ports = knownPorts(pod.props);
      if (ports === undefined || ports.includes(options.port) || ports.some(isUnknown)) return;
      report(
        violation(
          subject(pod.type, pod.name),
          "ports",
          `${options.flag} is set but ports has no "${options.port}", so ${options.consequence}`,
          `add "${options.port}" to ports`,
        ),
      );
    },
  });
}

/**
 * Whether a GPU pod has somewhere else to go when its first choice has no capacity. A create places
 * exactly one GPU type and never falls back (docs/api-model.md, What the service does, 3); the provider's
 * placement walk is the only fallback (provider/resources/pod/start.ts `buildCandidates`).
 */
function placementFallback(props: Props): "pinned" | "fallback" | "unknown" {
  if (isUnknown(props.placement)) return "unknown";
  const placement = record(props.placement);
  switch (placementSource(placement)) {
    case "candidates":
      if (isUnknown(placement?.candidates)) return "unknown";
      return (list(placement?.candidates)?.length ?? 0) > 1 ? "fallback" : "pinned";
    case "catalog":
      if (isUnknown(placement?.maxCandidates)) return "unknown";
      return placement?.maxCandidates === 1 ? "pinned" : "fallback";
    case "request":
      break;
  }
  if (isUnknown(props.dataCenterIds)) return "unknown";
  return (list(props.dataCenterIds)?.length ?? 0) > 1 ? "fallback" : "pinned";
}

function describeGpu(props: Props): string {
  const id = record(props.gpu)?.id;
  return typeof id === "string" && !isUnknown(id) ? `"${id}"` : "its GPU type";
}

const advisoryPolicies: ResourceValidationPolicy[] = [
  resourcePolicy({
    name: "pod-persistent-mount-deprecated",
    description: "The persistent mount is deprecated in favor of network volumes.",
    enforcementLevel: "advisory",
    types: [POD_TYPE],
    validate: (pod: ResourceView, _config, report) => {
      const persistent = record(pod.props.mounts)?.persistent;
      if (persistent === undefined || isUnknown(persistent)) return;
      report(
        violation(
          subject(pod.type, pod.name),
          "mounts.persistent",
          "host-local persistent storage is deprecated and its data does not survive a host failure",
          "create a network volume in the pod's data center and mount it with mounts.network: [{ volumeId, path }]",
        ),
      );
    },
  }),
  portPolicy({
    name: "pod-ssh-port",
    description: "startSsh needs 22/tcp in ports for direct SSH.",
    flag: "startSsh",
    port: "22/tcp",
    consequence:
      "ssh.direct stays null and only the SSH proxy works (interactive shell only: no scp, sftp, rsync or port forwarding)",
  }),
  portPolicy({
    name: "pod-jupyter-port",
    description: "startJupyter needs 8888/http in ports to reach JupyterLab.",
    flag: "startJupyter",
    port: "8888/http",
    consequence: "JupyterLab starts but cannot be reached",
  }),
  resourcePolicy({
    name: "pod-global-networking-cpu",
    description: "Global networking requires an NVIDIA GPU pod.",
    enforcementLevel: "advisory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      if (pod.props.globalNetworking !== true || pod.props.cpu === undefined) return;
      report(
        violation(
          subject(pod.type, pod.name),
          "globalNetworking",
          "global networking requires an NVIDIA GPU, so this CPU pod gets no private cross-data-center address",
          "remove globalNetworking, or make this a GPU pod",
        ),
      );
    },
  }),
  resourcePolicy({
    name: "pod-placement-fallback",
    description: "A GPU pod should have a fallback placement candidate.",
    enforcementLevel: "advisory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      if (pod.props.gpu === undefined || pod.props.cpu !== undefined) return;
      if (placementFallback(pod.props) !== "pinned") return;
      report(
        violation(
          subject(pod.type, pod.name),
          "placement",
          `the pod gets a single create attempt for ${describeGpu(pod.props)} in one data center choice, and the API neither searches for capacity nor falls back, so a capacity shortage fails the deployment`,
          "add placement.regions and placement.gpuTypeIds (or two or more placement.candidates, or two or more dataCenterIds) so the provider can try the next candidate",
        ),
      );
    },
  }),
];

/** Every Pod policy: one mandatory policy per check rule, then the advisory ones. */
export const podPolicies: readonly ResourceValidationPolicy[] = [
  ...POD_CHECK_RULES.map(checkRulePolicy),
  ...advisoryPolicies,
];
