/** NetworkVolume's check: the strict schema, then "size can only grow" unless the volume is replaced anyway. */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { isUnknown } from "../../validation/unknown.js";
import { isKnown, withoutInternal } from "../common.js";
import { NetworkVolumeArgsSchema } from "./fields.js";

/** Whether these inputs replace the volume anyway, so a smaller size is simply a new, smaller volume. */
function relocates(news: Record<string, unknown>, olds: Record<string, unknown>): boolean {
  const moved = (k: string) =>
    isUnknown(news[k]) || (isKnown(news[k]) && isKnown(olds[k]) && news[k] !== olds[k]);
  return moved("dataCenterId") || moved("type");
}

/**
 * Every check failure: the strict schema, then "size can only grow". `olds` are the previous inputs
 * (after a refresh, what read found), `{}` on create.
 */
export function checkNetworkVolume(
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): CheckFailure[] {
  const inputs = withoutInternal(news);
  const failures = schemaFailures(NetworkVolumeArgsSchema, inputs);
  const next = inputs.size;
  const prev = olds.size;
  if (
    typeof next === "number" &&
    typeof prev === "number" &&
    next < prev &&
    !relocates(inputs, withoutInternal(olds))
  ) {
    failures.push({
      property: "size",
      reason: `can only grow: the volume has ${prev} GB and network volume storage cannot be reduced (the API answers 400). Keep size at ${prev} or more, or create a new NetworkVolume and copy the data`,
    });
  }
  return failures;
}
