/**
 * What a create leads to besides a new object that became ready, the same way for every resource:
 * an object that already exists taken over (`adoptId`), or one the API accepted that then failed
 * (`onCreateFailure`), kept in state or removed.
 */
import { ERROR_CODES, isRunpodApiError, messageOf } from "../client/errors.js";
import type { HostContext } from "../host/context.js";
import { partialFailure } from "./common.js";

// ---------------------------------------------------------------- adoption

/*
 * Taking over an object that already exists (`adoptId`): read it (a 404 is "no such ..."), refuse
 * what cannot change in place, write what can, claim it so no other create of this host takes it,
 * and say so.
 */

/**
 * What taking an object over needs, decided once from the object as read: why it cannot be taken
 * (something that cannot change in place differs), or the write that brings it in line with the
 * inputs (none when nothing differs).
 */
export interface AdoptionPlan<T> {
  /** Why it cannot be taken over; nothing is written then. */
  readonly refused?: string;
  readonly write?: () => Promise<T>;
}

export interface Adoption<T, O> {
  /** The resource, as its errors and progress name it: `Pod trainer`. */
  readonly what: string;
  /** What the object is called in messages: `network volume`. */
  readonly noun: string;
  readonly id: string;
  readonly read: () => Promise<T>;
  readonly plan: (found: T) => AdoptionPlan<T>;
  /** The host's claims on this kind of object. */
  readonly claims?: Set<string>;
  readonly outputs: (current: T) => O;
  /** Said after "adopted existing <noun> <id>". @default "" */
  readonly note?: string;
}

export async function adopt<T, O>(ctx: HostContext, a: Adoption<T, O>): Promise<{ id: string; outs: O }> {
  let found: T;
  try {
    found = await a.read();
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) {
      throw new Error(`${a.what}: adoptId ${a.id}: no such ${a.noun} (or this API key cannot see it).`);
    }
    throw err;
  }
  const plan = a.plan(found);
  if (plan.refused !== undefined)
    throw new Error(`${a.what}: adoptId ${a.id} cannot be adopted: ${plan.refused}.`);
  // Claimed before the write: a create of this host that runs meanwhile must not take it too.
  a.claims?.add(a.id);
  const current = plan.write ? await plan.write() : found;
  ctx.progress(a.what, `adopted existing ${a.noun} ${a.id}${a.note ?? ""}`);
  return { id: a.id, outs: a.outputs(current) };
}

// ---------------------------------------------------------------- a create that failed

/*
 * What a create does when the pod or cluster it made does not become ready (`onCreateFailure`):
 * the object exists and bills, so it is either kept in state as asked, or removed; when the removal
 * fails too it is recorded in state. Every message names its id.
 */

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
