/**
 * The CLI's one way to print. Commands hand it data; it renders a table for people, JSON or YAML
 * for machines, and errors on stderr. Nothing else in the CLI writes to the terminal; and what else
 * a command takes from outside its arguments (environment, standard input, Ctrl-C) it takes from
 * the same Terminal, never from `process`.
 *
 * Every line goes through `redact` with the API key the command connected with, so not even a
 * server echoing the key back can leak it to a terminal or a log.
 */
import type { Writable } from "node:stream";
import { messageOf } from "../provider/client/errors.js";
import { adviceFor, ERROR_CODES, isRunpodApiError, redact } from "../provider/client/index.js";
import { CliError, UsageError } from "./errors.js";

/** `--output` values; `table` is for people, `json` and `yaml` have stable field names. */
export const FORMATS = ["table", "json", "yaml"] as const;
/** What a report (the cost command) also prints: markdown, for a pull-request comment. */
export const REPORT_FORMATS = [...FORMATS, "markdown"] as const;
export type Format = (typeof REPORT_FORMATS)[number];

/** Standard input as a command reads it: whole, for a `-` or `@-` argument. */
export interface StandardInput {
  /** Whether a person types it: a command refuses to wait on a terminal. */
  readonly isTTY: boolean;
  /** Its whole text; throws when it cannot be read. */
  readAll(): string;
}

/**
 * What one run of the CLI reads and writes beyond its arguments: the process's own (cli/main.ts)
 * or a test's, which runs commands in its own process. Commands reach these only through the
 * Terminal, never through `process`, so one run cannot see another's environment or signals.
 */
export interface CommandIO {
  readonly stdout: Writable;
  readonly stderr: Writable & { readonly isTTY?: boolean };
  readonly stdin: StandardInput;
  readonly env: NodeJS.ProcessEnv;
  /** Calls `stop` on Ctrl-C (SIGINT) or SIGTERM until the returned function is called. */
  onInterrupt(stop: () => void): () => void;
}

export class Terminal {
  private chosen: Format = "table";
  private readonly secrets: string[] = [];
  /** The YAML writer, loaded only by `use("yaml")`. */
  private toYaml: typeof import("yaml").stringify | undefined;

  /** How `localTime` writes an instant, made on first use. */
  private timeFormat: Intl.DateTimeFormat | undefined;

  constructor(private readonly io: CommandIO) {}

  /** The environment the command runs in: its configuration (connect.ts) and TZ. */
  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  get stdin(): StandardInput {
    return this.io.stdin;
  }

  /** Calls `stop` on Ctrl-C (SIGINT) or SIGTERM until the returned function is called. */
  onInterrupt(stop: () => void): () => void {
    return this.io.onInterrupt(stop);
  }

  /** Chosen per command by its `--output`/`--json` flags (`use`); errors follow it too. */
  get format(): Format {
    return this.chosen;
  }

  /** Prints in `format` from now on; loads the YAML module only when YAML is asked for. */
  async use(format: Format): Promise<void> {
    if (format === "yaml") this.toYaml ??= (await import("yaml")).stringify;
    this.chosen = format;
  }

  /** Every later line has each occurrence of `secret` replaced by `[redacted]`. */
  protect(secret: string): void {
    this.secrets.push(secret);
  }

  line(text = ""): void {
    this.io.stdout.write(`${redact(text, this.secrets)}\n`);
  }

  error(text: string): void {
    this.io.stderr.write(`${redact(text, this.secrets)}\n`);
  }

  /** Raw writers for commander's help and usage errors (configureOutput). */
  readonly writeOut = (text: string): void => {
    this.io.stdout.write(redact(text, this.secrets));
  };
  readonly writeErr = (text: string): void => {
    this.io.stderr.write(redact(text, this.secrets));
  };

  /**
   * Prints `value` as JSON or YAML, or the lines of its human view in table format (and of its
   * markdown view, when it has one, in markdown format).
   */
  data(value: unknown, humanView: () => readonly string[], markdownView = humanView): void {
    switch (this.format) {
      case "json":
        this.line(JSON.stringify(value, null, 2));
        return;
      case "yaml": {
        if (!this.toYaml) throw new Error('the YAML writer is loaded by use("yaml"), which was not called.');
        // YAML 1.1 quoting, so readers still on 1.1 (PyYAML, Go's yaml.v2) keep `2026-11-01T00:00:00Z`
        // and `yes` as strings rather than a timestamp and a boolean.
        this.line(this.toYaml(value, { indent: 2, version: "1.1" }).trimEnd());
        return;
      }
      case "table":
        for (const l of humanView()) this.line(l);
        return;
      case "markdown":
        for (const l of markdownView()) this.line(l);
    }
  }

