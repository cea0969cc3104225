/**
 * What a resource's `check` and the policy pack report. Kept apart from the zod-based validation
 * (provider/validation/failures.ts): the resources' public declarations name `CheckFailure`, and a
 * program's compiler must not reach zod's declaration files through them.
 */

/** A check failure as Pulumi shows it: the property path and why it is wrong. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
  /**
   * The policy-pack rules (policy/) this failure breaks, where one property carries several rules;
   * Pulumi shows only `property` and `reason`.
   */
  readonly rules?: readonly string[];
}

/** One line per failure, for error messages outside Pulumi (the CLI, plain function calls). */
export function formatFailures(what: string, failures: readonly CheckFailure[]): string {
  return `${what} is invalid:\n${failures.map((f) => `  - ${f.property || "(resource)"}: ${f.reason}`).join("\n")}`;
}
