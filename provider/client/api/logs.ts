/**
 * Log streams (server-sent events): a pod's (`GET /v2/pods/{id}/logs`, `api.pods.logEvents`) and a
 * serverless worker's (`GET /v2/serverless/{id}/workers/{workerId}/logs`,
 * `api.endpoints.workerLogEvents`). Both send the same events: an `id` (the
 * resume cursor, sent back as `Last-Event-ID`) and a JSON `data` line `{source, line, ts}`. The
 * stream backfills the last `tail` lines (the service's default is 100), or the lines from `since`,
 * then sends each new line until the pod is gone, the worker's endpoint is deleted, or `signal`
 * aborts.
 */
import { ERROR_CODES, RunpodApiError } from "../errors.js";
import type { RunpodClient } from "../request.js";
import { PodLogLine } from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

export type LogQuery = {
  /** One source only; both when omitted. */
  source?: "container" | "system";
  /** Lines to backfill, 0 to 5000. Ignored by the service with `since` or `Last-Event-ID`. */
  tail?: number;
  /** An RFC 3339 time: backfill the lines from then on. */
  since?: string;
};

/** What a log call takes besides its query: the resume cursor of a stream that broke. */
export type LogCallOptions = CallOptions & { lastEventId?: string | undefined };

/** One event of a log stream: the line, and the cursor to resume after it. */
export interface LogEvent {
  /** The event's `id`; undefined when the service sent none. */
  readonly eventId: string | undefined;
  readonly line: PodLogLine;
}

/**
 * Reads the log at `path`. An event whose data is not a log line ends the stream with
 * RUNPOD_INVALID_RESPONSE.
 */
export async function* logEvents(
  client: RunpodClient,
  path: string,
  query: LogQuery,
  opts: LogCallOptions,
): AsyncGenerator<LogEvent> {
  for await (const event of client.events({
    base: "v2",
    path,
    query,
    lastEventId: opts.lastEventId,
    signal: opts.signal,
    priority: opts.priority,
  })) {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      data = undefined;
    }
    const line = PodLogLine.safeParse(data);
    if (!line.success) {
      throw new RunpodApiError({
        code: ERROR_CODES.INVALID_RESPONSE,
        message: `GET ${path}: an event of the log stream is not a log line ({source, line, ts}).`,
        method: "GET",
        url: path,
        outcome: "rejected",
      });
    }
    yield { eventId: event.id, line: line.data };
  }
}
