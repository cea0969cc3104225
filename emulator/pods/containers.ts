/**
 * What a pod's container does, per image, and the deterministic log it writes.
 *
 * Every boot of a pod (its create, each `start`, each restart) runs a script fixed when the boot
 * begins: the image's behaviour (seed `containerBehaviours`, changed through the control plane)
 * and the lifecycle durations of the settings at that moment. A pod's status and its log are both
 * read off that script and the emulator clock, so a frozen clock holds them still and `advance`
 * moves them exactly.
 *
 * How a failing image drives the pod's status (the emulator's reading of how the service behaves):
 * - `imageNotFound`, `unauthorized`, `outOfDisk`: the service keeps retrying the pull with the
 *   pod's machine held (and billed), so the pod goes PROVISIONING -> STARTING and stays STARTING:
 *   `runtime` stays null, it never reaches RUNNING or ERROR by itself, and the system log repeats
 *   the pull error every settings.pullRetryMs. `unauthorized` is a private image: a pod whose
 *   `registry` names an existing registry credential pulls it. `outOfDisk` is an image larger
 *   than the container disk: a pod whose `disk` is at least the behaviour's `sizeGb` starts.
 * - `crashLoop`: the container starts, runs `runMs`, exits with `exitCode`, and the service
 *   restarts it in place after settings.crashRestartMs, forever. The pod is RUNNING while the
 *   container is up (`startedAt` and `runtime.uptime` restart each time) and STARTING in between;
 *   it never ends in ERROR on its own, which is what users of the service report.
 * - A PATCH that changes the container (image, disk, registry, ...) restarts it with a new script,
 *   so fixing the image or the disk fixes the pod.
 *
 * Each boot also fixes the container's environment: `{{ RUNPOD_SECRET_<name> }}` references take
 * the secrets' values of that moment (account/secret-references.ts). A container's printed lines may name
 * its variables as `${NAME}`; every line a pod's log serves is scrubbed of the secret values.
 */

import { createHash } from "node:crypto";
import {
  bootEnvironment,
  expandVariables,
  scrubSecrets,
  unresolvedLine,
} from "../account/secret-references.js";
import type { PodStatus } from "../schemas/common.js";
import type { ContainerBehaviour } from "../schemas/container-behaviour.js";
import type { Boot, ContainerScript, PodRecord } from "../store/pod-records.js";
import type { Store } from "../store/store.js";

const DEFAULT_CRASH_RUN_MS = 15_000;
/** Crash-loop cycles and pull retries kept in a log; older ones have rotated out. */
const MAX_CYCLES = 2000;

/** The first rule matching `image`: an exact reference, or a `prefix*`. */
export function behaviourFor(
  rules: readonly ContainerBehaviour[],
  image: string,
): ContainerBehaviour | undefined {
  return rules.find((r) =>
    r.image.endsWith("*") ? image.startsWith(r.image.slice(0, -1)) : r.image === image,
  );
}

function repoAndTag(image: string): { repo: string; tag: string } {
  const at = image.indexOf("@");
  const base = at >= 0 ? image.slice(0, at) : image;
  const colon = base.lastIndexOf(":");
  return colon > base.lastIndexOf("/")
    ? { repo: base.slice(0, colon), tag: base.slice(colon + 1) }
    : { repo: base, tag: "latest" };
}

/** The script a container of `image` runs, given the pod's disk and registry. */
export function scriptFor(
  state: Store,
  container: { image: string; disk: number; registry: string | null; ports: readonly string[] },
  fate: "RUNNING" | "ERROR" = "RUNNING",
): ContainerScript {
  if (fate === "ERROR") return { kind: "error" };
  const rule = behaviourFor(state.containerBehaviours, container.image);
  const { repo, tag } = repoAndTag(container.image);
  const retryMs = state.settings.pullRetryMs;
  const startLines = rule?.lines ?? [
    `Starting ${container.image}`,
    ...container.ports.map((p) => `Listening on ${p}`),
    "Ready",
  ];
  switch (rule?.kind) {
    case undefined:
    case "start":
      return { kind: "start", lines: startLines };
    case "imageNotFound":
      return {
        kind: "pullFailure",
        reason: "imageNotFound",
        retryMs,
        detail: `manifest for ${repo}:${tag} not found: manifest unknown: manifest unknown`,
      };
    case "unauthorized":
      if (container.registry !== null && state.registries.has(container.registry)) {
        return { kind: "start", lines: startLines };
      }
      return {
        kind: "pullFailure",
        reason: "unauthorized",
        retryMs,
        detail: `pull access denied for ${repo}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`,
      };
    case "outOfDisk":
      if (rule.sizeGb !== undefined && container.disk >= rule.sizeGb)
        return { kind: "start", lines: startLines };
      return {
        kind: "pullFailure",
        reason: "outOfDisk",
        retryMs,
        detail: `failed to register layer: write /var/lib/docker/overlay2/${digestOf(container.image).slice(7, 19)}/diff: no space left on device`,
      };
    case "crashLoop":
      return {
        kind: "crashLoop",
        runMs: rule.runMs ?? DEFAULT_CRASH_RUN_MS,
        restartMs: state.settings.crashRestartMs,
        exitCode: rule.exitCode ?? 1,
        lines: rule.lines ?? [
          `Starting ${container.image}`,
          "Traceback (most recent call last):",
          '  File "/app/main.py", line 12, in <module>',
          "RuntimeError: CUDA error: out of memory",
        ],
      };
  }
}

