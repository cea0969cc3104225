/**
 * A Pod's inputs and outputs as the provider sees them (the declaration's, fields.ts), the
 * timeouts its inputs default to, and how progress lines and errors name it.
 */
import type { z } from "zod";
import { declaredDefaults } from "../../fields/derive.js";
import { byName } from "../common.js";
import { type PodGpuAllocation, PodTimeouts } from "./field-types.js";
import type { PodArgsSchema, PodStateSchema } from "./fields.js";

/** How progress lines and errors name a pod: `Pod trainer`. Every step of a pod's create uses it. */
export const label = byName("Pod");

/** Checked inputs of a Pod, as `check` accepts them and the provider sees them. */
export type PodInputs = z.infer<typeof PodArgsSchema>;

/** What state keeps of a Pod. */
export type PodOutputs = z.infer<typeof PodStateSchema>;

/** A GPU pod's `gpu` output. */
export type PodGpuOutput = z.infer<typeof PodGpuAllocation>;

// ---------------------------------------------------------------- timeouts

/** How long a Pod's create, update and delete may take, in seconds, unless its inputs say otherwise. */
export const DEFAULT_TIMEOUTS = declaredDefaults(PodTimeouts) as {
  readonly create: number;
  readonly update: number;
  readonly delete: number;
};

export function timeoutsOf(t: PodInputs["timeouts"] | null | undefined) {
  return {
    create: t?.create ?? DEFAULT_TIMEOUTS.create,
    update: t?.update ?? DEFAULT_TIMEOUTS.update,
    delete: t?.delete ?? DEFAULT_TIMEOUTS.delete,
  };
}
