/** Secret's replace/update table. */

import { declaredChanges } from "../../fields/derive.js";
import { containsUnknown } from "../../validation/unknown.js";
import type { DiffTable } from "../common.js";
import { SECRET } from "./fields.js";
import { VALUE_CHANGED } from "./rotation.js";
import type { SecretInputs, SecretOutputs } from "./types.js";

/** A description as the API keeps it: `""` clears, and reads back as null. */
const described = (d: string | null | undefined) => (d === undefined || d === "" ? null : d);

/**
 * The replace/update table (pure). A new name replaces (names are immutable); a name that differs
 * only in case deletes the old secret first, since names are unique regardless of case. A value
 * marked changed by check (rotation.ts) and a new description update in place. A left-out
 * description is no opinion; an unknown value (preview) counts as a change.
 */
export function diffSecret(olds: Partial<SecretOutputs>, news: SecretInputs): DiffTable {
  // The value is compared by check (rotation.ts), the description as the API keeps it.
  const { replaces, updates } = declaredChanges(SECRET, olds, news, ["value", "description"]);
  const nameChanged = replaces.includes("name");
  if ((news as unknown as Record<string, unknown>)[VALUE_CHANGED] === true) updates.push("value");
  if (
    news.description !== undefined &&
    (containsUnknown(news.description) || described(news.description) !== described(olds.description))
  ) {
    updates.push("description");
  }
  const caseOnly =
    nameChanged &&
    typeof news.name === "string" &&
    typeof olds.name === "string" &&
    news.name.toLowerCase() === olds.name.toLowerCase();
  return { replaces, updates, deleteBeforeReplace: caseOnly };
}