/** A new boot of `pod` at `at`, with the current settings. */
export function newBoot(
  state: Store,
  pod: PodRecord,
  kind: Boot["kind"],
  at: number,
  fate: "RUNNING" | "ERROR" = "RUNNING",
): Boot {
  return {
    at,
    kind,
    image: pod.image,
    provisioningMs: state.settings.provisioningMs,
    startingMs: state.settings.startingMs,
    script: scriptFor(state, pod, fate),
    environment: bootEnvironment(state, pod.account, pod.env),
  };
}

/** When the boot has a machine (pulling starts), and when its container first starts. */
function phases(boot: Boot): { placedAt: number; upAt: number } {
  const placedAt = boot.at + (boot.kind === "restart" ? 0 : boot.provisioningMs);
  return { placedAt, upAt: placedAt + boot.startingMs };
}

/** The pod's status at `t` under `boot`, and since when its container has been up, if it is. */
export function bootStatus(boot: Boot, t: number): { status: PodStatus; runningSince?: number } {
  const { placedAt, upAt } = phases(boot);
  if (t < placedAt) return { status: "PROVISIONING" };
  const script = boot.script;
  if (script.kind === "pullFailure" || t < upAt) return { status: "STARTING" };
  switch (script.kind) {
    case "start":
      return { status: "RUNNING", runningSince: upAt };
    case "error":
      return { status: "ERROR" };
    case "crashLoop": {
      const period = script.runMs + script.restartMs;
      const k = Math.floor((t - upAt) / period);
      const since = upAt + k * period;
      return t - since < script.runMs ? { status: "RUNNING", runningSince: since } : { status: "STARTING" };
    }
  }
}

/** The last time at or before `t` the boot's container became RUNNING, if it ever did. */
export function lastRunningStart(boot: Boot, t: number): number | undefined {
  const { upAt } = phases(boot);
  const script = boot.script;
  if (t < upAt || script.kind === "pullFailure" || script.kind === "error") return undefined;
  if (script.kind === "start") return upAt;
  const period = script.runMs + script.restartMs;
  return upAt + Math.floor((t - upAt) / period) * period;
}

// ---------------------------------------------------------------- logs

export type LogSource = "container" | "system";

export interface LogLine {
  /** Emulator ms; strictly increasing within one log, so it doubles as the SSE event id. */
  ts: number;
  source: LogSource;
  line: string;
}

function digestOf(image: string): string {
  return `sha256:${createHash("sha256").update(image).digest("hex")}`;
}

/** Pull lines of a successful pull at `t`: a fresh pull on create/start, a cached image on restart. */
function pulled(boot: Boot, t: number, out: LogLine[]): void {
  const { repo, tag } = repoAndTag(boot.image);
  if (boot.kind === "restart") {
    out.push({ ts: t + 1, source: "system", line: `Status: Image is up to date for ${boot.image}` });
    return;
  }
  out.push(
    { ts: t + 1, source: "system", line: `${tag}: Pulling from ${repo}` },
    { ts: t + 2, source: "system", line: `Digest: ${digestOf(boot.image)}` },
    { ts: t + 3, source: "system", line: `Status: Downloaded newer image for ${boot.image}` },
  );
}

