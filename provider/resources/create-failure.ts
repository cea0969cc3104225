/**
 * What a create does when the pod or cluster it made does not become ready (`onCreateFailure`):
 * the object exists and bills, so it is either kept in state as asked, or removed; when the removal
 * fails too it is recorded in state. Every message names its id.
 */
import { messageOf } from "../client/errors.js";
import { partialFailure } from "./common.js";

export interface FailedCreate {
  /** The resource, as its errors name it: `Pod trainer`. */
  readonly what: string;
  readonly noun: "pod" | "cluster";
  readonly id: string;
  /** How it failed, said after its id: `did not become ready (...)`. */
  readonly failed: string;
  /** The same, said after "was created but". @default `failed` */
  readonly keptFailed?: string;
  /** `onCreateFailure: "keep"`. */
  readonly keep: boolean;
  /** Its outputs for state, when it stays there (kept, or its removal failed). */
  readonly outputs: (kept: boolean) => Promise<object> | object;
  /** Terminates or deletes it and waits until it is gone. */
  readonly remove: () => Promise<unknown>;
  /** How the removal is said: a pod is terminated, a cluster deleted. */
  readonly removal: "terminate" | "delete";
}

/** Always throws: the failure as the engine records it. */
export async function failCreate(f: FailedCreate): Promise<never> {
  const [doing, done] = f.removal === "terminate" ? ["terminating", "terminated"] : ["deleting", "deleted"];
  if (f.keep) {
    throw partialFailure(
      f.id,
      await f.outputs(true),
      `${f.what}: ${f.noun} ${f.id} was created but ${f.keptFailed ?? f.failed}. It was kept as you asked (onCreateFailure: "keep") and is recorded in state; it bills until you delete it.`,
    );
  }
  try {
    await f.remove();
  } catch (cleanup) {
    throw partialFailure(
      f.id,
      await f.outputs(false),
      `${f.what}: ${f.noun} ${f.id} ${f.failed} and ${doing} it failed too (${messageOf(cleanup)}). It is recorded in state; run \`pulumi destroy\` or delete ${f.noun} ${f.id} in the RunPod console, as it may still bill.`,
    );
  }
  throw new Error(
    `${f.what}: ${f.noun} ${f.id} ${f.failed}. It was ${done} so it does not bill; set onCreateFailure: "keep" to keep a failed ${f.noun} for inspection.`,
  );
}
