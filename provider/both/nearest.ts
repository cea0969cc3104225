/** The known names nearest to a misspelled one, for an error that says what was probably meant. */
import { distance } from "fastest-levenshtein";

/**
 * The `count` entries of `known` closest to `name` by edit distance (case ignored), nearest first.
 * @example nearest("NVIDIA A4O", ["NVIDIA A40", "NVIDIA L40S", "NVIDIA H100 80GB HBM3"], 2) // ["NVIDIA A40", "NVIDIA L40S"]
 */
export function nearest(name: string, known: readonly string[], count = 2): string[] {
  const wanted = name.toLowerCase();
  return [...known]
    .map((k) => ({ k, d: distance(wanted, k.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, count)
    .map(({ k }) => k);
}
