/**
 * One wait on a pod as the watcher (watcher.ts) keeps it, and what a read of the pod makes of it:
 * done, failed, or still waiting.
 */
import type { Pod, PodLogLine, PodStatus } from "../client/schemas/pods.js";
import type { WaitFailureReason } from "./wait-failure.js";

/** What a waiter waits for: RUNNING, placed on a machine (STARTING or RUNNING), stopped (EXITED), or deleted. */
export type WaitTarget = "RUNNING" | "PLACED" | "STOPPED" | "GONE";

export interface Waiter {
  readonly podId: string;
  readonly target: WaitTarget;
  /** A cluster member: the pod list shows it only when asked to include cluster pods. */
  readonly clusterMember: boolean;
  readonly deadline: number;
  readonly onStatus: ((status: PodStatus, pod: Pod) => void) | undefined;
  readonly onRead: ((pod: Pod) => void) | undefined;
  /** RUNNING is reached only once this also holds (readiness: ports mapped, a probe passed). */
  readonly until: ((pod: Pod) => boolean) | undefined;
  /** Only a failure is news (a probe decides success): read at the longest interval. */
  readonly relaxed: () => boolean;
  /** The lines of the pod's log when the watcher reads it; without it, the watcher never does. */
  readonly logLines: ((line: PodLogLine) => void) | undefined;
  /** Pods of one kind take about as long to start: the key their times are learned under. */
  readonly kind: string | undefined;
  readonly since: number;
  /** When the pod was last read and not yet RUNNING. */
  lastMissAt: number;
  seenRunning: boolean;
  lastStatus: PodStatus | undefined;
  lastPod: Pod | undefined;
  resolve(pod: Pod | undefined): void;
  reject(err: Error): void;
}

/**
 * What the read `pod` (undefined: not found, deleted) means for `w`, its last status already
 * recorded: `done` with what the wait resolves with, a failure, or still waiting.
 */
export function waitOutcome(
  w: Pick<Waiter, "podId" | "target" | "until" | "lastStatus">,
  pod: Pod | undefined,
): { done: Pod | undefined } | { reason: WaitFailureReason; message: string } | "waiting" {
  const status = pod?.status;
  if (w.target === "GONE") return !pod || status === "TERMINATED" ? { done: undefined } : "waiting";
  if (!pod || status === "TERMINATED") {
    return {
      reason: "VANISHED",
      message: `pod ${w.podId} was deleted while waiting for it (last status ${w.lastStatus ?? "unknown"})`,
    };
  }
  if (w.target === "STOPPED") {
    if (status === "EXITED") return { done: pod };
    return status === "ERROR"
      ? { reason: "ERROR", message: `pod ${w.podId} went to ERROR while stopping` }
      : "waiting";
  }
  if (status === "RUNNING" && (w.until === undefined || w.until(pod))) return { done: pod };
  if (w.target === "PLACED" && (status === "STARTING" || status === "RUNNING")) return { done: pod };
  if (status === "ERROR") return { reason: "ERROR", message: `pod ${w.podId} went to ERROR` };
  if (status === "EXITED") {
    return { reason: "EXITED", message: `pod ${w.podId} stopped (EXITED) while waiting for it to run` };
  }
  return "waiting";
}
