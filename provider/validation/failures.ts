/**
 * Turning schema and rule violations into check failures that name the property and the rule.
 * Shared by every resource's `check` and by the policy pack.
 */
import type { z } from "zod";
import { applyCommand, type CommandFields, stringArray } from "../resources/container.js";
import type { CheckFailure } from "./check-failure.js";
import { containsUnknown, pathIsUnknown } from "./unknown.js";

/** `gpu.count`, `mounts.network[0].path`; the empty path is the whole resource. */
export function propertyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? String(p) : `.${String(p)}`;
  return out;
}

type Issue = z.core.$ZodIssue;

/** A reason a person can act on, from one zod issue. */
export function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case "unrecognized_keys":
      return `unknown ${issue.keys.length > 1 ? "properties" : "property"} ${issue.keys.map((k) => `'${k}'`).join(", ")}; check the spelling against the documented inputs`;
    case "invalid_type":
      return /received undefined/.test(issue.message) ? "is required" : `must be ${article(issue.expected)}`;
    case "too_small":
      if (issue.origin === "array")
        return `must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      if (issue.origin === "string")
        return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      return `must be at least ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "array")
        return `must have at most ${issue.maximum} item${issue.maximum === 1 ? "" : "s"}`;
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      return `must be at most ${issue.maximum}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  const name = type === "int" ? "integer" : type;
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name}`;
}

/**
 * Schema failures for `input`, leaving out those about values preview cannot know yet. For an
 * unrecognized key the property named is the key itself.
 */
export function schemaFailures(schema: z.ZodType, input: unknown): CheckFailure[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  const failures: CheckFailure[] = [];
  for (const issue of result.error.issues) {
    if (pathIsUnknown(input, issue.path)) continue;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        failures.push({
          property: propertyPath([...issue.path, key]),
          reason: describeIssue({ ...issue, keys: [key] }),
        });
      }
      continue;
    }
    failures.push({ property: propertyPath(issue.path), reason: describeIssue(issue) });
  }
  return failures;
}

/** The input that makes a request largest: the field a size failure names. */
export function largestField(inputs: Record<string, unknown>): string {
  let best = "";
  let size = -1;
  for (const [k, v] of Object.entries(inputs)) {
    const n = JSON.stringify(v ?? null).length;
    if (n > size) {
      best = k;
      size = n;
    }
  }
  return best;
}

/**
 * Why `args`, `cmd` and `entrypoint` describe different commands, if they do. Wrong types are the
 * schema's failures and unknown values are checked at apply: both pass here.
 */
export function commandFailure(inputs: Record<string, unknown>): string | undefined {
  const { args, cmd, entrypoint } = inputs;
  if (containsUnknown([args, cmd, entrypoint])) return undefined;
  if (args !== undefined && typeof args !== "string") return undefined;
  if ((cmd !== undefined && !stringArray(cmd)) || (entrypoint !== undefined && !stringArray(entrypoint)))
    return undefined;
  const command = applyCommand("", { args, cmd, entrypoint } as CommandFields);
  return "error" in command ? command.error : undefined;
}
