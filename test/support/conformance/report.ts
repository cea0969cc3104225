/** What the conformance proxy saw, summed up per operation, and its violations as readable lines. */
import { writeFileSync } from "node:fs";
import type { Exchange, ExchangeKind } from "./proxy.js";
import type { Violation } from "./validator.js";

export interface OperationCount {
  readonly kind: ExchangeKind;
  /** The operationId for validated exchanges, else the emulator's route name. */
  readonly key: string;
  /** Requests seen (for `validated`: requests validated against the description). */
  readonly requests: number;
  /** Answers seen (for `validated`: answers validated against the description). */
  readonly answers: number;
}

const KIND_ORDER: Record<ExchangeKind, number> = { validated: 0, "legacy-v1": 1, "not-in-description": 2 };

/** Per kind and key, how many requests were sent and how many answers came back; sorted. */
export function countsOf(exchanges: readonly Exchange[]): OperationCount[] {
  const counts = new Map<string, { kind: ExchangeKind; key: string; requests: number; answers: number }>();
  for (const e of exchanges) {
    const id = `${e.kind} ${e.key}`;
    const c = counts.get(id) ?? { kind: e.kind, key: e.key, requests: 0, answers: 0 };
    c.requests += 1;
    if (e.status > 0) c.answers += 1;
    counts.set(id, c);
  }
  return [...counts.values()].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.key.localeCompare(b.key),
  );
}

/** The keys of one kind of exchange, sorted, without repeats. */
export function keysOf(exchanges: readonly Exchange[], kind: ExchangeKind): string[] {
  return [...new Set(exchanges.filter((e) => e.kind === kind).map((e) => e.key))].sort();
}

/** Every violation of these exchanges, each with the request it came from. */
export function violationsOf(exchanges: readonly Exchange[]): (Violation & { readonly request: string })[] {
  return exchanges.flatMap((e) =>
    e.violations.map((v) => ({ ...v, request: `${e.method} ${e.url} -> ${e.status}` })),
  );
}

/** One line per violation: operation, direction, JSON pointer, message, and the request. */
export function formatViolations(violations: readonly (Violation & { readonly request?: string })[]): string {
  if (violations.length === 0) return "no violations";
  return [
    `${violations.length} violation(s) of the v2 description (with the contract overlay):`,
    ...violations.map(
      (v) =>
        `  ${v.operation} ${v.direction} ${v.pointer || "(whole message)"}: ${v.message}${v.request ? `  [${v.request}]` : ""}`,
    ),
  ].join("\n");
}

/** The counts as a plain-text table. */
export function formatCounts(counts: readonly OperationCount[]): string {
  const header = { kind: "kind", key: "operation or route", requests: "requests", answers: "answers" };
  const rows = [
    header,
    ...counts.map((c) => ({ ...c, requests: String(c.requests), answers: String(c.answers) })),
  ];
  const width = (k: keyof typeof header) => Math.max(...rows.map((r) => r[k].length));
  return rows
    .map((r) =>
      [
        r.kind.padEnd(width("kind")),
        r.key.padEnd(width("key")),
        r.requests.padStart(width("requests")),
        r.answers.padStart(width("answers")),
      ].join("  "),
    )
    .join("\n");
}

/**
 * Writes the counts and violations to the file named by CONFORMANCE_REPORT, when it is set; prints
 * nothing otherwise (a passing test run stays quiet).
 */
export function writeReportIfAsked(exchanges: readonly Exchange[], env = process.env): string | undefined {
  const file = env.CONFORMANCE_REPORT;
  if (!file) return undefined;
  const text = [
    "Requests and answers per operation, through the conformance proxy",
    "(validated: checked against the v2 description with the contract overlay; legacy-v1 and",
    "not-in-description: recorded only, see docs/api-differences.md)",
    "",
    formatCounts(countsOf(exchanges)),
    "",
    "Every violation seen, those provoked on purpose and the flows' known ones included",
    "(test/support/conformance/flows-*.ts: expectedViolations, knownViolations):",
    formatViolations(violationsOf(exchanges)),
    "",
  ].join("\n");
  writeFileSync(file, text);
  return file;
}
