/**
 * Writes that are never doubled. The client never retries a creating POST, nor a PUT of
 * the whole SSH key set, by itself: after a 5xx, a broken connection, a timeout or an unreadable
 * 2xx the write may have taken effect. It is given time to land (the request deadline is
 * wall-clock time, so is the wait), then looked for; only when it is not there is it sent again.
 *
 * Pods do better (a create key in their environment, provider/resources/pod/translate.ts, through
 * provider/host/placement.ts); endpoints, network volumes, templates, registries, secrets and
 * clusters carry no such marker, so `createOnce` recognises them by their own fields. An object
 * the account had before the create was first sent is never taken for it, whatever it is called
 * (it is another stack's, or the account's own), nor is one this process already owns.
 */
import { type Clock, realClock } from "./clock.js";
import { mayHaveLanded, messageOf } from "./errors.js";

/** Sends of one create in all. */
const ATTEMPTS = 4;

/**
 * The one settle policy for writes that went unanswered. A write that failed after `took` ms
 * (wall clock, like the request deadline; at most a minute counts) may still be processed: it is
 * given as long again before a first look for what it did, and taken to have landed or died three
 * times as long after it failed.
 * - A write whose late landing would still be recognised (a pod carrying its create key, an SSH
 *   key set that is verified again) looks at `lookAt`, and once more at `settlesAt`.
 * - A write nothing would recognise later (endpoints, volumes, templates, registries) looks only
 *   at `settlesAt`, since nothing would clean up what lands after the look.
 */
export interface Settling {
  /** When a first look for what the write did is worth it (Date.now() scale). */
  readonly lookAt: number;
  /** When the write is taken to have landed or died; anything it makes later is a duplicate. */
  readonly settlesAt: number;
}

export function settling(startedAt: number, failedAt: number = Date.now()): Settling {
  const took = Math.min(60_000, Math.max(0, failedAt - startedAt));
  return { lookAt: failedAt + took, settlesAt: failedAt + 3 * took };
}

/** Waits until a wall-clock time (the settle times follow the wall-clock request deadline). */
export const waitUntil = (at: number): Promise<void> => realClock.sleep(Math.max(0, at - Date.now()));

/** The pause before sending an unanswered create again: exponential with jitter, at most 16 s. */
export function resendBackoffMs(resent: number): number {
  return Math.min(8000, 500 * 2 ** resent) * (1 + Math.random());
}

export interface CreateOnceSpec<T extends { id: string }> {
  /** What is being created, for messages: `an endpoint named "sdxl"`. */
  readonly what: string;
  readonly create: () => Promise<T>;
  /**
   * The objects of this kind the account has (all of them, or those a create with these fields
   * could have made): read once before the first send, and again after a send went unanswered.
   */
  readonly list: () => Promise<readonly T[]>;
  /** Whether an object the account did not have before may be the one an unanswered create made. */
  readonly matches: (candidate: T) => boolean;
  /** Why nothing may be sent, given what the account had before (a name it already uses). */
  readonly refuse?: (existing: readonly T[]) => Error | undefined;
  /** Ids this process already owns (created, found or adopted). Found and created ids are added. */
  readonly claimed: Set<string>;
  /** The service's clock: the pause before a resend is slept on it. */
  readonly clock: Clock;
}

export async function createOnce<T extends { id: string }>(spec: CreateOnceSpec<T>): Promise<T> {
  // What is there before anything is sent is someone else's: it is never taken for ours. One read
  // more per create, for kinds that are created a few at a time.
  const existing = await spec.list();
  const refused = spec.refuse?.(existing);
  if (refused) throw refused;
  const before = new Set(existing.map((x) => x.id));
  for (let attempt = 1; ; attempt += 1) {
    const startedAt = Date.now();
    try {
      const created = await spec.create();
      spec.claimed.add(created.id);
      return created;
    } catch (err) {
      if (!mayHaveLanded(err)) throw err;
      // Nothing would clean up an object that lands after the look-up, so wait until the request
      // has surely landed or died before looking.
      await waitUntil(settling(startedAt).settlesAt);
      let after: readonly T[];
      try {
        // The client has retried this read (5xx, network, 429); a failure here is final.
        after = await spec.list();
      } catch (lookup) {
        throw new Error(
          `a create went unanswered (${err.message}) and looking for what it may have made failed too (${messageOf(lookup)}); check the account for ${spec.what} before running again.`,
        );
      }
      const found = after.find((x) => !before.has(x.id) && !spec.claimed.has(x.id) && spec.matches(x));
      if (found) {
        spec.claimed.add(found.id);
        return found;
      }
      if (attempt >= ATTEMPTS) throw err;
      await spec.clock.sleep(resendBackoffMs(attempt - 1));
    }
  }
}