  /**
   * One record of a stream (a log line), printed the moment it arrives, so a stream's output is
   * never held back to make one document: the human line in table format, one compact JSON object
   * per line in JSON (JSON Lines, for `jq` and the like), one YAML document each in YAML.
   */
  entry(value: unknown, human: string): void {
    switch (this.format) {
      case "json":
        this.line(JSON.stringify(value));
        return;
      case "yaml":
        if (!this.toYaml) throw new Error('the YAML writer is loaded by use("yaml"), which was not called.');
        // One log line stays one YAML line, however long: no folding.
        this.line(`---\n${this.toYaml(value, { indent: 2, version: "1.1", lineWidth: 0 }).trimEnd()}`);
        return;
      default:
        this.line(human);
    }
  }

  /** Advice next to the data: on stdout for people, on stderr when stdout is JSON or YAML. */
  note(text: string): void {
    if (this.format === "table") this.line(text);
    else this.error(text);
  }

  /**
   * An instant in the user's time zone, with the zone's name: `2026-11-01 01:00 GMT+1`. Empty for a
   * missing value; the raw text for one that does not parse.
   */
  localTime(iso: string | null | undefined): string {
    if (!iso) return "";
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return iso;
    this.timeFormat ??= new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
      ...timeZoneOf(this.io.env),
    });
    const parts = Object.fromEntries(
      this.timeFormat.formatToParts(new Date(ms)).map((p) => [p.type, p.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
  }

  /** Whether failures print as text (table and markdown) rather than one JSON object. */
  private get textual(): boolean {
    return this.format === "table" || this.format === "markdown";
  }

  /**
   * Runs `work` behind a spinner on stderr, only when stderr is an interactive terminal (never in
   * pipes, CI or tests). The spinner module is loaded only then.
   */
  async spin<T>(text: string, work: (update: (text: string) => void) => Promise<T>): Promise<T> {
    const { stderr, env } = this.io;
    if (stderr.isTTY !== true || env.TERM === "dumb" || "CI" in env) return work(() => undefined);
    const { default: yoctoSpinner } = await import("yocto-spinner");
    const spinner = yoctoSpinner({ text, stream: stderr }).start();
    try {
      return await work((next) => {
        spinner.text = redact(next, this.secrets);
      });
    } finally {
      spinner.stop();
    }
  }

  /**
   * Prints a failure and returns the exit code: 2 for usage errors, 1 for everything else. API
   * errors carry the problem+json detail in their message; in JSON or YAML format the error is one
   * object on stderr with stable fields `error`, `code`, `status`, `detail`, `errors`.
   */
  fail(err: unknown): number {
    const exitCode = err instanceof UsageError ? 2 : 1;
    // The client's advice on a rejected key speaks to Pulumi programs too; here only the
    // environment variable applies.
    const message = messageOf(err).replace(adviceFor(ERROR_CODES.UNAUTHORIZED), CLI_KEY_ADVICE);
    if (this.textual) {
      this.error(`Error: ${message}`);
      return exitCode;
    }
    const api = isRunpodApiError(err) ? err : undefined;
    this.error(
      JSON.stringify({
        error: message,
        code: api?.code ?? (err instanceof CliError ? err.code : "CLI_ERROR"),
        status: api?.status ?? null,
        detail: api?.detail ?? null,
        errors: api?.errors ?? [],
      }),
    );
    return exitCode;
  }
}

/** What to do about a rejected key, for the command-line tool. */
export const CLI_KEY_ADVICE =
  "Check RUNPOD_API_KEY: it is missing, malformed, expired or invalid (create a key in the RunPod console, Settings > API Keys).";

/**
 * The zone `env.TZ` names, when Intl knows it. Otherwise none, so Intl uses the process's own zone:
 * in the binary that is what Node made of the same TZ, so both ways print the same.
 */
function timeZoneOf(env: NodeJS.ProcessEnv): { timeZone?: string } {
  const zone = env.TZ;
  if (!zone) return {};
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return { timeZone: zone };
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- human views

export interface Column {
  readonly header: string;
  /** Numbers and money read best right-aligned. @default "left" */
  readonly align?: "left" | "right";
}

/** Aligned columns, two spaces apart, headers in capitals (the kubectl / runpodctl look). */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((r) => (r[i] ?? "").length)));
  const render = (cells: readonly string[]) =>
    columns
      .map((c, i) => {
        const cell = cells[i] ?? "";
        const width = widths[i] ?? 0;
        return c.align === "right" ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return [render(columns.map((c) => c.header.toUpperCase())), ...rows.map(render)];
}

/** `label  value` lines with the labels aligned, for one object. */
export function fields(pairs: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd());
}

const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
});

/** Billing amounts are US dollars, to 4 decimals as the API rounds them: `$12.3456`. */
export function money(amountUsd: number): string {
  return usd.format(amountUsd);
}

/** A duration in milliseconds, in the largest unit that keeps it readable. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "";
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(2)} h`;
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A count or size, or empty when absent. */
export function count(n: number | null | undefined, unit = ""): string {
  return n === null || n === undefined ? "" : `${n}${unit}`;
}

/** Pretty JSON lines, for free-form values (a job's output) inside a human view. */
export function jsonLines(value: unknown, indent = "  "): string[] {
  return (JSON.stringify(value, null, 2) ?? "null").split("\n").map((l) => `${indent}${l}`);
}
