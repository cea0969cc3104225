/** Flag value parsers: a bad value is an error that names the flag and what it accepts (exit code 2). */
import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { messageOf } from "../provider/client/errors.js";
import { isRfc3339 } from "../provider/client/schemas/billing.js";
import { UsageError } from "./errors.js";
import { FORMATS, type Format, REPORT_FORMATS, type StandardInput } from "./output.js";

export function intOption(flag: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value))
      throw new InvalidArgumentError(`${flag} must be an integer between ${min} and ${max}.`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${flag} must be between ${min} and ${max}.`);
    return n;
  };
}

export function numberOption(flag: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`${flag} must be a number between ${min} and ${max}.`);
    }
    return n;
  };
}

/**
 * One of `allowed`, matched case-insensitively and returned in its canonical spelling. A value in
 * `retired` (matched the same way) is refused with its reason before the allowed values.
 */
function choiceOption<T extends string>(
  flag: string,
  allowed: readonly T[],
  retired: Readonly<Record<string, string>> = {},
) {
  return (value: string): T => {
    const wanted = value.trim().toLowerCase();
    const match = allowed.find((a) => a.toLowerCase() === wanted);
    if (match !== undefined) return match;
    const reason = Object.entries(retired).find(([r]) => r.toLowerCase() === wanted)?.[1];
    throw new InvalidArgumentError(
      `${reason ? `${reason} ` : ""}${flag} must be one of ${allowed.join(", ")}.`,
    );
  };
}

/**
 * An option taking one of `allowed`, with the choices and the default in its help line; `retired`
 * names values it took once and why they are gone.
 * @example choice("--bucket-size <size>", "bucket length", BUCKET_SIZES, "day")
 */
export function choice<T extends string>(
  flags: string,
  description: string,
  allowed: readonly T[],
  defaultValue?: T,
  retired: Readonly<Record<string, string>> = {},
): Option {
  const flag = flags.split(/[ ,]/).find((f) => f.startsWith("--")) ?? flags;
  const option = new Option(flags, `${description} (choices: ${allowed.join(", ")})`).argParser(
    choiceOption(flag, allowed, retired),
  );
  return defaultValue === undefined ? option : option.default(defaultValue);
}

/** A non-blank string (an id or a name); surrounding spaces are dropped. */
export function textOption(flag: string, maxLength = 191) {
  return (value: string): string => {
    const text = value.trim();
    if (text === "" || text.length > maxLength)
      throw new InvalidArgumentError(`${flag} must be between 1 and ${maxLength} characters.`);
    return text;
  };
}

/** The value unchanged, sent as given (the billing API takes RFC 3339 date-times). */
export function timeOption(flag: string) {
  return (value: string): string => {
    if (!isRfc3339(value.trim()))
      throw new InvalidArgumentError(
        `${flag} must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z or 2026-11-01T00:00:00+02:00.`,
      );
    return value.trim();
  };
}

/**
 * A JSON object given inline, as `@file`, or as `@-` for standard input: a job's `input`.
 * @example jsonObjectOption("--input", out.stdin)('{"prompt":"a cat"}')
 */
export function jsonObjectOption(flag: string, stdin: StandardInput) {
  return (value: string): Record<string, unknown> => {
    let text = value;
    if (value.startsWith("@")) {
      const path = value.slice(1);
      try {
        text = path === "-" ? stdin.readAll() : readFileSync(path, "utf8");
      } catch (err) {
        throw new InvalidArgumentError(`${flag} ${value}: cannot read the file (${messageOf(err)}).`);
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new InvalidArgumentError(
        `${flag} must be a JSON object or @file holding one; the JSON does not parse (${messageOf(err)}).`,
      );
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new InvalidArgumentError(`${flag} must be a JSON object, such as {"prompt": "a cat"}.`);
    return parsed as Record<string, unknown>;
  };
}

/**
 * The options every data command takes: `-o/--output` and its shorthand `--json`; a report also
 * takes `markdown`.
 */
export function addOutputOptions(command: Command, report = false): Command {
  const option = report
    ? choice(
        "-o, --output <format>",
        "table for people; markdown for a pull-request comment; json or yaml for scripts",
        REPORT_FORMATS,
        "table",
      )
    : choice("-o, --output <format>", "table for people; json or yaml for scripts", FORMATS, "table");
  return command
    .addOption(option)
    .addOption(new Option("--json", "same as --output json").conflicts("output"));
}

/** What `addOutputOptions` adds to a command's options. */
export interface FormatOptions {
  output?: Format;
  json?: boolean;
}

/** The format the output options chose. */
export function formatOf(opts: FormatOptions): Format {
  return opts.json ? "json" : (opts.output ?? "table");
}

/**
 * The text of a file argument, `-` meaning standard input; a file that cannot be read is a usage
 * error naming it. Standard input from a terminal is refused rather than waited on.
 */
export function readTextArgument(what: string, path: string, stdin: StandardInput): string {
  if (path === "-" && stdin.isTTY) {
    throw new UsageError(
      `${what}: give a file, or pipe it in (for example \`pulumi preview --json | runpod-dynamic cost\`).`,
    );
  }
  try {
    return path === "-" ? stdin.readAll() : readFileSync(path, "utf8");
  } catch (err) {
    throw new UsageError(`${what} ${path}: cannot read the file (${messageOf(err)}).`);
  }
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const DURATION = /^(?:\d+(?:ms|s|m|h|d))+$/;

/** Milliseconds of a duration such as `90s`, `30m`, `1h30m` or `7d`, or undefined if it is not one. */
export function durationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|s|m|h|d)/g)) {
    total += Number(amount) * (DURATION_UNITS_MS[unit ?? ""] ?? 0);
  }
  return total;
}

/**
 * A duration such as `500ms`, `5s` or `2m`, in milliseconds, between `minMs` and `maxMs`.
 * @example durationOption("--max-wait", 100, 3_600_000)("5s") // 5000
 */
export function durationOption(flag: string, minMs: number, maxMs: number) {
  return (value: string): number => {
    const ms = durationMs(value.trim());
    if (ms === undefined || ms < minMs || ms > maxMs) {
      throw new InvalidArgumentError(
        `${flag} must be a duration such as 500ms, 5s or 2m, between ${minMs} ms and ${maxMs / 1000} s.`,
      );
    }
    return ms;
  };
}

/**
 * A point in time as the log routes take it (RFC 3339): given as one, or as a duration back from
 * `now` (`30m`, `2h`, `7d`), the way people ask for "the last half hour".
 */
export function sinceOption(flag: string, now: () => number = Date.now) {
  return (value: string): string => {
    const text = value.trim();
    if (isRfc3339(text)) return text;
    const back = durationMs(text);
    if (back === undefined) {
      throw new InvalidArgumentError(
        `${flag} must be a duration back from now such as 30m, 2h or 7d, or an RFC 3339 date-time such as 2026-11-01T00:00:00Z.`,
      );
    }
    return new Date(now() - back).toISOString();
  };
}
