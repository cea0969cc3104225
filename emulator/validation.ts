/**
 * Request-body validation with the same strict zod schemas the client sends with, translated into
 * the service's 422 `errors[]` strings (for example `$: additional properties 'x' not allowed`),
 * and the container-command rule every create and update applies (400).
 */
import type { z } from "zod";
import { applyCommand, type CommandFields } from "../provider/container-args.js";
import { badRequest, unprocessable } from "./errors.js";

type Issue = z.core.$ZodIssue;

function pointer(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

export function issueMessage(issue: Issue): string[] {
  const at = pointer(issue.path);
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
    default:
      return [`${at}: ${issue.message}`];
  }
}

/** Parses `body` with `schema` or throws a 422 listing every violation. */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw unprocessable(result.error.issues.flatMap(issueMessage));
}

/**
 * The stored `args` after applying a body's `args`/`cmd`/`entrypoint` to `current`, or the 400
 * saying how they disagree.
 */
export function commandArgs(current: string, fields: CommandFields): string {
  const command = applyCommand(current, fields);
  if ("error" in command) throw badRequest(command.error);
  return command.args;
}
