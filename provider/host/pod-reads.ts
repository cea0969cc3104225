/**
 * Reads of single pods, coalesced. `pulumi refresh` reads every pod of a stack at once: one
 * `GET /v2/pods/{id}` each would cost N requests (at 60 a minute, over three minutes for 200
 * pods) when one `GET /v2/pods` holds all of them.
 *
 * Reads that arrive within `windowMs` of each other are served by one list request, and a list
 * stays good for `freshMs` for the reads that follow (the engine reads a few resources at a time,
 * so a refresh's reads arrive in waves). A lone read, and a pod the list lacks (a cluster member,
 * which the list leaves out; a pod just deleted, which then answers 404), are read on their own.
 * A pod this process changed is never served from a list taken before the change.
 */
import type { RunpodApi } from "../client/api.js";
import type { Clock } from "../client/clock.js";
import type { Pod } from "../client/schemas/pods.js";

export interface PodReadsOptions {
  /** How long a read waits for others to share its list request. @default 50 */
  readonly windowMs: number;
  /** How long a list answers later reads. @default 2000 */
  readonly freshMs: number;
}

const DEFAULTS: PodReadsOptions = { windowMs: 50, freshMs: 2000 };

interface PendingRead {
  readonly id: string;
  resolve(pod: Pod): void;
  reject(err: unknown): void;
}

export class PodReads {
  private readonly options: PodReadsOptions;
  private pending: PendingRead[] = [];
  private flushing = false;
  private last: { at: number; byId: Map<string, Pod> } | undefined;

  constructor(
    private readonly api: RunpodApi,
    private readonly clock: Clock,
    options: Partial<PodReadsOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** The pod, as `api.pods.get` gives it (a 404 for a pod that does not exist). */
  get(id: string): Promise<Pod> {
    const listed = this.last;
    if (listed && this.clock.now() - listed.at <= this.options.freshMs) {
      const pod = listed.byId.get(id);
      if (pod) return Promise.resolve(pod);
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        void this.flush();
      }
    });
  }

  /** This process changed the pod: the next read goes to the API. */
  forget(id: string): void {
    this.last?.byId.delete(id);
  }

  private async flush(): Promise<void> {
    await this.clock.sleep(this.options.windowMs).catch(() => undefined);
    const batch = this.pending;
    this.pending = [];
    this.flushing = false;
    const ids = new Set(batch.map((r) => r.id));
    let byId = new Map<string, Pod>();
    if (ids.size > 1) {
      try {
        const at = this.clock.now();
        byId = new Map((await this.api.pods.list()).map((p) => [p.id, p]));
        this.last = { at, byId };
      } catch {
        // Each read tries on its own, with its own retries and its own error.
      }
    }
    for (const read of batch) {
      const pod = byId.get(read.id);
      if (pod) read.resolve(pod);
      else this.api.pods.get(read.id).then(read.resolve, read.reject);
    }
  }
}
