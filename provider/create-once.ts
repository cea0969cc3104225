/**
 * A create that is never doubled (issue 10). The client never retries a POST by itself: after a
 * 5xx, a broken connection, a timeout or an unreadable 2xx the object may exist. It is given time
 * to land (three times as long as the attempt took: the request deadline is wall-clock time), then
 * looked for among the account's objects; only when none is there is the create sent again.
 *
 * Pods do better (a create key in their environment, provider/resources/pod.ts); endpoints, network
 * volumes and templates carry no such marker, so they are recognised by their own fields, and an
 * object this process already owns is never taken twice.
 */
import { ERROR_CODES, isRunpodApiError } from "./client/errors.js";
import { sleep } from "./context.js";

const AMBIGUOUS = [
  ERROR_CODES.SERVER_ERROR,
  ERROR_CODES.NETWORK,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.INVALID_RESPONSE,
] as const;

const TRANSIENT = [
  ERROR_CODES.SERVER_ERROR,
  ERROR_CODES.NETWORK,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.RATE_LIMITED,
] as const;

export interface CreateOnceSpec<T extends { id: string }> {
  /** What is being created, for messages: `an endpoint named "sdxl"`. */
  readonly what: string;
  readonly create: () => Promise<T>;
  /** Every object of this kind the account has. */
  readonly list: () => Promise<readonly T[]>;
  /** Whether an object may be the one an unanswered create made (given `sentAt`, emulator-clock ms). */
  readonly matches: (candidate: T, sentAt: number) => boolean;
  /** Ids this process already owns. Found and created ids are added. */
  readonly claimed: Set<string>;
  /** Creates sent in all. @default 4 */
  readonly attempts?: number;
  /** The clock the `sentAt` given to `matches` is read from. */
  readonly now: () => number;
}

/** The list, asked again after the client's own retries: the alternative is a duplicate. */
async function listPatiently<T>(list: () => Promise<readonly T[]>): Promise<readonly T[]> {
  for (let round = 1; ; round += 1) {
    try {
      return await list();
    } catch (err) {
      if (round >= 3 || !isRunpodApiError(err, ...TRANSIENT)) throw err;
      await sleep(1000 * round);
    }
  }
}

export async function createOnce<T extends { id: string }>(spec: CreateOnceSpec<T>): Promise<T> {
  const attempts = spec.attempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    const sentAt = spec.now();
    const startedAt = Date.now();
    try {
      const created = await spec.create();
      spec.claimed.add(created.id);
      return created;
    } catch (err) {
      // A request that never left this process was already retried by the client.
      if (!isRunpodApiError(err, ...AMBIGUOUS) || err.outcome === "not-sent") throw err;
      // Nothing would clean up an object that lands after the look-up, so wait until the request
      // has surely landed or died before looking.
      await new Promise((resolve) => setTimeout(resolve, 3 * Math.min(60_000, Date.now() - startedAt)));
      let existing: readonly T[];
      try {
        existing = await listPatiently(spec.list);
      } catch (lookup) {
        throw new Error(
          `a create went unanswered (${err.message}) and looking for what it may have made failed too (${lookup instanceof Error ? lookup.message : String(lookup)}); check the account for ${spec.what} before running again.`,
        );
      }
      const found = existing.find((x) => !spec.claimed.has(x.id) && spec.matches(x, sentAt));
      if (found) {
        spec.claimed.add(found.id);
        return found;
      }
      if (attempt >= attempts) throw err;
      await sleep(Math.min(8000, 500 * 2 ** (attempt - 1)) * (1 + Math.random()));
    }
  }
}
