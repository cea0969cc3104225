/**
 * Progress of long operations, where the user sees it. Inside the provider host, `pulumi.log` has
 * no engine connection, but the host's stderr reaches the user's terminal (Pulumi >= 3.146), so
 * progress goes to stderr, one line per event, prefixed with the resource. Set
 * RUNPOD_DYNAMIC_QUIET=1 to silence it. The host's context (context.ts) holds the sink.
 */
export type ProgressSink = (line: string) => void;

/** `sink`, silent when RUNPOD_DYNAMIC_QUIET is set. */
export function unlessQuiet(sink: ProgressSink): ProgressSink {
  return (line) => {
    if (!/^(1|true|yes)$/i.test(process.env.RUNPOD_DYNAMIC_QUIET ?? "")) sink(line);
  };
}

/** The provider host's sink: stderr, unless RUNPOD_DYNAMIC_QUIET is set. */
export const stderrProgress: ProgressSink = unlessQuiet((line) => process.stderr.write(`${line}\n`));

/** A progress line about `resource` (`Pod trainer`). */
export function progressLine(resource: string, message: string): string {
  return `runpod ${resource}: ${message}`;
}

/** `1m05s`, `42s`: elapsed time for progress lines. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}
