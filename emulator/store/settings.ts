/**
 * What the control plane adjusts: lifecycle durations, failure shares and the balance, read by
 * the behaviour modules from the store at each change.
 */
import { z } from "zod";

/** What the control plane adjusts (`PUT /__emulator/settings` takes any subset of it). */
export const SettingsSchema = z.strictObject({
  /** Time from create to STARTING. */
  provisioningMs: z.number().min(0),
  /** Time from STARTING to RUNNING (also after a restart). */
  startingMs: z.number().min(0),
  /** Time a deleted pod stays readable as TERMINATED before GET answers 404. */
  terminatingMs: z.number().min(0),
  /** Share of new pods that end in ERROR instead of RUNNING, 0..1. */
  errorShare: z.number().min(0).max(1),
  /** When true, every create answers 402 (balance exhausted). */
  balanceExhausted: z.boolean(),
  /** Time a job waits in the queue, then runs. */
  jobQueueMs: z.number().min(0),
  jobRunMs: z.number().min(0),
  /** Share of jobs that end FAILED, 0..1. */
  jobFailureShare: z.number().min(0).max(1),
  /** Longest a /runsync waits before answering with the job still in progress (its `?wait=` overrides). */
  runsyncWaitMs: z.number().min(0),
  /** Time between two pulls of an image that failed to pull (pods/containers.ts). */
  pullRetryMs: z.number().min(1),
  /** Time a crash-looping container stays down before the service restarts it (pods/containers.ts). */
  crashRestartMs: z.number().min(1),
  /**
   * Longest time after a container starts before its `<port>/tcp` entries get their public
   * address; each pod draws its own delay up to this (pods/network.ts).
   */
  portMappingMs: z.number().min(0),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  provisioningMs: 2000,
  startingMs: 3000,
  terminatingMs: 1000,
  errorShare: 0,
  balanceExhausted: false,
  jobQueueMs: 500,
  jobRunMs: 1500,
  jobFailureShare: 0,
  runsyncWaitMs: 90_000,
  pullRetryMs: 30_000,
  crashRestartMs: 10_000,
  portMappingMs: 5000,
};
