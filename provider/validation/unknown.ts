/**
 * Preview's unknown values. During `pulumi preview` an input computed from another resource's
 * output reaches `check` and `diff` as this sentinel string (the value @pulumi/pulumi's dynamic
 * provider host substitutes for an unknown). Validation skips what it cannot know yet; a diff
 * treats it as "may change".
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when `value` is the sentinel or contains it anywhere. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/** True when the path through `root` passes through an unknown value. */
export function pathIsUnknown(root: unknown, path: readonly PropertyKey[]): boolean {
  let node: unknown = root;
  if (node === UNKNOWN) return true;
  for (const key of path) {
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<PropertyKey, unknown>)[key];
    if (node === UNKNOWN) return true;
  }
  return false;
}
