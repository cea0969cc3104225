/**
 * Scenario 7: what a fleet costs after it is up. Refresh reads every pod at once (the engine's
 * Read of each resource), and destroy deletes every pod and waits until each is gone. Ours (the
 * Pod provider: reads coalesced into list requests, deletes through the shared budget, their waits
 * through the shared watcher) against one `GET /v2/pods/{id}` per pod, as refresh read before and
 * as other tools read, under the default quota (60 requests a minute).
 */
import { RunpodApi } from "../provider/client/api.js";
import { resolveSettings } from "../provider/client/config.js";
import { RunpodClient } from "../provider/client/request.js";
import { FLEET_DC, FLEET_GPU, freshEmulator, useEmulatorRuntime } from "./fleet.js";

export interface AfterUpResult {
  readonly phase: "refresh" | "destroy";
  readonly strategy: "ours" | "get-per-pod";
  readonly n: number;
  /** Emulator seconds from the first request to the last answer. */
  readonly seconds: number;
  readonly requests: number;
  readonly status429: number;
  readonly failures: number;
}

/** A fleet of `n` RUNNING pods made outside the quota, then the default quota and a clean log. */
async function fleetUp(n: number, scale: number) {
  const emu = await freshEmulator(
    { scale, tSeconds: 3 },
    { rateLimit: [{ name: "minute", quota: 100_000, seconds: 60 }] },
  );
  const api = new RunpodApi(new RunpodClient(resolveSettings(() => undefined, emu.env())));
  const pods = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      api.pods.create({ name: `up-${i}`, image: "img:1", gpu: { id: FLEET_GPU }, dataCenterIds: [FLEET_DC] }),
    ),
  );
  for (const p of pods) emu.control.setPodStatus(p.id, "RUNNING");
  emu.control.setRateLimitPolicy([
    { name: "minute", quota: 60, seconds: 60 },
    { name: "hour", quota: 3000, seconds: 3600 },
    { name: "day", quota: 50_000, seconds: 86_400 },
  ]);
  emu.control.clearRequests();
  return { emu, ids: pods.map((p) => p.id) };
}

export async function runAfterUp(
  phase: AfterUpResult["phase"],
  strategy: AfterUpResult["strategy"],
  n: number,
  scale: number,
): Promise<AfterUpResult> {
  const { emu, ids } = await fleetUp(n, scale);
  const { clock, providers } = useEmulatorRuntime(emu);
  try {
    const start = clock.now();
    let results: PromiseSettledResult<unknown>[];
    if (strategy === "ours") {
      results = await Promise.allSettled(
        ids.map((id) =>
          phase === "refresh"
            ? providers.Pod.read(id)
            : providers.Pod.delete(id, { name: id, timeouts: { delete: 3600 } } as never),
        ),
      );
    } else {
      const api = new RunpodApi(
        new RunpodClient(
          resolveSettings(() => undefined, emu.env()),
          { clock },
        ),
      );
      results = await Promise.allSettled(
        ids.map(async (id) => {
          if (phase === "refresh") return api.pods.get(id);
          await api.pods.delete(id);
          // Each pod read again and again until gone (404 or TERMINATED): other tools' per-pod
          // polling, every 5 s.
          const gone = () =>
            api.pods.get(id).then(
              (pod) => pod.status === "TERMINATED",
              () => true,
            );
          while (!(await gone())) await clock.sleep(5000);
          return undefined;
        }),
      );
    }
    const { summary } = emu.control.requests();
    return {
      phase,
      strategy,
      n,
      seconds: (clock.now() - start) / 1000,
      requests: summary.total,
      status429: summary.byStatus["429"] ?? 0,
      failures: results.filter((r) => r.status === "rejected").length,
    };
  } finally {
    await emu.close();
  }
}
