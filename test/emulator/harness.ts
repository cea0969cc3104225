/**
 * Setup shared by the endpoint, job, billing and hub tests: the compiled emulator in-process on a
 * frozen clock with a fixed start, driven through the real typed client over HTTP.
 */
import { frozenEmulator, rejection } from "../support/emulator.js";

/** Emulator time at start: 2026-11-21T12:00:00Z. */
export const START = Date.UTC(2026, 10, 21, 12);

export type Harness = Awaited<ReturnType<typeof startHarness>>;

export async function startHarness() {
  const { emu, api } = await frozenEmulator({ startTime: START });
  return { emu, api, client: api.client };
}

export const failure = rejection;

/** Status, detail and validation errors of a failed call: what the tests compare. */
export async function problemOf(call: Promise<unknown>) {
  const err = await rejection(call);
  return { status: err.status, detail: err.detail, errors: [...err.errors] };
}

/** The HTTP status of the emulator's last answer (from its request log). */
export function lastStatus(h: Harness): number | undefined {
  return h.emu.control.requests().entries.at(-1)?.status;
}
