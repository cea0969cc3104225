/**
 * How long pods of one kind (image, GPU type, data center) take from create to RUNNING, learned
 * from the ones the watcher has seen arrive: it predicts when the next pod of that kind is due.
 */
import type { DueWindow } from "./read-schedule.js";

/** How many create-to-RUNNING times of one kind of pod are kept to predict the next. */
const SAMPLES_KEPT = 16;

/** A due pod is read every second this long past the latest time pods of its kind have taken. */
const DUE_SLACK_MS = 1000;

/** When a pod of one kind reached RUNNING: after `lo` and by `hi` milliseconds from its wait's start. */
interface Sample {
  readonly lo: number;
  readonly hi: number;
}

export class ArrivalTimes {
  private readonly samples = new Map<string, Sample[]>();

  /** A pod of `kind` was last read not RUNNING `lo` ms into its wait, and RUNNING `hi` ms in. */
  learn(kind: string, lo: number, hi: number): void {
    const kept = this.samples.get(kind) ?? [];
    kept.push({ lo, hi });
    this.samples.set(kind, kept.slice(-SAMPLES_KEPT));
  }

  /**
   * When pods of `kind` have reached RUNNING, counted from `since`: after the median of their last
   * misses, by the median of their first sightings (plus a second). Undefined until one has been seen.
   */
  dueWindow(kind: string, since: number): DueWindow | undefined {
    const samples = this.samples.get(kind);
    if (!samples || samples.length === 0) return undefined;
    const start = since + median(samples.map((x) => x.lo));
    return { start, end: Math.max(start, since + median(samples.map((x) => x.hi))) + DUE_SLACK_MS };
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}
