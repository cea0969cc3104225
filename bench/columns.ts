/** How the bench prints figures: fixed decimals, and table rows of aligned cells. */

/** `x` with `d` decimals, or `-` when it is not a number. */
export const f = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "-");

/** A table row: text cells left-aligned, numbers right-aligned, each to its width. */
export function columns(...cells: readonly (readonly [string | number, number])[]): string {
  return cells
    .map(([v, w]) => (typeof v === "number" || /^[\d.-]+$/.test(v) ? String(v).padStart(w) : v.padEnd(w)))
    .join(" ");
}
