/** Every request the emulator answered, with counts per route and per status, for tests and benchmarks. */

export interface LoggedRequest {
  readonly seq: number;
  /** Emulator time when the answer was sent. */
  readonly at: number;
  readonly method: string;
  /** The route pattern, e.g. `GET /v2/pods/:id`. */
  readonly route: string;
  readonly path: string;
  /** HTTP status, or 0 when the connection was dropped. */
  readonly status: number;
  readonly surface: string;
  readonly fault?: number;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;

  add(entry: Omit<LoggedRequest, "seq">): void {
    this.seq += 1;
    this.entries.push({ seq: this.seq, ...entry });
  }

  all(): readonly LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }

  summary(): { total: number; byRoute: Record<string, number>; byStatus: Record<string, number> } {
    const byRoute: Record<string, number> = {};
    const byStatus: Record<string, number> = {};
    for (const e of this.entries) {
      byRoute[e.route] = (byRoute[e.route] ?? 0) + 1;
      byStatus[String(e.status)] = (byStatus[String(e.status)] ?? 0) + 1;
    }
    return { total: this.entries.length, byRoute, byStatus };
  }
}
