/**
 * Writes that are never doubled. The client never retries a creating POST, nor a PUT of
 * the whole SSH key set, by itself: after a 5xx, a broken connection, a timeout or an unreadable
 * 2xx the write may have taken effect. It is given time to land (the request deadline is
 * wall-clock time, so is the wait), then looked for; only when it is not there is it sent again.
 *
 * Pods do better (a create key in their environment, provider/resources/pod/create-key.ts, through
 * provider/host/placement.ts); endpoints, network volumes and templates carry no such marker, so
 * `createOnce` recognises them by their own fields, and an object this process already owns is
 * never taken twice.
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
  /** Every object of this kind the account has. */
  readonly list: () => Promise<readonly T[]>;
  /** Whether an object may be the one an unanswered create made (given `sentAt`, service-clock ms). */
  readonly matches: (candidate: T, sentAt: number) => boolean;
  /** Ids this process already owns (created, found or adopted). Found and created ids are added. */
  readonly claimed: Set<string>;
  /** The service's clock: `sentAt` is read from it, and the pause before a resend is slept on it. */
  readonly clock: Clock;
}

export async function createOnce<T extends { id: string }>(spec: CreateOnceSpec<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const sentAt = spec.clock.now();
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
      let existing: readonly T[];
      try {
        // The client has retried this read (5xx, network, 429); a failure here is final.
        existing = await spec.list();
      } catch (lookup) {
        throw new Error(
          `a create went unanswered (${err.message}) and looking for what it may have made failed too (${messageOf(lookup)}); check the account for ${spec.what} before running again.`,
        );
      }
      const found = existing.find((x) => !spec.claimed.has(x.id) && spec.matches(x, sentAt));
      if (found) {
        spec.claimed.add(found.id);
        return found;
      }
      if (attempt >= ATTEMPTS) throw err;
      await spec.clock.sleep(resendBackoffMs(attempt - 1));
    }
  }
}
