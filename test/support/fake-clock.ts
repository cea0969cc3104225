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
