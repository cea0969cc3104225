/** Runs tasks one after another: each starts once every task run before it has settled. */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  /** Runs `fn` after every earlier task has finished, whether it succeeded or failed. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.last.then(fn, fn);
    this.last = run.catch(() => undefined);
    return run;
  }
}
