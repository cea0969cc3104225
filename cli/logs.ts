/**
 * Reading logs, for `pods logs` and `serverless logs` alike: the flags they share and the loop that
 * prints each line the moment it arrives, from one log stream or several at once (an endpoint's
 * workers). The streams are server-sent events (`GET /v2/pods/{id}/logs`,
 * `GET /v2/serverless/{id}/workers/{workerId}/logs`, provider/client/api/logs.ts).
 *
 * A log stream never says "that was all": it backfills, then stays open for new lines. So without
 * --follow a command prints what the log holds and stops once lines stop arriving (QUIET_MS after
 * the last one), after --max-wait at the latest, or when the service ends the stream. With
 * --follow it prints new lines until the service ends the stream (the pod is terminated, the
 * endpoint deleted) or Ctrl-C; either way it exits 0. A followed stream that breaks, or that the
 * service refuses for a while (5xx, 429), is opened again from the last line printed
 * (`Last-Event-ID`, so no line is printed twice), at most MAX_REOPENS times in a row.
 *
 * Output: in table format one line per log line, `<ts>  <source>  <line>`, the worker id first
 * for serverless; with --json one JSON object per line (JSON Lines): `ts`, `source`, `line`, and
 * `workerId` for serverless; with -o yaml one YAML document per line. Notes go to stderr.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type Command, Option } from "commander";
import type { LogCallOptions, LogEvent, LogQuery } from "../provider/client/api/logs.js";
import { messageOf } from "../provider/client/errors.js";
import { isTransient, type RunpodApi, type schemas } from "../provider/client/index.js";
import { connect } from "./connect.js";
import type { Terminal } from "./output.js";
import {
  addOutputOptions,
  choice,
  durationOption,
  type FormatOptions,
  intOption,
  sinceOption,
} from "./parse.js";

const LOG_SOURCES = ["container", "system", "both"] as const;
/** The most lines the log routes backfill (v2 description: `tail` maximum). */
const MAX_TAIL = 5000;
/** Without --follow: this long without a new line means the backfill has all arrived. */
const QUIET_MS = 500;
const DEFAULT_MAX_WAIT_MS = 5000;
/** Streams read at once: each holds a connection open for as long as it is read. */
const MAX_STREAMS = 32;
/** How often in a row a followed stream is opened again, waiting 0.5 s, 1 s, 2 s, ... between. */
const MAX_REOPENS = 5;
const FIRST_REOPEN_WAIT_MS = 500;

export interface LogOptions extends FormatOptions {
  follow?: boolean;
  tail?: number;
  /** RFC 3339, resolved from a duration when one was given. */
  since?: string;
  source: (typeof LOG_SOURCES)[number];
  /** Milliseconds. */
  maxWait: number;
}

/** What `--help` says about a log command, its JSON fields last. */
export function logHelp(jsonFields: string): string {
  return `
Without --follow, prints the lines the log holds (the API backfills 100 unless --tail or --since
says otherwise) and exits once they stop arriving. With --follow, keeps printing new lines until
the log ends or Ctrl-C (exit 0 either way); a broken stream is resumed after the last line printed.

JSON output is one object per log line (JSON Lines), printed as it arrives: ${jsonFields}.`;
}

/** The flags both log commands take. */
export function addLogOptions(command: Command): Command {
  return addOutputOptions(
    command
      .option("-f, --follow", "keep printing new lines until the log ends or Ctrl-C")
      .addOption(
        new Option(
          "--tail <n>",
          `lines from before now to print first, 0 to ${MAX_TAIL} (default: the API's, 100)`,
        ).argParser(intOption("--tail", 0, MAX_TAIL)),
      )
      .addOption(
        new Option(
          "--since <time>",
          "print the lines from this time on: a duration back from now (30m, 2h, 7d) or an RFC 3339 date-time",
        )
          .argParser(sinceOption("--since"))
          .conflicts("tail"),
      )
      .addOption(choice("--source <source>", "which lines to print", LOG_SOURCES, "both"))
      .addOption(
        new Option(
          "--max-wait <duration>",
          "without --follow: stop after this long even if lines keep coming",
        )
          .argParser(durationOption("--max-wait", 100, 3_600_000))
          .default(DEFAULT_MAX_WAIT_MS, "5s")
          .conflicts("follow"),
      ),
  );
}

/** The query the flags ask for; `tail` and `since` only when given, so the API's defaults apply. */
export function logQuery(opts: LogOptions): LogQuery {
  return {
    ...(opts.source === "both" ? {} : { source: opts.source }),
    ...(opts.tail === undefined ? {} : { tail: opts.tail }),
    ...(opts.since === undefined ? {} : { since: opts.since }),
  };
}

