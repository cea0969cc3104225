/**
 * The CLI's own failures: a usage error (a bad flag value or combination the parser cannot see
 * on its own) exits 2, like commander's; anything else the command cannot do exits 1, like an API
 * error.
 */

/** A failure of the command itself, not of an HTTP call. Exit code 1. */
export class CliError extends Error {
  override readonly name: string = "CliError";
  constructor(
    message: string,
    /** Stable code for the JSON error object. */
    readonly code = "CLI_ERROR",
  ) {
    super(message);
  }
}

/** A flag value or combination that cannot work; the message names the flag. Exit code 2. */
export class UsageError extends CliError {
  override readonly name = "UsageError";
  constructor(message: string) {
    super(message, "USAGE_ERROR");
  }
}
