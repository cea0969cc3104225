/**
 * Deleting something another resource still uses (a network volume a pod mounts, a registry
 * credential a pod pulls with): the API refuses while the user exists. A pod deleted in the same
 * `pulumi destroy` may still be counted as a user for a moment after its own delete returned, so
 * the delete is retried on a fixed schedule; a user that keeps running does not go away by waiting
 * longer, so after it the error says what to do.
 */
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import type { HostContext } from "./context.js";

/** The waits between attempts, 60 s in all. */
const RELEASE_WAITS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000, 15_000, 15_000];

export interface ReleaseWait {
  /** `NetworkVolume datasets`, for messages. */
  readonly what: string;
  /** `network volume`, for messages. */
  readonly noun: string;
  readonly id: string;
  readonly remove: () => Promise<unknown>;
  /** Whether a failure means "still in use" (everything else is thrown at once). */
  readonly inUse: (err: unknown) => boolean;
  /** What the user should do when it stays in use. */
  readonly advice: string;
}

/** Deletes; true when it was deleted, false when it was gone already (404). Throws otherwise. */
export async function deleteWhenReleased(ctx: HostContext, spec: ReleaseWait): Promise<boolean> {
  const total = RELEASE_WAITS_MS.reduce((a, b) => a + b, 0) / 1000;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await spec.remove();
      return true;
    } catch (err) {
      if (isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) return false;
      if (!spec.inUse(err)) throw err;
      const detail = (err as { detail?: string }).detail ?? (err as Error).message;
      const wait = RELEASE_WAITS_MS[attempt];
      if (wait === undefined) {
        throw new Error(
          `${spec.what}: ${spec.noun} ${spec.id} cannot be deleted while it is in use: ${detail} (still refused after waiting ${total}s). ${spec.advice}`,
        );
      }
      if (attempt === 0)
        ctx.progress(
          spec.what,
          `${spec.id} is still in use (${detail}); waiting up to ${total}s for it to be released`,
        );
      await ctx.sleep(wait);
    }
  }
}
