/**
 * Autostop policies (docs/autostop.md): a GPU pod that nothing stops when idle is flagged, and an
 * autostop that would throw a pod's data away is refused unless the program says that is fine.
 * Autostop on a locked pod is refused by the provider's check (pod-policies.ts,
 * `pod-autostop-locked`).
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isUnknown, list, POD_TYPE, type Props, record, resourcePolicy, subject, violation } from "./common";

/** What survives the autostop's action: a stop keeps the pod's volumes, a terminate only a network volume. */
function keepsData(pod: Props, action: unknown): boolean | undefined {
  const mounts = record(pod.mounts);
  if (isUnknown(pod.mounts) || isUnknown(mounts?.persistent) || isUnknown(mounts?.network)) return undefined;
  const network = (list(mounts?.network)?.length ?? 0) > 0;
  return action === "terminate" ? network : network || mounts?.persistent !== undefined;
}

export const autostopPolicies: readonly ResourceValidationPolicy[] = [
  resourcePolicy({
    name: "pod-gpu-autostop",
    description: "A GPU pod should declare autostop, so that an idle one stops billing.",
    enforcementLevel: "advisory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      if (pod.props.gpu === undefined || isUnknown(pod.props.gpu) || pod.props.autostop !== undefined) return;
      if (pod.props.desiredStatus === "STOPPED") return;
      report(
        violation(
          subject(pod.type, pod.name),
          "autostop",
          "an idle GPU pod bills its full rate until someone stops it, and nothing here will",
          "declare autostop (for example { idleMinutes: 60, gpuUtilBelow: 5 }) and run `runpod-dynamic autostop` on a schedule",
        ),
      );
    },
  }),
  resourcePolicy({
    name: "pod-autostop-data-loss",
    description:
      "Autostop must not throw away a pod's data unless the program says so: a stop keeps volumes but not the container disk, a terminate keeps only a network volume.",
    enforcementLevel: "mandatory",
    types: [POD_TYPE],
    validate: (pod, _config, report) => {
      const autostop = record(pod.props.autostop);
      if (!autostop || autostop.allowDataLoss === true || isUnknown(autostop.allowDataLoss)) return;
      if (keepsData(pod.props, autostop.action) !== false) return;
      const terminate = autostop.action === "terminate";
      report(
        violation(
          subject(pod.type, pod.name),
          "autostop",
          terminate
            ? "autostop terminates this pod when idle, and it has no network volume: everything on it is lost"
            : "autostop stops this pod when idle, and it has no volume: a stop loses its container disk, which holds everything",
          terminate
            ? "mount a network volume (mounts.network), or set autostop.allowDataLoss: true if nothing on the pod needs keeping"
            : "mount a network volume or a persistent volume for what must be kept, or set autostop.allowDataLoss: true",
        ),
      );
    },
  }),
];
