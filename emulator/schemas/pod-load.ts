/**
 * A pod's load over time as the control plane scripts it (`PUT /__emulator/pods/{id}/load`): the
 * utilization its `runtime` reports while it is RUNNING (pods/load.ts).
 */
import { z } from "zod";

const Percent = z.number().min(0).max(100);

/** The load from `atMs` after the timeline's start until the next segment's `atMs`. */
export const LoadSegment = z.strictObject({
  /** Offset from the timeline's start (within each repetition, with `repeatEveryMs`). */
  atMs: z.int().min(0),
  /** Every GPU's utilization, in percent. */
  gpu: Percent,
  /** Every GPU's memory utilization, in percent. @default 0 */
  gpuMemory: Percent.optional(),
  /** CPU utilization, in percent. */
  cpu: Percent,
  /** Memory utilization, in percent. @default 9 */
  memory: Percent.optional(),
});
export type LoadSegment = z.infer<typeof LoadSegment>;

/**
 * Segments sorted by `atMs`, the first at 0. With `repeatEveryMs` the timeline starts over every
 * period (a day, a week), so every segment must begin inside the period.
 */
export const PodLoadTimeline = z
  .strictObject({
    segments: z.array(LoadSegment).min(1),
    repeatEveryMs: z.int().min(1).optional(),
    /** Where offset 0 is, as emulator ms since the epoch. @default the emulator's now when it is set */
    startsAt: z.int().min(0).optional(),
  })
  .superRefine((timeline, ctx) => {
    const { segments, repeatEveryMs } = timeline;
    if (segments[0] && segments[0].atMs !== 0) {
      ctx.addIssue({
        code: "custom",
        path: ["segments", 0, "atMs"],
        message: "the first segment must be at 0",
      });
    }
    segments.forEach((segment, i) => {
      const previous = segments[i - 1];
      if (previous && segment.atMs <= previous.atMs) {
        ctx.addIssue({
          code: "custom",
          path: ["segments", i, "atMs"],
          message: `must be greater than the previous segment's (${previous.atMs}): segments are sorted by atMs`,
        });
      }
    });
    const last = segments.at(-1);
    if (repeatEveryMs !== undefined && last && last.atMs >= repeatEveryMs) {
      ctx.addIssue({
        code: "custom",
        path: ["repeatEveryMs"],
        message: `must be greater than the last segment's atMs (${last.atMs})`,
      });
    }
  });
export type PodLoadTimelineInput = z.input<typeof PodLoadTimeline>;
