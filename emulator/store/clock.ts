/**
 * The emulator's injectable clock. Pod lifecycles, job progress and rate-limit windows all run on
 * it. It can run in step with real time (scale 1), faster (a benchmark compresses minutes into
 * seconds), or frozen (scale 0) so a test moves time only with `advance`.
 */
export class EmulatorClock {
  private base: number;
  private anchor: number;

  constructor(
    start = Date.now(),
    private scale = 1,
  ) {
    this.base = start;
    this.anchor = Date.now();
  }

  /** Emulator time, in milliseconds since the epoch. */
  now(): number {
    return this.base + (Date.now() - this.anchor) * this.scale;
  }

  get rate(): number {
    return this.scale;
  }

  advance(ms: number): void {
    this.rebase();
    this.base += Math.max(0, ms);
  }

  setScale(scale: number): void {
    this.rebase();
    this.scale = Math.max(0, scale);
  }

  /** Real milliseconds until the emulator reaches `time`; Infinity while frozen. */
  realMsUntil(time: number): number {
    const delta = time - this.now();
    if (delta <= 0) return 0;
    return this.scale === 0 ? Number.POSITIVE_INFINITY : delta / this.scale;
  }

  private rebase(): void {
    this.base = this.now();
    this.anchor = Date.now();
  }
}
