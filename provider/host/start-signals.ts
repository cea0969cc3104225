/**
 * When a pod of a kind never seen arrive starts, said by its log. Nothing in a pod's status says
 * when it will run, but the service writes a line to the pod's log when it starts the container,
 * and the container's own lines follow (docs/api-model.md, States and transitions). The watcher
 * follows the log of one waiting pod per such kind (one request, which stays open) and reads the
 * status when that line comes, instead of reading every few seconds for a time nothing else tells.
 * The status still decides: a read the log called for that finds the pod not yet RUNNING is
 * followed by reads at the first-of-kind interval, as a kind without a log would be. Every line
 * read is handed on (`onLine`): the pod's wait judges it as it judges a log it opened to fail fast
 * (pod-health.ts), so a pod's log is read once for both.
 */
import type { RunpodApi } from "../client/api.js";
import type { PodLogLine } from "../client/schemas/pods.js";

/**
 * Whether a log line says the container runs: the service's own line for it, or any line the
 * container wrote.
 */
export function saysContainerStarted(line: Pick<PodLogLine, "source" | "line">): boolean {
  return line.source === "container" || /^\s*start container\b/i.test(line.line);
}

/**
 * Per kind: `following` while a pod's log is read for its start; `started` once the log said so
 * (the status then read at the first-of-kind interval until a pod of the kind is seen RUNNING);
 * `unfollowed` when no log could be read (an API without the log route, a stream that broke or
 * ended): the first-of-kind interval too.
 */
export type StartSignal = "following" | "started" | "unfollowed";

/** A waiting pod of a kind never seen arrive, whose log may say when its kind starts. */
export interface UnknownKindWait {
  readonly podId: string;
  readonly kind: string;
}

export class StartSignals {
  /** The kinds followed now: the pod whose log is read, and how to stop reading it. */
  private readonly streams = new Map<string, { podId: string; abort: AbortController }>();
  /** The kinds whose followed log ended: said their container started, or could not be read. */
  private readonly ended = new Map<string, "started" | "unfollowed">();

  constructor(
    private readonly api: RunpodApi,
    /**
     * Called when a followed log ends: `started` when it said a container started (read now), else
     * it could not be read, and the kind goes back to the schedule (plan again, no read for it).
     */
    private readonly onSignal: (started: boolean) => void,
    /** Every line of a followed log, with the pod it is of. */
    private readonly onLine: (podId: string, line: PodLogLine) => void,
  ) {}

  /** Where `kind` stands; undefined when no pod of it was followed. */
  signal(kind: string): StartSignal | undefined {
    return this.streams.has(kind) ? "following" : this.ended.get(kind);
  }

  /**
   * Follows one pod of each kind in `waits` not followed yet (the first listed: created first, due
   * first), and stops following a kind none of `waits` is of any more (a pod of it seen RUNNING, or
   * nobody waits), or whose followed pod no longer waits (another of the kind is followed next).
   */
  update(waits: readonly UnknownKindWait[]): void {
    for (const [kind, stream] of this.streams) {
      if (waits.some((w) => w.kind === kind && w.podId === stream.podId)) continue;
      stream.abort.abort();
      this.streams.delete(kind);
    }
    for (const wait of waits) {
      if (this.signal(wait.kind) !== undefined) continue;
      const abort = new AbortController();
      this.streams.set(wait.kind, { podId: wait.podId, abort });
      void this.follow(wait.kind, wait.podId, abort.signal);
    }
  }

  /** Stops reading every log. */
  close(): void {
    for (const stream of this.streams.values()) stream.abort.abort();
    this.streams.clear();
  }

  private async follow(kind: string, podId: string, signal: AbortSignal): Promise<void> {
    let started = false;
    try {
      // With the service's backfill: a pull may have failed, or the container started, before the
      // stream opened (the first read of a pod of a kind not looked for comes first).
      for await (const line of this.api.pods.logs(podId, {}, { signal, priority: "background" })) {
        this.onLine(podId, line);
        if (saysContainerStarted(line)) {
          started = true;
          break;
        }
      }
    } catch {
      // A log that cannot be read only takes the shortcut away: the kind is read on the schedule.
    }
    if (signal.aborted) return;
    this.streams.delete(kind);
    this.ended.set(kind, started ? "started" : "unfollowed");
    this.onSignal(started);
  }
}
