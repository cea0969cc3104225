/**
 * The account's SSH key set, written read-merge-write: one writer per provider host at a time
 * (its context's `sshKeyWrites`), every write verified, an unanswered write never sent again
 * blindly.
 */

import { settling, waitUntil } from "../../client/create-once.js";
import { mayHaveLanded, messageOf } from "../../client/errors.js";
import type { HostContext } from "../../host/context.js";

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * `modifyKeys` failed after a write of the set that was answered, or went unanswered in a way that
 * may have landed: the account may hold the change or not, and no read could tell (its `cause`).
 * A create that ends so is recorded in state (provider.ts), since its key may be on the account.
 */
export class KeySetMayHaveChanged extends Error {
  constructor(cause: unknown) {
    super(messageOf(cause), { cause });
    this.name = "KeySetMayHaveChanged";
  }
}

/**
 * Reads the set, applies `change`, writes it back, and re-reads to verify (the change, applied to
 * what was read, changes nothing more); retries a lost update. `change` must say what the set
 * should hold whatever it holds now (holders.ts `hold` and `release`), so applying it twice is
 * applying it once. Answers the set the change that holds now was applied to.
 *
 * A PUT replaces the whole set, so one that went unanswered is not sent again by the client: it may
 * still land later and put back a key removed in the meantime (a rotated key coming back; found by
 * the chaos suite). Instead the set is read again and the change re-applied, and the
 * result is verified once more after such a write can no longer land (the settle policy of
 * provider/client/create-once.ts: a first look at `lookAt`, the last at `settlesAt`).
 */
export async function modifyKeys(
  ctx: HostContext,
  change: (keys: readonly string[]) => string[],
): Promise<readonly string[]> {
  const verify = (keys: readonly string[]) => sameSet(change(keys), keys);
  return ctx.sshKeyWrites.run(async () => {
    let settlesAt = 0;
    let wrote = false;
    try {
      for (let round = 1; ; round += 1) {
        const current = await ctx.api.sshKeys.get();
        const next = change(current);
        if (!sameSet(next, current)) {
          const startedAt = Date.now();
          try {
            await ctx.api.sshKeys.put(next, { idempotent: false });
            wrote = true;
          } catch (err) {
            if (!mayHaveLanded(err)) throw err;
            wrote = true;
            if (round >= 6) throw err;
            const settle = settling(startedAt);
            settlesAt = Math.max(settlesAt, settle.settlesAt);
            await waitUntil(settle.lookAt);
            continue;
          }
        }
        let keys = await ctx.api.sshKeys.get();
        if (verify(keys) && Date.now() < settlesAt) {
          await waitUntil(settlesAt);
          keys = await ctx.api.sshKeys.get();
        }
        if (verify(keys)) return current;
        if (round >= 6) {
          throw new Error(
            "The account's SSH key set kept changing under us (another writer outside this deployment?); run again.",
          );
        }
      }
    } catch (err) {
      throw wrote ? new KeySetMayHaveChanged(err) : err;
    }
  });
}
