/**
 * Why a pod's wait (provider/host/watcher.ts) ended without reaching its target: one error type,
 * recognised by its code across module copies.
 */
import { FAILURE_CODES, hasFailureCode } from "../client/errors.js";
import type { Pod, PodStatus } from "../client/schemas/pods.js";

/**
 * CONTAINER: the pod's log said its container will never start; NOT_READY: a readiness check ran
 * out of time; CLOSED: the watcher was closed while the pod was waited for.
 */
export type WaitFailureReason =
  | "ERROR"
  | "EXITED"
  | "VANISHED"
  | "TIMEOUT"
  | "CLOSED"
  | "CONTAINER"
  | "NOT_READY";

/** Why a wait ended without reaching its target. `lastStatus` is what the pod last showed. */
export class WaitFailure extends Error {
  override readonly name = "WaitFailure";
  readonly code = FAILURE_CODES.WAIT_FAILED;
  constructor(
    readonly podId: string,
    readonly reason: WaitFailureReason,
    readonly lastStatus: PodStatus | undefined,
    readonly lastPod: Pod | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Whether a wait ended in a WaitFailure, by its code (works across module copies). */
export function isWaitFailure(err: unknown): err is WaitFailure {
  return hasFailureCode(err, FAILURE_CODES.WAIT_FAILED);
}
