/**
 * Comparing an input with what was recorded, as every diff does: structurally, key order and
 * `undefined` versus `null` aside, with preview's unknown values counted as a change.
 */
import { containsUnknown } from "./unknown.js";

/** Structural equality that ignores key order and treats undefined and null alike. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]))
    );
  }
  if (typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    return [...keys].every((k) =>
      sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    );
  }
  return a === b;
}

/** Whether an input differs from what was recorded; an unknown value (preview) counts as a change. */
export function differs(next: unknown, prior: unknown): boolean {
  return containsUnknown(next) || !sameValue(next, prior);
}
