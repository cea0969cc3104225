/**
 * What a serverless worker writes to its log, read off the jobs it ran and the emulator clock
 * (served by logs/routes.ts, shown by the control plane).
 */
import { distinctTimes, type LogLine, scriptFor } from "../pods/containers.js";
import { type EndpointRecord, NEVER } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { containerAt, jobEnd, workerIdFor } from "./workers.js";

/** A worker's lines: its container starting for its first job, then each job's start and end. */
export function workerLog(state: Store, e: EndpointRecord, index: number, until: number): LogLine[] {
  const id = workerIdFor(e.id, index);
  const jobs = [...state.jobs.values()]
    .filter((j) => j.endpointId === e.id && j.workerIndex === index)
    .sort((a, b) => a.submittedAt - b.submittedAt);
  const lines: LogLine[] = [];
  const first = jobs[0];
  if (first) {
    // The worker runs the release current when it started, not the endpoint's latest.
    const container = containerAt(e, first.submittedAt);
    const script = scriptFor(state, container);
    lines.push({
      ts: first.submittedAt,
      source: "system",
      line: `worker ${id}: create container ${container.image}`,
    });
    if (script.kind === "pullFailure") {
      lines.push({
        ts: first.submittedAt + 1,
        source: "system",
        line: `error pulling image: Error response from daemon: ${script.detail}`,
      });
    } else if (first.startsAt < NEVER) {
      lines.push({ ts: first.startsAt - 1, source: "system", line: "start container" });
    }
  }
  for (const j of jobs) {
    if (j.startsAt >= NEVER) continue;
    lines.push({ ts: j.startsAt, source: "container", line: `Started job ${j.id}` });
    const end = jobEnd(j);
    const outcome =
      j.cancelledAt !== undefined && j.cancelledAt <= end
        ? `Job ${j.id} cancelled`
        : j.timeoutMs !== undefined && j.endsAt - j.startsAt > j.timeoutMs
          ? `Job ${j.id} timed out after ${j.timeoutMs} ms`
          : j.fails
            ? `Job ${j.id} failed`
            : `Finished job ${j.id}`;
    if (end < NEVER) lines.push({ ts: end, source: "container", line: outcome });
  }
  return distinctTimes(lines).filter((l) => l.ts <= until);
}