/** The lines one boot writes, at their nominal times, up to `until` (cycles beyond it left out). */
function bootLines(boot: Boot, placement: string, until: number): LogLine[] {
  const out: LogLine[] = [];
  const { placedAt, upAt } = phases(boot);
  const script = boot.script;
  const { repo, tag } = repoAndTag(boot.image);
  if (boot.kind === "restart") {
    out.push({ ts: boot.at, source: "system", line: "restart container" });
  } else {
    out.push({
      ts: boot.at,
      source: "system",
      line: `${boot.kind === "create" ? "create pod" : "start pod"}: ${placement}`,
    });
  }
  if (placedAt > until) return out;
  if (script.kind === "pullFailure") {
    const first = Math.max(0, Math.floor((until - placedAt) / script.retryMs) - MAX_CYCLES + 1);
    for (let k = first; placedAt + k * script.retryMs <= until; k += 1) {
      const s = placedAt + k * script.retryMs;
      out.push({ ts: s, source: "system", line: `create container ${boot.image}` });
      if (script.reason === "outOfDisk")
        out.push({ ts: s + 1, source: "system", line: `${tag}: Pulling from ${repo}` });
      out.push(
        {
          ts: s + 2,
          source: "system",
          line: `error pulling image: Error response from daemon: ${script.detail}`,
        },
        {
          ts: s + 3,
          source: "system",
          line: `error creating container: container: create: container create: Error response from daemon: No such image: ${boot.image}`,
        },
        { ts: s + 4, source: "system", line: `retrying in ${Math.round(script.retryMs / 1000)}s` },
      );
    }
    return out;
  }
  out.push({ ts: placedAt, source: "system", line: `create container ${boot.image}` });
  pulled(boot, placedAt, out);
  for (const ref of boot.environment.references.filter((r) => !r.resolved))
    out.push({ ts: placedAt + 4, source: "system", line: unresolvedLine(ref) });
  if (upAt > until) return out;
  const printed = (line: string) => expandVariables(line, boot.environment.variables);
  switch (script.kind) {
    case "start":
      out.push({ ts: upAt, source: "system", line: "start container" });
      script.lines.forEach((line, i) => {
        out.push({ ts: upAt + 1 + i, source: "container", line: printed(line) });
      });
      break;
    case "error":
      out.push(
        { ts: upAt, source: "system", line: "start container" },
        { ts: upAt + 1, source: "container", line: "Fatal: container failed to initialize" },
        { ts: upAt + 2, source: "system", line: "container exited with code 1; not restarting" },
      );
      break;
    case "crashLoop": {
      const period = script.runMs + script.restartMs;
      const first = Math.max(0, Math.floor((until - upAt) / period) - MAX_CYCLES + 1);
      for (let k = first; upAt + k * period <= until; k += 1) {
        const s = upAt + k * period;
        out.push({
          ts: s,
          source: "system",
          line: k === 0 ? "start container" : `start container (restart ${k})`,
        });
        script.lines.forEach((line, i) => {
          out.push({ ts: s + 1 + i, source: "container", line: printed(line) });
        });
        out.push(
          { ts: s + script.runMs, source: "system", line: `container exited with code ${script.exitCode}` },
          {
            ts: s + script.runMs + 1,
            source: "system",
            line: `restarting container in ${Math.round(script.restartMs / 1000)}s`,
          },
        );
      }
      break;
    }
  }
  return out;
}

/**
 * Every line a pod has written up to `until`, oldest first, each with its own timestamp, scrubbed
 * of the secret values any of its boots took.
 */
export function podLog(pod: PodRecord, until: number): LogLine[] {
  const m = pod.machine;
  const hardware = pod.gpu
    ? `${pod.gpu.count}x ${pod.gpu.id}`
    : `${m.vcpuCount} vCPU ${pod.cpu?.id ?? ""}`.trim();
  const placement = `${hardware} in ${m.dataCenterId}`;
  const lines: LogLine[] = [];
  for (const boot of pod.boots) {
    const end = Math.min(until, boot.endedAt ?? Number.POSITIVE_INFINITY);
    // A boot's lines stop where it ended: a restart cuts the crash loop short.
    lines.push(...bootLines(boot, placement, end).filter((l) => l.ts <= end));
    if (boot.endedAt !== undefined && boot.endedAt <= until) {
      if (boot.endedBy === "stop") lines.push({ ts: boot.endedAt, source: "system", line: "stop container" });
      // One line: a terminated pod's log is complete the moment it is terminated.
      if (boot.endedBy === "terminate")
        lines.push({
          ts: boot.endedAt,
          source: "system",
          line: "terminate pod: container stopped and removed",
        });
    }
  }
  const values = pod.boots.flatMap((b) => b.environment.secretValues);
  return distinctTimes(lines)
    .filter((l) => l.ts <= until)
    .map((l) => (values.length === 0 ? l : { ...l, line: scrubSecrets(l.line, values) }));
}

/** Sorted by time (stable), each moved 1 ms past the one before where they collide. */
export function distinctTimes(lines: LogLine[]): LogLine[] {
  const sorted = lines.map((l, i) => ({ l, i })).sort((a, b) => a.l.ts - b.l.ts || a.i - b.i);
  let last = Number.NEGATIVE_INFINITY;
  return sorted.map(({ l }) => {
    const ts = Math.max(l.ts, last + 1);
    last = ts;
    return { ...l, ts };
  });
}
