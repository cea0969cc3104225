/**
 * Taking over an object that already exists (`adoptId`), the same way for every resource: read it
 * (a 404 is "no such ..."), refuse what cannot change in place, write what can, claim it so no
 * other create of this host takes it, and say so.
 */
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { HostContext } from "../host/context.js";

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
