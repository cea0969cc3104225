/** Dollar amounts of billing records, summed the way the tables and JSON totals show them. */

export type Amounts = Record<string, number>;

/** Sums without binary floating-point noise: 0.1 + 0.2 is 0.3 here. */
export const exact = (n: number) => Number(n.toFixed(10));

/** A billing record read by field name, whichever route answered it. */
export type Fields = Readonly<Record<string, unknown>>;

/** A record's amount field; 0 when missing. */
export function amountOf(r: Fields, key: string): number {
  const v = r[key];
  return typeof v === "number" ? v : 0;
}

/** Each of `keys` summed over `records`. */
export function sumAmounts(keys: readonly string[], records: readonly Fields[]): Amounts {
  return Object.fromEntries(keys.map((k) => [k, exact(records.reduce((s, r) => s + amountOf(r, k), 0))]));
}
