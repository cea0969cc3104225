import type { Clock } from "../../provider/client/clock.js";

/** A clock whose sleeps return at once and are recorded, so tests assert exact waits without sleeping. */
export class RecordingClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private current = Date.UTC(2026, 10, 21)) {}
  now(): number {
    return this.current;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(Math.round(ms));
    const wakeAt = this.current + Math.max(0, ms);
    await new Promise((r) => setImmediate(r));
    this.current = Math.max(this.current, wakeAt);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** A clock that stands still until told: sleeps end only when `advance` passes their end. */
export class ManualClock implements Clock {
  private readonly sleepers: { until: number; resolve: () => void }[] = [];
  constructor(private current = Date.UTC(2026, 10, 21)) {}
  now(): number {
    return this.current;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise((resolve) => this.sleepers.push({ until: this.current + Math.max(0, ms), resolve }));
  }
  /** When each sleeper wakes, soonest first: what a loop asleep on this clock waits for. */
  wakes(): number[] {
    return this.sleepers.map((s) => s.until).sort((a, b) => a - b);
  }

  /** Moves time on and wakes every sleeper it passes, letting each run before the next moves. */
  async advance(ms: number): Promise<void> {
    this.current += ms;
    for (const s of this.sleepers.filter((x) => x.until <= this.current)) {
      this.sleepers.splice(this.sleepers.indexOf(s), 1);
      s.resolve();
    }
    for (let i = 0; i < 5; i += 1) await new Promise((r) => setImmediate(r));
  }
}
