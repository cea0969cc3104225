/**
 * Serverless workers are derived, not stored: slot i (0 <= i < workers.max) is a worker while it
 * is always on (i < workers.min) or busy with a job (from the job's submission until `idleTimeout`
 * seconds after it ended). A job-started worker is INITIALIZING until the job starts (the queue
 * delay is its cold start), RUNNING while a job runs, then IDLE; every worker of an endpoint whose
 * image cannot start (pods/containers.ts) is UNHEALTHY and its jobs stay IN_QUEUE. Worker capacity is
 * not modelled, so no worker is ever THROTTLED.
 */
import { createHash } from "node:crypto";
import { scriptFor } from "../pods/containers.js";
import type { EndpointRecord } from "../store/serverless-records.js";
import { type JobRecord, NEVER } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { eligibleTypes } from "./compute.js";

export interface WorkerState {
  index: number;
  id: string;
  status: "RUNNING" | "IDLE" | "INITIALIZING" | "THROTTLED" | "UNHEALTHY";
  /** When the worker became ready; null while initializing. */
  readyAt: number | null;
  windowStart: number;
  version: number;
}

/** A worker's id: stable per endpoint and slot, shaped like a pod id. */
export function workerIdFor(endpointId: string, index: number): string {
  const hex = createHash("sha256").update(`${endpointId}:${index}`).digest("hex");
  return BigInt(`0x${hex.slice(0, 20)}`)
    .toString(36)
    .padStart(14, "0")
    .slice(-14);
}

/** When a job stops occupying its worker: ended, cancelled, or never (still waiting for it). */
export function jobEnd(job: JobRecord): number {
  const ends =
    job.timeoutMs !== undefined && job.endsAt - job.startsAt > job.timeoutMs
      ? job.startsAt + job.timeoutMs
      : job.endsAt;
  return Math.min(ends, job.cancelledAt ?? NEVER);
}

/** Whether the endpoint's workers can start their container at all (pods/containers.ts behaviours). */
export function workersHealthy(state: Store, e: EndpointRecord): boolean {
  return scriptFor(state, e.container).kind === "start";
}

function versionAt(e: EndpointRecord, t: number): number {
  let v = 1;
  for (const r of e.releases) if (r.createdAt <= t) v = r.version;
  return v;
}

/** A stretch during which a worker slot holds a worker, from its start to its idle timeout's end. */
export interface WorkerWindow {
  from: number;
  /** NEVER while the worker has no end in sight (always on, or waiting for a job that never starts). */
  to: number;
  readyAt: number;
}

/**
 * Each worker slot's windows, merged and in order (slot i at index i): its always-on window while
 * i < workers.min, and for each job it ran, the job's submission until `idleTimeout` after its end.
 */
export function slotWindows(state: Store, e: EndpointRecord): WorkerWindow[][] {
  const jobs = [...state.jobs.values()].filter((j) => j.endpointId === e.id && j.workerIndex !== undefined);
  const idleMs = e.workers.idleTimeout * 1000;
  const initMs = state.settings.provisioningMs + state.settings.startingMs;
  const out: WorkerWindow[][] = [];
  for (let i = 0; i < Math.max(e.workers.max, e.workers.min); i += 1) {
    const spans: WorkerWindow[] = jobs
      .filter((j) => j.workerIndex === i)
      .map((j) => {
        const end = jobEnd(j);
        return { from: j.submittedAt, to: end >= NEVER ? NEVER : end + idleMs, readyAt: j.startsAt };
      });
    if (i < e.workers.min) spans.push({ from: e.minChangedAt, to: NEVER, readyAt: e.minChangedAt + initMs });
    spans.sort((a, b) => a.from - b.from);
    const windows: WorkerWindow[] = [];
    for (const s of spans) {
      const last = windows.at(-1);
      if (last && s.from <= last.to) {
        last.to = Math.max(last.to, s.to);
        last.readyAt = Math.min(last.readyAt, s.readyAt);
      } else windows.push({ ...s });
    }
    out.push(windows);
  }
  return out;
}

/** The endpoint's active workers at `now`, by slot. */
export function endpointWorkers(state: Store, e: EndpointRecord, now: number): WorkerState[] {
  const jobs = [...state.jobs.values()].filter((j) => j.endpointId === e.id && j.workerIndex !== undefined);
  const healthy = workersHealthy(state, e);
  const out: WorkerState[] = [];
  slotWindows(state, e).forEach((windows, i) => {
    const window = windows.find((w) => w.from <= now && now < w.to);
    if (!window) return;
    const busy = jobs.some((j) => j.workerIndex === i && j.startsAt <= now && now < jobEnd(j));
    const ready = now >= window.readyAt;
    out.push({
      index: i,
      id: workerIdFor(e.id, i),
      status: !healthy ? "UNHEALTHY" : busy ? "RUNNING" : ready ? "IDLE" : "INITIALIZING",
      readyAt: healthy && ready ? window.readyAt : null,
      windowStart: window.from,
      version: versionAt(e, window.from),
    });
  });
  return out;
}

/** The container a worker started at `t` runs: its release's, which a later release does not change. */
export function containerAt(e: EndpointRecord, t: number): EndpointRecord["container"] {
  const version = versionAt(e, t);
  return e.releases.find((r) => r.version === version)?.container ?? e.container;
}

/** The GPU type a worker of the endpoint runs on: the first its selection allows (null for CPU). */
export function workerGpuType(state: Store, e: EndpointRecord): string | null {
  return e.compute.kind === "GPU" ? (eligibleTypes(state, e.compute)[0] ?? null) : null;
}

export function workerView(state: Store, e: EndpointRecord, w: WorkerState, now: number) {
  const release = e.releases.find((r) => r.version === w.version);
  const gpuTypeId = workerGpuType(state, e);
  const stockOf = (dc: string) =>
    e.compute.kind === "GPU"
      ? state.gpuStock.has(`${dc}|${gpuTypeId}`)
      : state.cpuStock.has(`${dc}|${e.compute.configs[0]?.id}`);
  const dataCenterId = e.dataCenterIds[0] ?? state.seed.dataCenters.map((d) => d.id).find(stockOf) ?? null;
  return {
    id: w.id,
    status: w.status,
    isStale: w.version !== e.version,
    version: w.version,
    gpuCount: e.compute.kind === "GPU" ? e.compute.count : 0,
    image: release?.container.image ?? e.container.image,
    uptimeSeconds: w.readyAt === null ? null : Math.floor((now - w.readyAt) / 1000),
    gpuTypeId,
    dataCenterId,
    startedAt: w.readyAt === null ? null : new Date(w.readyAt).toISOString(),
  };
}
