/**
 * A Pod's autostop setting (fields.ts declares the field): what the `runpod-dynamic autostop`
 * watcher reads from a stack's state to decide when the pod is idle and what to do then
 * (docs/autostop.md).
 */
import { z } from "zod";
import { declaredDefaults } from "../../fields/derive.js";
import { choice } from "../../fields/meta.js";

export const AutostopAction = choice("AutostopAction", "What the autostop watcher does to an idle pod.", {
  stop: "Stop it: its volume and machine are kept and its GPUs stop billing; `runpod-dynamic pods start` brings it back.",
  terminate:
    "Terminate it: the pod and its disks are gone, and the next `pulumi up` creates a new one. Only when named.",
});

export const PodAutostop = z
  .strictObject({
    idleMinutes: z.int().min(10).max(10_080).optional().meta({
      description: "How long every sample must be idle before the pod is stopped: the window.",
      unit: "minutes",
      default: 60,
    }),
    gpuUtilBelow: z.int().min(1).max(100).optional().meta({
      description: "A sample is idle when every GPU of the pod is under this utilization.",
      unit: "percent",
      default: 5,
    }),
    cpuUtilBelow: z.int().min(1).max(101).optional().meta({
      description:
        "A sample is idle only when the pod's CPU is under this utilization too: a pod busy on its CPUs is not idle. 101 leaves the CPU out.",
      unit: "percent",
      default: 50,
    }),
    action: AutostopAction.optional().meta({
      description: "What is done to an idle pod.",
      default: "stop",
    }),
    allowDataLoss: z.boolean().optional().meta({
      description:
        "Whether the watcher may stop a pod that has no volume, persistent or network: a stop loses its container disk, and without a volume that is everything. Without it the watcher leaves such a pod running.",
      default: false,
    }),
  })
  .meta({
    id: "PodAutostop",
    description:
      "Stopping the pod when its GPUs have been idle for a while, by the `runpod-dynamic autostop` watcher, which reads it from the stack's state. A pod the watcher (or anyone outside this stack) stopped stays stopped: `pulumi up`, a refresh and an unrelated update leave it so, and `runpod-dynamic pods start` brings it back.",
  });

/** A Pod's autostop setting with every declared default applied: what the watcher and the estimate judge by. */
export type AutostopPolicy = {
  readonly [K in keyof z.infer<typeof PodAutostop>]-?: Exclude<z.infer<typeof PodAutostop>[K], undefined>;
};

const DEFAULTS = declaredDefaults(PodAutostop) as AutostopPolicy;

/** `given` with each field it leaves out at its declared default. */
export function autostopPolicy(given: z.infer<typeof PodAutostop>): AutostopPolicy {
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}
