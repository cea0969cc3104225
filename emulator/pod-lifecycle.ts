/**
 * A pod's lifecycle (contract: States and transitions): its status is read off its current boot
 * (containers.ts) at the emulator's now, and the transitions start, stop, restart and terminate
 * end one boot and begin the next. A TERMINATED pod stays readable for a grace period, then is gone.
 */
import { release } from "./capacity.js";
import { type Boot, bootStatus, lastRunningStart, newBoot } from "./containers.js";
import { conflict, notFound } from "./errors.js";
import type { PodAction, PodStatus } from "./schemas/common.js";
import type { EmulatorState, PodRecord } from "./state.js";

/** What a pod in each status may do next: its `actions[]`, and what POST .../action accepts. */
export const VALID_ACTIONS: Record<PodStatus, PodAction[]> = {
  PROVISIONING: ["stop", "terminate"],
  STARTING: ["stop", "terminate"],
  RUNNING: ["stop", "restart", "terminate"],
  EXITED: ["start", "terminate"],
  ERROR: ["start", "terminate"],
  TERMINATED: [],
};

/**
 * What a locked pod cannot do (contract: "a locked pod cannot be stopped or reset"; the emulator
 * also refuses to terminate one until it is unlocked).
 */
export const LOCKED_OUT: readonly PodAction[] = ["stop", "restart", "terminate"];

/** The actions a pod allows now: its status's, less what its lock forbids. */
export function validActions(pod: Pick<PodRecord, "status" | "locked">): PodAction[] {
  return VALID_ACTIONS[pod.status].filter((a) => !(pod.locked && LOCKED_OUT.includes(a)));
}

/**
 * Reads the pod's status off its current boot (containers.ts) at the emulator's now. Reads always
 * settle first; a stopped, terminated or forced pod has no current boot and keeps its status.
 */
export function settle(state: EmulatorState, pod: PodRecord): void {
  const boot = currentBoot(pod);
  if (!boot) return;
  const now = state.now();
  const { status } = bootStatus(boot, now);
  pod.status = status;
  const ran = lastRunningStart(boot, now);
  if (ran !== undefined) pod.startedAt = ran;
}

export function currentBoot(pod: PodRecord): Boot | undefined {
  const last = pod.boots.at(-1);
  return last && last.endedAt === undefined ? last : undefined;
}

/** Ends the current boot, if any (a stop, a terminate, a restart, a status forced out of band). */
export function endBoot(pod: PodRecord, at: number, by: NonNullable<Boot["endedBy"]>): void {
  const boot = currentBoot(pod);
  if (!boot) return;
  boot.endedAt = at;
  boot.endedBy = by;
}

/** A create or a start: PROVISIONING, then what the image's container does (containers.ts). */
export function startSequence(
  state: EmulatorState,
  pod: PodRecord,
  from: number,
  fate: "RUNNING" | "ERROR" = "RUNNING",
  kind: "create" | "start" = "create",
): void {
  endBoot(pod, from, "forced");
  pod.boots.push(newBoot(state, pod, kind, from, fate));
  pod.status = "PROVISIONING";
}

/** The container restarts in place (restart action, or a PATCH that changes it): STARTING again. */

/** The container restarts in place (restart action, or a PATCH that changes it): STARTING again. */
export function restartSequence(state: EmulatorState, pod: PodRecord): void {
  const now = state.now();
  endBoot(pod, now, "restart");
  pod.boots.push(newBoot(state, pod, "restart", now));
  pod.status = "STARTING";
}

/** The pod as a live record: undefined when it never existed or its TERMINATED grace has passed. */
export function findPod(state: EmulatorState, id: string): PodRecord | undefined {
  const pod = state.pods.get(id);
  if (!pod) return undefined;
  if (pod.goneAt !== undefined && pod.goneAt <= state.now()) {
    state.pods.delete(id);
    return undefined;
  }
  settle(state, pod);
  return pod;
}

export function requirePod(state: EmulatorState, id: string): PodRecord {
  const pod = findPod(state, id);
  if (!pod) throw notFound(`Pod '${id}' was not found.`);
  return pod;
}

export function requireModifiable(state: EmulatorState, id: string, verb: string): PodRecord {
  const pod = requirePod(state, id);
  if (pod.status === "TERMINATED") throw notFound(`Pod '${id}' was terminated.`);
  if (pod.cluster) {
    throw conflict(
      `Pod '${id}' belongs to cluster '${pod.cluster.id}' and cannot be ${verb} through the pod endpoints; use /v2/clusters/${pod.cluster.id}.`,
    );
  }
  return pod;
}

export function terminate(state: EmulatorState, pod: PodRecord): void {
  if (pod.locked) {
    throw conflict(`Pod '${pod.id}' is locked; unlock it (PATCH locked=false) before terminating it.`);
  }
  release(state, pod.machine);
  endBoot(pod, state.now(), "terminate");
  pod.status = "TERMINATED";
  // Every read goes through findPod, which drops the pod once goneAt has passed.
  pod.goneAt = state.now() + state.settings.terminatingMs;
}

/** A `globalNetworking` change made by PATCH takes effect at the next start or restart. */
export function applyPendingNetworking(pod: PodRecord): void {
  if (pod.pendingGlobalNetworking !== undefined) {
    pod.globalNetworking = pod.pendingGlobalNetworking;
    delete pod.pendingGlobalNetworking;
  }
}
