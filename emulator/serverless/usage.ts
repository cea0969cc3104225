/**
 * What a serverless endpoint bills: its workers' time (workers.ts), from a worker's
 * start (its cold start included) until its idle timeout ends, always-on workers for as long as
 * `workers.min` keeps them, at the serverless rate of what a worker runs on: the catalog's
 * `price.serverless` of the GPU type a worker gets (the first its selection allows) times
 * `gpu.count`, or the CPU flavor's `serverlessPerVcpu` times its vCPUs. Always-on workers are
 * billed at that same rate (RunPod discounts them; the emulator does not), and there is no disk
 * or platform fee component.
 *
 * Worker time is derived from the jobs and the endpoint's settings, which later requests change
 * (a PATCH of `workers`, a retry, a purge, a delete). Before such a change the time so far is
 * written to the usage ledger (`checkpointEndpoint`), so the change never rewrites what was
 * already used; what follows is worked out from the new settings.
 */
import type { EndpointRecord } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import type { Metering, UsageSegment } from "../store/usage-ledger.js";
import { slotWindows, workerGpuType, workerIdFor } from "./workers.js";

/** What one worker of the endpoint bills per hour; undefined when the catalog has no rate for it. */
function workerMetering(state: Store, e: EndpointRecord, index: number): Metering | undefined {
  const workerId = workerIdFor(e.id, index);
  if (e.compute.kind === "GPU") {
    const typeId = workerGpuType(state, e);
    const rate = typeId === null ? undefined : state.gpuTypeById.get(typeId)?.price.serverless;
    if (rate === undefined) return undefined;
    return { rates: { gpuAmount: rate * e.compute.count }, workerId };
  }
  const config = e.compute.configs[0];
  const flavor = config === undefined ? undefined : state.cpuFlavorById.get(config.id);
  if (config === undefined || flavor === undefined) return undefined;
  return { rates: { cpuAmount: flavor.price.serverlessPerVcpu * config.vcpuCount }, workerId };
}

/** The endpoint's worker time from `e.billedFrom` until `until`, one stretch per worker window. */
export function workerSegments(
  state: Store,
  e: EndpointRecord,
  until: number,
): (UsageSegment & { to: number })[] {
  const out: (UsageSegment & { to: number })[] = [];
  slotWindows(state, e).forEach((windows, index) => {
    const metering = workerMetering(state, e, index);
    if (!metering) return;
    for (const w of windows) {
      const from = Math.max(w.from, e.billedFrom);
      const to = Math.min(w.to, until);
      if (to <= from) continue;
      out.push({ ...metering, family: "serverless", resourceId: e.id, account: e.account, from, to });
    }
  });
  return out;
}

/** Writes the endpoint's worker time up to `at` to the ledger, before a change would rework it. */
export function checkpointEndpoint(state: Store, e: EndpointRecord, at = state.now()): void {
  for (const segment of workerSegments(state, e, at)) state.usage.record(segment);
  e.billedFrom = Math.max(e.billedFrom, at);
}