/** One log to read. */
export interface LogTarget {
  /** The worker whose log it is; stamped on each of its lines. Undefined for a pod's log. */
  readonly workerId?: string;
  open(query: LogQuery, options: LogCallOptions): AsyncIterable<LogEvent>;
}

function print(out: Terminal, target: LogTarget, line: schemas.PodLogLine): void {
  const worker = target.workerId;
  out.entry(
    {
      ts: line.ts,
      source: line.source,
      line: line.line,
      ...(worker === undefined ? {} : { workerId: worker }),
    },
    `${worker === undefined ? "" : `${worker}  `}${line.ts}  ${line.source.padEnd(9)}  ${line.line}`,
  );
}

/** Prints the log's lines until they stop arriving, `maxWaitMs` passed, or `stop` aborts. */
async function printSnapshot(
  out: Terminal,
  target: LogTarget,
  query: LogQuery,
  stop: AbortSignal,
  maxWaitMs: number,
): Promise<void> {
  const done = new AbortController();
  const end = () => done.abort();
  const atMost = setTimeout(end, maxWaitMs);
  let quiet: NodeJS.Timeout | undefined;
  try {
    for await (const event of target.open(query, { signal: AbortSignal.any([stop, done.signal]) })) {
      print(out, target, event.line);
      clearTimeout(quiet);
      quiet = setTimeout(end, QUIET_MS);
    }
  } finally {
    clearTimeout(atMost);
    clearTimeout(quiet);
  }
}

/**
 * Prints the log's lines until the service ends the stream or `stop` aborts, opening the stream
 * again after the last line printed when it breaks or is refused for a while.
 */
async function printFollowing(
  out: Terminal,
  target: LogTarget,
  query: LogQuery,
  stop: AbortSignal,
  note: (text: string) => void,
): Promise<void> {
  let cursor: string | undefined;
  let reopened = 0;
  for (;;) {
    try {
      for await (const event of target.open(query, { signal: stop, lastEventId: cursor })) {
        print(out, target, event.line);
        // The description makes each event's id its timestamp; a stream without ids resumes by it.
        cursor = event.eventId ?? event.line.ts;
        reopened = 0;
      }
      return;
    } catch (err) {
      if (stop.aborted) return;
      if (!isTransient(err) || reopened >= MAX_REOPENS) throw err;
      reopened += 1;
      const waitMs =
        err.retryAfterSeconds !== undefined
          ? err.retryAfterSeconds * 1000
          : FIRST_REOPEN_WAIT_MS * 2 ** (reopened - 1);
      note(
        `${err.message} Reading on ${cursor ? `after ${cursor}` : "from the start"} in ${waitMs / 1000} s (${reopened} of ${MAX_REOPENS}).`,
      );
      try {
        await sleep(waitMs, undefined, { signal: stop });
      } catch {
        return; // Ctrl-C while waiting
      }
    }
  }
}

/**
 * Reads every target at once, printing lines as they come, until each is done. Ctrl-C (SIGINT) or
 * SIGTERM stops them all and the command ends normally. With several targets, one that fails is
 * a note on stderr and the others go on; the command fails only when every one failed.
 */
export async function printLogs(
  out: Terminal,
  targets: readonly LogTarget[],
  opts: LogOptions,
): Promise<void> {
  let reading = targets;
  if (targets.length > MAX_STREAMS) {
    out.error(
      `Reading the logs of the first ${MAX_STREAMS} of ${targets.length} workers; pass --worker <id> for another one.`,
    );
    reading = targets.slice(0, MAX_STREAMS);
  }
  const query = logQuery(opts);
  const stop = new AbortController();
  const stopReading = out.onInterrupt(() => stop.abort());
  const several = reading.length > 1;
  const whose = (t: LogTarget) => (several && t.workerId !== undefined ? `Worker ${t.workerId}: ` : "");
  try {
    const failures: unknown[] = [];
    await Promise.all(
      reading.map(async (target) => {
        try {
          if (opts.follow) {
            await printFollowing(out, target, query, stop.signal, (text) =>
              out.error(`${whose(target)}${text}`),
            );
          } else {
            await printSnapshot(out, target, query, stop.signal, opts.maxWait);
          }
        } catch (err) {
          failures.push(err);
          if (several) out.error(`${whose(target)}${messageOf(err)}`);
        }
      }),
    );
    if (failures.length > 0 && failures.length === reading.length) throw failures[0];
  } finally {
    stopReading();
  }
}

/** `pods logs <pod-id>`: one pod's log. */
export async function printPodLogs(out: Terminal, podId: string, opts: LogOptions): Promise<void> {
  const { api } = connect(out);
  await printLogs(out, [podLogTarget(api, podId)], opts);
}

function podLogTarget(api: RunpodApi, podId: string): LogTarget {
  return { open: (query, options) => api.pods.logEvents(podId, query, options) };
}
