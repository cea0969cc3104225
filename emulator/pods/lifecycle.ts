/**
 * A pod's lifecycle (docs/api-model.md, States and transitions): its status is read off its current boot
 * (containers.ts) at the emulator's now, and the transitions start, stop, restart and terminate
 * end one boot and begin the next. A TERMINATED pod stays readable for a grace period, then is gone.
 *
 * This is the one module that writes a pod's status and boots: a pod enters the store through it
 * (`launchPod` for a create or a cluster member, `adoptSeededPod` for the seed's), and every other
 * module asks it for a transition.
 *
 * It also writes the pod's usage to the ledger (store/usage-ledger.ts, billing/rates.ts) at every
 * change of what it bills: its create and each start (compute and disks), a stop (the volume
 * disk alone), a change of its disks, its end. The ledger keeps a terminated pod's usage after the
 * pod has left the store.
 */

import { bootEnvironment } from "../account/secret-references.js";
import { podMetering } from "../billing/rates.js";
import { release } from "../catalog/capacity.js";
import { conflict, notFound } from "../http/errors.js";
import type { PodAction, PodStatus } from "../schemas/common.js";
import type { Boot, PodRecord } from "../store/pod-records.js";
import type { Store } from "../store/store.js";
import { bootStatus, lastRunningStart, newBoot, scriptFor } from "./containers.js";

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
 * What a locked pod cannot do (docs/api-model.md, Pods: a locked pod cannot be stopped or reset; the emulator
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
export function settle(state: Store, pod: PodRecord): void {
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

/** A pod as its creator describes it; its status, boots and start time are the lifecycle's. */
export type NewPod = Omit<PodRecord, "status" | "boots" | "startedAt">;

/** A created pod (alone or as a cluster member) enters the store PROVISIONING at `at`. */
export function launchPod(
  state: Store,
  fields: NewPod,
  at: number,
  fate: "RUNNING" | "ERROR" = "RUNNING",
): PodRecord {
  const pod: PodRecord = { ...fields, startedAt: null, status: "PROVISIONING", boots: [] };
  startSequence(state, pod, at, fate);
  state.pods.set(pod.id, pod);
  return pod;
}

/**
 * A seeded pod enters the store as the seed has it, since `at`: RUNNING or EXITED, with no boot
 * (it keeps that status until something changes it), billed from then on.
 */
export function adoptSeededPod(
  state: Store,
  fields: NewPod,
  status: "RUNNING" | "EXITED",
  at: number,
): PodRecord {
  const pod: PodRecord = { ...fields, startedAt: status === "RUNNING" ? at : null, status, boots: [] };
  state.pods.set(pod.id, pod);
  meterPod(state, pod, at);
  return pod;
}

/** A create or a start: PROVISIONING, then what the image's container does (containers.ts). */
export function startSequence(
  state: Store,
  pod: PodRecord,
  from: number,
  fate: "RUNNING" | "ERROR" = "RUNNING",
  kind: "create" | "start" = "create",
): void {
  endBoot(pod, from, "forced");
  pod.boots.push(newBoot(state, pod, kind, from, fate));
  pod.status = "PROVISIONING";
  meterPod(state, pod, from);
}

/** The container restarts in place (restart action, or a PATCH that changes it): STARTING again. */
export function restartSequence(state: Store, pod: PodRecord): void {
  const now = state.now();
  endBoot(pod, now, "restart");
  pod.boots.push(newBoot(state, pod, "restart", now));
  pod.status = "STARTING";
  meterPod(state, pod, now);
}

/**
 * A PATCH changed the container (image, command, disk, env, ports, registry, mounts): a started
 * one restarts in place; one still PROVISIONING will start the changed container instead (unless
 * it is fated to fail).
 */
export function containerChanged(state: Store, pod: PodRecord): void {
  if (pod.status === "RUNNING" || pod.status === "STARTING") {
    restartSequence(state, pod);
    return;
  }
  if (pod.status !== "PROVISIONING") return;
  const boot = currentBoot(pod);
  if (boot && boot.script.kind !== "error")
    Object.assign(boot, {
      image: pod.image,
      script: scriptFor(state, pod),
      environment: bootEnvironment(state, pod.account, pod.env),
    });
}

/** A stop: the container ends, the machine's GPUs or vCPUs go back, the pod is EXITED. */
export function stop(state: Store, pod: PodRecord): void {
  release(state, pod.machine);
  endBoot(pod, state.now(), "stop");
  pod.status = "EXITED";
  meterPod(state, pod, state.now());
}

/** A status forced out of band (the control plane): the current boot ends, the status stays. */
export function forceStatus(state: Store, pod: PodRecord, status: PodStatus): void {
  endBoot(pod, state.now(), "forced");
  pod.status = status;
  if (status === "RUNNING") pod.startedAt = state.now();
  meterPod(state, pod);
}

/**
 * From `at` on, the pod bills what its status and disks say (billing/rates.ts); called after every change
 * of either. The same billing as before continues the ledger's open stretch.
 */
export function meterPod(state: Store, pod: PodRecord, at = state.now()): void {
  state.usage.meter("pods", pod.id, pod.account, at, podMetering(pod));
}

/**
 * The pod as a live record: undefined when it never existed or its TERMINATED grace has passed,
 * and, given an `account`, when another account owns it (account/accounts.ts).
 */
export function findPod(state: Store, id: string, account?: string): PodRecord | undefined {
  const pod = state.pods.get(id);
  if (!pod) return undefined;
  if (pod.goneAt !== undefined && pod.goneAt <= state.now()) {
    state.pods.delete(id);
    return undefined;
  }
  if (account !== undefined && pod.account !== account) return undefined;
  settle(state, pod);
  return pod;
}

/** The account's pod `id`, or 404. */
export function requirePod(state: Store, id: string, account: string): PodRecord {
  const pod = findPod(state, id, account);
  if (!pod) throw notFound(`Pod '${id}' was not found.`);
  return pod;
}

export function requireModifiable(state: Store, id: string, verb: string, account: string): PodRecord {
  const pod = requirePod(state, id, account);
  if (pod.status === "TERMINATED") throw notFound(`Pod '${id}' was terminated.`);
  if (pod.cluster) {
    throw conflict(
      `Pod '${id}' belongs to cluster '${pod.cluster.id}' and cannot be ${verb} through the pod endpoints; use /v2/clusters/${pod.cluster.id}.`,
    );
  }
  return pod;
}

export function terminate(state: Store, pod: PodRecord): void {
  if (pod.locked) {
    throw conflict(`Pod '${pod.id}' is locked; unlock it (PATCH locked=false) before terminating it.`);
  }
  release(state, pod.machine);
  endBoot(pod, state.now(), "terminate");
  pod.status = "TERMINATED";
  // The pod's usage ends here and stays in the ledger after the pod has left the store.
  meterPod(state, pod, state.now());
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
