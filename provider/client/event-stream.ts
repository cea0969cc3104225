/**
 * A server-sent event stream (a GET that stays open): one request under the budget, its events
 * parsed as they arrive, until the server ends it or the caller aborts.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { type Dispatcher, request as undiciRequest } from "undici";
import { ERROR_CODES, RunpodApiError, redact } from "./errors.js";
import { streamPool } from "./pools.js";
import type { RateLimitBudget } from "./rate-limit.js";
import type { RequestPriority } from "./rate-limit-types.js";
import { headerValue, networkFailureName, rateLimitHeaders, rejection } from "./responses.js";

export interface EventStreamRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly budget: RateLimitBudget;
  readonly priority: RequestPriority;
  readonly signal: AbortSignal | undefined;
  /** How long the answer's headers may take; the body has no deadline. */
  readonly headersTimeoutMs: number;
  /** Kept out of every error (the key). */
  readonly secrets: readonly string[];
  /** The config namespace a message names settings in (config.ts `CONFIG_NAMESPACES`). */
  readonly configNamespace: string;
}

/**
 * Yields the stream's events until the server ends it or `signal` aborts (then it just returns). A
 * non-2xx answer throws the same typed errors as a request; a broken connection throws NETWORK.
 */
export async function* readEventStream(req: EventStreamRequest): AsyncGenerator<EventSourceMessage> {
  const { url, signal } = req;
  const shown = `${url.pathname}${url.search}`;
  const broken = (what: string, err: unknown) =>
    new RunpodApiError({
      code: ERROR_CODES.NETWORK,
      message: redact(
        `GET ${shown}: ${what} (${networkFailureName(err)}) talking to ${url.origin}.`,
        req.secrets,
      ),
      method: "GET",
      url: shown,
      outcome: "rejected",
      cause: err,
    });
  const ticket = await req.budget.acquire(signal, req.priority);
  let res: Dispatcher.ResponseData;
  try {
    // Streams stay open for minutes: they get their own pool, so they never hold the
    // connections other requests need.
    res = await undiciRequest(url, {
      method: "GET",
      headers: req.headers,
      dispatcher: streamPool(),
      signal,
      headersTimeout: req.headersTimeoutMs,
      bodyTimeout: 0,
    });
  } catch (err) {
    if (signal?.aborted) return;
    throw broken("network failure", err);
  } finally {
    ticket.release();
  }
  req.budget.observe(rateLimitHeaders(res.headers));
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const text = await res.body.text();
    const contentType = headerValue(res.headers, "content-type") ?? "";
    throw rejection(
      "GET",
      shown,
      res.statusCode,
      res.headers,
      contentType,
      text,
      req.secrets,
      req.configNamespace,
    );
  }
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e) });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body) {
      parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      while (events.length > 0) yield events.shift() as EventSourceMessage;
    }
  } catch (err) {
    if (signal?.aborted) return;
    throw broken("the event stream broke", err);
  } finally {
    res.body.destroy();
  }
}
