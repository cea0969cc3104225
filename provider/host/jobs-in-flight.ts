/**
 * Serverless jobs a create is waiting for. Stopping the provider host (a CI run cancelled,
 * `pulumi cancel`, a second Ctrl-C) would leave them in the queue, where they still run and bill:
 * they are cancelled first.
 */
import type { RunpodApi } from "../client/api.js";

interface Job {
  readonly endpointId: string;
  readonly jobId: string;
}

export class InFlightJobs {
  private readonly waiting = new Set<Job>();
  private stopHandled = false;

  constructor(private readonly api: RunpodApi) {}

  /** Runs `wait` with the job recorded as waited for, to be cancelled if the host stops meanwhile. */
  async during<T>(job: Job, wait: () => Promise<T>): Promise<T> {
    this.cancelOnStop();
    this.waiting.add(job);
    try {
      return await wait();
    } finally {
      this.waiting.delete(job);
    }
  }

  /** Only once a job is waited for, so a program's process never gets these handlers. */
  private cancelOnStop(): void {
    if (this.stopHandled) return;
    this.stopHandled = true;
    const stop = (signal: NodeJS.Signals) => {
      const pending = [...this.waiting].map((j) =>
        this.api.jobs.cancel(j.endpointId, j.jobId, { deadlineMs: 5000 }).catch(() => undefined),
      );
      void Promise.all(pending).finally(() => process.kill(process.pid, signal));
    };
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.once(signal, () => stop(signal));
    }
  }
}
