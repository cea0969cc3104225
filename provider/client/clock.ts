/**
 * Time as the client sees it. Production uses the real clock; tests and benchmarks inject one that
 * follows the emulator's clock, so waits are measured in service time and no test sleeps on the
 * wall clock.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * A clock running `scale` times faster than the wall clock from `origin` on: what the emulator
 * uses when a benchmark compresses minutes of service time into seconds.
 */
export function scaledClock(scale: number, origin = Date.now()): Clock {
  const start = Date.now();
  return {
    now: () => origin + (Date.now() - start) * scale,
    sleep: (ms, signal) => realClock.sleep(ms / scale, signal),
  };
}
