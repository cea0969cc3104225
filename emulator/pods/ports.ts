/**
 * When a pod's ports are reachable, read off its boots and the emulator clock: the public mapping
 * of its `<port>/tcp` entries, and what its container answers on a port (network.ts serves
 * both for real; routes.ts shows the mapping in `runtime.ports`).
 */
import { createHash } from "node:crypto";
import type { PodRecord } from "../store/pod-records.js";
import type { Store } from "../store/store.js";
import { behaviourFor, bootStatus } from "./containers.js";

/** `late`: how long after the container starts it keeps answering 503. @default */
export const DEFAULT_SERVE_AFTER_MS = 20_000;

export const portsOf = (pod: PodRecord, type: "tcp" | "http") =>
  pod.ports.filter((p) => p.endsWith(`/${type}`)).map((p) => Number(p.split("/")[0]));

/**
 * Since when the pod's container has been up at `t`, if it is. A pod RUNNING without a boot (a
 * seeded one, or a status forced by the control plane) has been up for as long as it matters.
 */
function upSince(pod: PodRecord, t: number): number | undefined {
  const boot = pod.boots.at(-1);
  if (boot && boot.endedAt === undefined) return bootStatus(boot, t).runningSince;
  return pod.status === "RUNNING" ? Number.NEGATIVE_INFINITY : undefined;
}

/**
 * The pod's own mapping delay, up to settings.portMappingMs: drawn from its id (itself from the
 * seeded random source), so it takes nothing from the random sequence other draws follow.
 */
function mappingDelayMs(state: Store, pod: PodRecord): number {
  const h = createHash("sha256").update(pod.id).digest().readUInt32BE(0);
  return Math.round((h / 0xffffffff) * state.settings.portMappingMs);
}

/** Whether the pod's `<port>/tcp` entries have their public address at `t`. */
export function portsMapped(state: Store, pod: PodRecord, t: number): boolean {
  const since = upSince(pod, t);
  return since !== undefined && t >= since + mappingDelayMs(state, pod);
}

/**
 * The public address of a pod's `<port>/tcp` at `t`, once it has one: its machine's port, on the
 * emulator's host when the emulator really listens there (network.ts).
 */
export function publicAddress(
  state: Store,
  pod: PodRecord,
  port: number,
  t: number,
): { ip: string; port: number } | undefined {
  const mapped = pod.machine.portMap[port];
  if (mapped === undefined || !portsMapped(state, pod, t)) return undefined;
  return { ip: state.podPorts?.host ?? pod.machine.publicIp, port: mapped };
}

/** What the container answers on a port at `t`: nothing listens, loading (503), or ready. */
export function serving(state: Store, pod: PodRecord, t: number): "down" | "loading" | "up" {
  const since = upSince(pod, t);
  if (since === undefined) return "down";
  const rule = behaviourFor(state.containerBehaviours, pod.image);
  // A crash-looping container dies before it listens, unless its rule says otherwise.
  const crashing = pod.boots.at(-1)?.script.kind === "crashLoop";
  switch (rule?.serve ?? (crashing ? "never" : "answers")) {
    case "never":
      return "down";
    case "late":
      return t >= since + (rule?.serveAfterMs ?? DEFAULT_SERVE_AFTER_MS) ? "up" : "loading";
    case "answers":
      return "up";
  }
}
