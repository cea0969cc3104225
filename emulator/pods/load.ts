/**
 * The utilization a RUNNING pod's `runtime` reports (view.ts): the segment of its scripted
 * timeline (control plane, `PUT /__emulator/pods/{id}/load`) at the emulator's now, or the
 * constant figures of a pod without one. Read off the emulator clock like the pod's status, so a
 * frozen clock holds the figures still, `advance` walks the segments exactly, and a fast clock
 * runs a week of daily and weekly patterns in minutes.
 */
import type { LoadTimeline, PodRecord } from "../store/pod-records.js";

/** Utilization in percent, as a timeline's segment gives it. */
export interface Load {
  readonly gpu: number;
  readonly gpuMemory: number;
  readonly cpu: number;
  readonly memory: number;
}

/**
 * What a pod without a timeline reports, what one reports before its timeline's `startsAt`, and
 * what a segment that leaves out `gpuMemory` or `memory` reports for it.
 */
export const IDLE_LOAD: Load = { gpu: 0, gpuMemory: 0, cpu: 2, memory: 9 };

/**
 * The load at emulator time `t`: the last segment whose `atMs` is at or before `t`'s offset from
 * the start, the offset taken modulo `repeatEveryMs` when the timeline repeats.
 */
export function loadAt(timeline: LoadTimeline | undefined, t: number): Load {
  if (!timeline || t < timeline.startsAt) return IDLE_LOAD;
  const elapsed = t - timeline.startsAt;
  const offset = timeline.repeatEveryMs === undefined ? elapsed : elapsed % timeline.repeatEveryMs;
  const segment = timeline.segments.findLast((s) => s.atMs <= offset);
  if (!segment) return IDLE_LOAD;
  return {
    gpu: segment.gpu,
    gpuMemory: segment.gpuMemory ?? IDLE_LOAD.gpuMemory,
    cpu: segment.cpu,
    memory: segment.memory ?? IDLE_LOAD.memory,
  };
}

/** `runtime`'s utilization fields at `t`, whole percents, the same for every GPU of the pod. */
export function runtimeUtilization(pod: PodRecord, t: number) {
  const load = loadAt(pod.loadTimeline, t);
  const gpu = { util: Math.round(load.gpu), memoryUtil: Math.round(load.gpuMemory) };
  return {
    gpus: Array.from({ length: pod.gpu?.count ?? 0 }, () => ({ ...gpu })),
    cpu: { util: Math.round(load.cpu) },
    memory: { util: Math.round(load.memory) },
  };
}
