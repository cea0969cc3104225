/** Markdown for bench/README.md's figures: a table, and the cells several tables share. */
import type { CliPhase } from "./cli-program.js";
import { f } from "./columns.js";

/** A markdown table: `align` has one entry per column, "l" or "r". */
export function table(
  head: readonly string[],
  align: string,
  rows: readonly (readonly (string | number)[])[],
): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(" | ")} |`;
  const rule = [...align].map((a) => (a === "r" ? "---:" : "---"));
  return [line(head), line(rule), ...rows.map(line)].join("\n");
}

export const lag = (median: number, p90: number) => `${f(median, 2)} / ${f(p90, 2)}`;
export const peaks = (p: CliPhase["peaks"]) => `${f(p.cli, 0)} / ${f(p.host, 0)} / ${f(p.program, 0)}`;
export const overBound = (x: number, bound: number) =>
  `${x >= bound ? "+" : ""}${f(((x - bound) / bound) * 100)} %`;
