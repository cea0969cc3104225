/**
 * A server-sent events reader for tests: it reads the stream as events arrive (no sleeping) and
 * keeps the raw text, so a test can check the framing as well as the events.
 */
import { emulatorLib } from "./emulator.js";

export interface SseEvent {
  id: string;
  data: { source: string; line: string; ts: string };
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The raw text received so far. */
  text(): string;
  /** Waits for the next `n` events (those already received count first). */
  next(n: number): Promise<SseEvent[]>;
  /** Reads until the server ends the stream; the events not yet taken by `next`. */
  rest(): Promise<SseEvent[]>;
  close(): void;
}

function parse(block: string): SseEvent {
  let id = "";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  return { id, data: JSON.parse(data) };
}

export async function openStream(
  url: string,
  options: { key?: string | null; headers?: Record<string, string> } = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? emulatorLib.DEFAULT_API_KEY}`;
  const res = await fetch(url, { headers, signal: abort.signal });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let raw = "";
  let pending = "";
  const events: SseEvent[] = [];
  let done = false;
  const pump = async () => {
    if (!reader || done) {
      done = true;
      return;
    }
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return;
    }
    const text = decoder.decode(chunk.value, { stream: true });
    raw += text;
    pending += text;
    let end = pending.indexOf("\n\n");
    while (end >= 0) {
      const block = pending.slice(0, end);
      pending = pending.slice(end + 2);
      if (block.trim() !== "") events.push(parse(block));
      end = pending.indexOf("\n\n");
    }
  };
  return {
    status: res.status,
    headers: res.headers,
    text: () => raw,
    next: async (n) => {
      while (events.length < n && !done) await pump();
      if (events.length < n) throw new Error(`the stream ended after ${events.length} of ${n} events`);
      return events.splice(0, n);
    },
    rest: async () => {
      while (!done) await pump();
      return events.splice(0);
    },
    close: () => abort.abort(),
  };
}
