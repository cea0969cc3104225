/**
 * One pass of the autostop watcher: one list of the account's pods, a decision for each opted-in
 * pod (decide.ts), and the stop (or the terminate, when a pod's autostop names it) of each pod
 * idle on two passes in a row. What it keeps is returned, not written: the command keeps it.
 */

import { messageOf } from "../../provider/client/errors.js";
import type { RunpodApi, schemas } from "../../provider/client/index.js";
import { type Decision, decide, type Verdict } from "./decide.js";
import type { Memories } from "./memory-file.js";
import type { AutostopTarget } from "./targets.js";

/** One pod's line of the pass's report. */
export interface PodReport {
  readonly podId: string;
  readonly name: string;
  readonly stack: string;
  /** The decision's, or `gone` (not on the account), `stopped`/`terminated` (acted on), `failed`. */
  readonly verdict: Verdict | "gone" | "stopped" | "terminated" | "would-stop" | "would-terminate" | "failed";
  readonly detail: string;
  /** What the pod billed while running, USD per hour; null when the API does not say. */
  readonly costPerHour: number | null;
}

/** An audit log line: one per pod the pass stopped or terminated. */
export interface AuditLine {
  /** When the pass acted (ISO 8601, the watcher's clock). */
  readonly at: string;
  readonly podId: string;
  readonly name: string;
  readonly stack: string;
  readonly action: "stop" | "terminate";
  readonly window: {
    readonly minutes: number;
    readonly samples: number;
    /** The container uptime (seconds) of the window's first and last samples. */
    readonly fromUptime: number;
    readonly toUptime: number;
    readonly maxGpuUtil: number;
    readonly maxCpuUtil: number;
  };
  /** What the pod billed running, USD per hour: what the action saves, less a stopped pod's volume. */
  readonly costPerHour: number | null;
}

export interface PassResult {
  readonly pods: readonly PodReport[];
  readonly audit: readonly AuditLine[];
  /** What to keep for the next pass: only the targets' pods that are still there. */
  readonly memories: Memories;
}

export interface PassOptions {
  readonly dryRun: boolean;
  readonly maxGapSeconds: number;
  readonly now: () => number;
}

/** Whether the action leaves the pod's data: a stop keeps its volumes, a terminate only a network volume. */
function keepsData(p: schemas.Pod, action: "stop" | "terminate"): boolean {
  const network = p.mounts.network !== undefined && p.mounts.network.length > 0;
  return action === "terminate" ? network : network || p.mounts.persistent !== undefined;
}

/** Runs one pass over `targets`, from what the last pass kept. */
export async function autostopPass(
  api: RunpodApi,
  targets: readonly AutostopTarget[],
  kept: Memories,
  options: PassOptions,
): Promise<PassResult> {
  const live = new Map((await api.pods.list()).map((p) => [p.id, p]));
  const memories: Memories = {};
  const pods: PodReport[] = [];
  const audit: AuditLine[] = [];
  for (const target of targets) {
    const base = { podId: target.podId, name: target.name, stack: target.stack };
    const pod = live.get(target.podId);
    if (!pod || pod.status === "TERMINATED") {
      pods.push({ ...base, verdict: "gone", detail: "not on the account", costPerHour: null });
      continue;
    }
    const decision = decide(
      target.policy,
      kept[target.podId],
      {
        status: pod.status,
        locked: pod.locked,
        startedAt: pod.startedAt ?? null,
        keepsData: keepsData(pod, target.policy.action),
        runtime: pod.runtime,
      },
      options.maxGapSeconds,
    );
    memories[target.podId] = decision.memory;
    const costPerHour = pod.cost ?? null;
    if (decision.verdict !== "act") {
      pods.push({ ...base, verdict: decision.verdict, detail: decision.detail, costPerHour });
      continue;
    }
    const action = target.policy.action;
    if (options.dryRun) {
      pods.push({ ...base, verdict: `would-${action}`, detail: decision.detail, costPerHour });
      continue;
    }
    try {
      if (action === "terminate") await api.pods.delete(pod.id);
      else await api.pods.action(pod.id, "stop");
    } catch (err) {
      pods.push({
        ...base,
        verdict: "failed",
        detail: `${decision.detail}; the ${action} failed: ${messageOf(err)}`,
        costPerHour,
      });
      continue;
    }
    delete memories[target.podId];
    pods.push({
      ...base,
      verdict: action === "terminate" ? "terminated" : "stopped",
      detail: decision.detail,
      costPerHour,
    });
    audit.push(auditLine(target, action, decision, costPerHour, options.now()));
  }
  return { pods, audit, memories };
}

function auditLine(
  target: AutostopTarget,
  action: "stop" | "terminate",
  decision: Decision,
  costPerHour: number | null,
  now: number,
): AuditLine {
  const w = decision.window;
  return {
    at: new Date(now).toISOString(),
    podId: target.podId,
    name: target.name,
    stack: target.stack,
    action,
    window: {
      minutes: target.policy.idleMinutes,
      samples: w.length,
      fromUptime: w[0]?.uptime ?? 0,
      toUptime: w.at(-1)?.uptime ?? 0,
      maxGpuUtil: Math.max(0, ...w.map((s) => s.gpu)),
      maxCpuUtil: Math.max(0, ...w.map((s) => s.cpu)),
    },
    costPerHour,
  };
}
