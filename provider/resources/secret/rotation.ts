/**
 * How a new value is seen. The API never answers a value, so outputs cannot hold it, and `diff`
 * receives only the old outputs. `check` receives the old inputs, where state keeps the value
 * (encrypted), next to the new ones: it compares the two and marks the checked inputs with
 * `__valueChanged`, which `diff` turns into an in-place rotation. The marker is recomputed at each
 * check, so the one recorded with the last update means nothing to the next.
 *
 * A value set outside Pulumi moves the secret's `valueLastUpdatedAt`; a refresh that sees it drops
 * the value from the inputs it records (provider.ts), so the next check sees a change and the next
 * `up` writes the program's value back.
 */
import { isUnknown } from "../../validation/unknown.js";

export const VALUE_CHANGED = "__valueChanged";

/**
 * Whether the program's value differs from the one state recorded. A create records nothing yet
 * (no old name): no change to mark. An unknown value (preview) counts as a change.
 */
export function valueChanged(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  if (olds.name === undefined) return false;
  return isUnknown(news.value) || olds.value !== news.value;
}

/** The inputs as `diff` will see them: `news` with the marker set or cleared. */
export function markRotation(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Record<string, unknown> {
  const { [VALUE_CHANGED]: _stale, ...rest } = news;
  return valueChanged(olds, news) ? { ...rest, [VALUE_CHANGED]: true } : rest;
}
