/**
 * Request-body validation with the emulator's own strict zod schemas (schemas/), translated into
 * the service's 422 `errors[]` strings (for example `$: additional properties 'x' not allowed`).
 */
import type { z } from "zod";
import { unprocessable } from "./errors.js";

type Issue = z.core.$ZodIssue;

function pointer(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** The value at `path` in `root`, undefined where it is missing. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const p of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/** The 422 `errors[]` strings for one issue; `input`, the whole body, tells a missing value apart. */
export function issueMessage(issue: Issue, input?: unknown): string[] {
  const at = pointer(issue.path);
  const missing = input !== undefined && valueAt(input, issue.path) === undefined;
  if (missing && (issue.code === "invalid_value" || issue.code === "invalid_union")) {
    return [`${at}: required property is missing`];
  }
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((k) => `${at}: additional properties '${k}' not allowed`);
    case "invalid_type":
      // zod reports a missing property as a type error whose input was undefined.
      return /received undefined/.test(issue.message)
        ? [`${at}: required property is missing`]
        : [`${at}: expected ${issue.expected}`];
    case "too_small":
      return [
        issue.origin === "array" || issue.origin === "string"
          ? `${at}: expected length >= ${issue.minimum}`
          : `${at}: expected number >= ${issue.minimum}`,
      ];
    case "too_big":
      return [
        issue.origin === "array" || issue.origin === "string"
          ? `${at}: expected length <= ${issue.maximum}`
          : `${at}: expected number <= ${issue.maximum}`,
      ];
    case "invalid_format":
      return [`${at}: ${issue.message}`];
    case "invalid_value":
      return [`${at}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`];
    case "invalid_union": {
      // A discriminated union with an unknown discriminator names the values it takes.
      const options = (issue as { options?: unknown[] }).options;
      return Array.isArray(options)
        ? [`${at}: expected one of ${options.map((v) => JSON.stringify(v)).join(", ")}`]
        : [`${at}: ${issue.message}`];
    }
    default:
      return [`${at}: ${issue.message}`];
  }
}

/** Parses `body` with `schema` or throws a 422 listing every violation. */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw unprocessable(result.error.issues.flatMap((issue) => issueMessage(issue, body ?? {})));
}
