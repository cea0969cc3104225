/** How long a Pod's create, update and delete may take, in seconds, unless its inputs say otherwise. */
import type { PodInputs } from "./types.js";

export const DEFAULT_TIMEOUTS = { create: 600, update: 600, delete: 300 };

export function timeoutsOf(t: PodInputs["timeouts"] | null | undefined) {
  return {
    create: t?.create ?? DEFAULT_TIMEOUTS.create,
    update: t?.update ?? DEFAULT_TIMEOUTS.update,
    delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
  };
}
