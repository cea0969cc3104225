/**
 * Scenario 6: what a readiness check costs. The same fleet as scenario 1 (ours), each pod exposing
 * `8888/http` and `22/tcp` behind an image that answers 30 s after it starts, waited for by each
 * check. Probes go to the pods, so the API requests should stay those of RUNNING.
 */
import type { PodInputs } from "../provider/resources/pod/types.js";
import { FLEET_DC, FLEET_GPU, type FleetOptions, freshEmulator, useEmulatorRuntime } from "./fleet.js";

export type Check = NonNullable<NonNullable<PodInputs["readiness"]>["check"]>;

export interface ReadinessResult {
  readonly check: Check;
  readonly n: number;
  /** Emulator seconds from the first create until the last pod was ready. */
  readonly allReadySeconds: number;
  readonly requests: number;
  /** Status reads: `GET /v2/pods` and `GET /v2/pods/{id}`. */
  readonly reads: number;
  readonly status429: number;
  readonly failures: number;
}

const SERVES_AFTER_MS = 30_000;

const READINESS: Record<Check, PodInputs["readiness"]> = {
  RUNNING: { check: "RUNNING" },
  PORTS: { check: "PORTS" },
  HTTP: { check: "HTTP", port: 8888 },
  TCP: { check: "TCP", port: 22 },
};

export async function runReadinessFleet(check: Check, o: FleetOptions): Promise<ReadinessResult> {
  const emu = await freshEmulator(o);
  emu.control.setContainerBehaviour({
    image: "server:1",
    kind: "start",
    serve: "late",
    serveAfterMs: SERVES_AFTER_MS,
  });
  const { clock, providers } = useEmulatorRuntime(emu);
  try {
    const start = clock.now();
    const results = await Promise.allSettled(
      Array.from({ length: o.n }, async (_, i) => {
        await providers.Pod.create({
          name: `ready-${i}`,
          image: "server:1",
          gpu: { id: FLEET_GPU },
          dataCenterIds: [FLEET_DC],
          ports: ["8888/http", "22/tcp"],
          readiness: READINESS[check],
        });
        return clock.now();
      }),
    );
    const done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const { summary } = emu.control.requests();
    return {
      check,
      n: o.n,
      allReadySeconds: (Math.max(start, ...done) - start) / 1000,
      requests: summary.total,
      reads: (summary.byRoute["GET /v2/pods"] ?? 0) + (summary.byRoute["GET /v2/pods/:id"] ?? 0),
      status429: summary.byStatus["429"] ?? 0,
      failures: results.length - done.length,
    };
  } finally {
    await emu.close();
  }
}
