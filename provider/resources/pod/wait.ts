/** Waiting for a pod: its status through the shared watcher, its readiness check, stop, resume, terminate. */
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import type { Pod as ApiPod, PodLogLine } from "../../client/schemas/pods.js";
import type { PodStatus } from "../../client/vocabulary.js";
import { elapsed, type HostContext } from "../../host/context.js";
import {
  ContainerWatch,
  DEFAULT_SETTLE_SECONDS,
  describeReadiness,
  failFastOptions,
  isContainerFailure,
  portsMapped,
  probeUntilReady,
  publicTcp,
  type Readiness,
} from "../../host/pod-health.js";
import { arrivalKind } from "../../host/read-schedule.js";
import { isWaitFailure, WaitFailure } from "../../host/wait-failure.js";
import type { WaitTarget } from "../../host/waiter.js";
import type { PodInputs } from "./types.js";
import { label } from "./types.js";

/** Waits through the shared watcher, printing each status transition with the time elapsed. */
export async function waitForPod(
  ctx: HostContext,
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  target: WaitTarget,
  timeoutSeconds: number,
  extra: {
    signal?: AbortSignal;
    onRead?: (pod: ApiPod) => void;
    kind?: string;
    logLines?: (line: PodLogLine) => void;
  } = {},
): Promise<ApiPod | undefined> {
  const started = ctx.now();
  let previous: PodStatus = pod.status;
  return ctx.watcher.waitFor({
    podId: pod.id,
    target,
    timeoutMs: timeoutSeconds * 1000,
    ...(extra.signal ? { signal: extra.signal } : {}),
    ...(extra.onRead ? { onRead: extra.onRead } : {}),
    ...(extra.kind !== undefined ? { kind: extra.kind } : {}),
    ...(extra.logLines ? { logLines: extra.logLines } : {}),
    onStatus: (status) => {
      if (status === previous) return;
      ctx.progress(label(inputs), `${pod.id} ${previous} -> ${status} (${elapsed(ctx.now() - started)})`);
      previous = status;
    },
  });
}

/**
 * Waits for `target`, then for the pod's readiness check, all within `timeoutSeconds`; fails
 * within seconds when the pod's log says its container will never start (both in host/pod-health.ts). Failures are WaitFailures that carry the pod as last read.
 */
export async function waitUntilReady(
  ctx: HostContext,
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  target: WaitTarget,
  timeoutSeconds: number,
  justCreated = false,
): Promise<ApiPod | undefined> {
  const deadline = ctx.now() + timeoutSeconds * 1000;
  const failed = new AbortController();
  const failFast = failFastOptions(inputs.failFast);
  const secrets = [ctx.settings.apiKey ?? "", ...Object.values(inputs.env ?? {})];
  const pulls = `${pod.image} ${pod.registry ?? ""} ${pod.disk}`;
  const containers = new ContainerWatch(
    ctx.api,
    ctx.clock,
    ctx.v2Budget,
    ctx.imagePulls,
    pod.id,
    pulls,
    failFast,
    secrets,
    (f) => failed.abort(f),
  );
  let latest = pod;
  const asWaitFailure = (err: unknown) => {
    const f: unknown = failed.signal.reason;
    if (!failed.signal.aborted || !isContainerFailure(f)) return err;
    return new WaitFailure(pod.id, "CONTAINER", latest.status, latest, f.message);
  };
  try {
    const reached = await waitForPod(ctx, pod, inputs, target, timeoutSeconds, {
      signal: failed.signal,
      onRead: (p) => containers.observe(p.status),
      ...(justCreated ? { kind: arrivalKind(pod) } : {}),
      // The log is read only where failing fast may read it.
      ...(failFast.logs ? { logLines: (line: PodLogLine) => containers.observeLine(line) } : {}),
    }).catch((err) => {
      throw asWaitFailure(err);
    });
    if (reached) latest = reached;
    if (target !== "RUNNING" || !reached) return reached;
    const r: Readiness = inputs.readiness ?? {};
    if (r.check !== undefined && r.check !== "RUNNING") {
      latest = await untilReadinessCheckPasses(
        ctx,
        latest,
        inputs,
        r,
        deadline,
        failed.signal,
        containers,
        (p) => {
          latest = p;
        },
      ).catch((err) => {
        throw asWaitFailure(err);
      });
    }
    const settle = r.settle ?? DEFAULT_SETTLE_SECONDS;
    if (settle === 0) return latest;
    return await untilStaysUp(ctx, latest, inputs, settle, deadline, failed.signal, containers).catch(
      (err) => {
        throw asWaitFailure(err);
      },
    );
  } finally {
    containers.close();
  }
}

/** The readiness check of a RUNNING pod: its ports mapped, or a probe passing, by its own timeout. */
async function untilReadinessCheckPasses(
  ctx: HostContext,
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  r: Readiness,
  deadline: number,
  failed: AbortSignal,
  containers: ContainerWatch,
  seen: (pod: ApiPod) => void,
): Promise<ApiPod> {
  const limitMs = Math.min(deadline - ctx.now(), (r.timeout ?? Number.POSITIVE_INFINITY) * 1000);
  const limit =
    r.timeout !== undefined && r.timeout * 1000 <= deadline - ctx.now()
      ? `readiness.timeout (${r.timeout} s)`
      : "the create or update timeout";
  ctx.progress(label(inputs), `${pod.id} RUNNING; waiting for ${describeReadiness(r)}`);
  const stop = new AbortController();
  const onFailed = () => stop.abort(failed.reason);
  failed.addEventListener("abort", onFailed, { once: true });
  let latest = pod;
  let probed = false;
  let lastAnswer = "no answer yet";
  try {
    const statusWait = ctx.watcher.waitFor({
      podId: pod.id,
      target: "RUNNING",
      timeoutMs: Math.max(0, limitMs),
      signal: stop.signal,
      // A probe decides success: once it has an address to go to, the API is read only for failures.
      relaxed: () =>
        r.check === "HTTP" || (r.check === "TCP" && publicTcp(latest, r.port ?? 0) !== undefined),
      onRead: (p) => containers.observe(p.status),
      until: (p) => {
        latest = p;
        seen(p);
        return r.check === "PORTS" ? portsMapped(p) : probed;
      },
    });
    // Settled either way below; this only keeps a rejection after the race from going unhandled.
    statusWait.catch(() => undefined);
    if (r.check === "PORTS" && portsMapped(pod)) return pod;
    if (r.check === "PORTS") return (await statusWait) ?? latest;
    const probing = probeUntilReady(
      { clock: ctx.clock, proxyUrl: ctx.settings.proxyUrl },
      { ...r, check: r.check === "HTTP" ? "HTTP" : "TCP" },
      pod.id,
      () => latest,
      (line, answer) => {
        lastAnswer = answer;
        if (line) ctx.progress(label(inputs), `${pod.id} ${line}`);
      },
      stop.signal,
    ).then(() => {
      probed = true;
      return latest;
    });
    return (await Promise.race([statusWait, probing])) ?? latest;
  } catch (err) {
    if (isWaitFailure(err) && err.reason === "TIMEOUT") {
      const what =
        r.check === "PORTS" ? "public addresses for every <port>/tcp" : `last answer: ${lastAnswer}`;
      throw new WaitFailure(
        pod.id,
        "NOT_READY",
        latest.status,
        latest,
        `pod ${pod.id} is RUNNING but did not pass its readiness check ${describeReadiness(r)} (${what}) within ${limit}`,
      );
    }
    throw err;
  } finally {
    failed.removeEventListener("abort", onFailed);
    stop.abort();
  }
}

/** When the pod's container last started RUNNING, by the API's clock; undefined when it does not say. */
function runningSince(pod: ApiPod): number | undefined {
  const started = pod.startedAt ? Date.parse(pod.startedAt) : Number.NaN;
  return Number.isNaN(started) ? undefined : started;
}

/** How long to give the container watch to quote the log once a restart is seen, in provider time. */
const QUOTE_GRACE_MS = 5000;

/**
 * A RUNNING pod is done once its container has stayed up `settle` seconds without a restart,
 * counted from when it started RUNNING (`startedAt`, else when first seen so). A crash-looping
 * container shows RUNNING while it is up; a restart within the settle time is read as a crash loop:
 * the pod leaves RUNNING, or its `startedAt` moves. The log is then read (host/pod-health.ts) to
 * quote why; without it (no log route, `failFast.logs: false`) the failure says what was seen.
 */
async function untilStaysUp(
  ctx: HostContext,
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  settle: number,
  deadline: number,
  failed: AbortSignal,
  containers: ContainerWatch,
): Promise<ApiPod> {
  const startedAt = runningSince(pod);
  // Counted on the provider's clock from the first read that saw it RUNNING: the API's clock may
  // differ, and a few seconds more cost little next to provisioning.
  const settledAt = ctx.now() + settle * 1000;
  containers.expectUp(startedAt ?? Number.NEGATIVE_INFINITY);
  ctx.progress(label(inputs), `${pod.id} RUNNING; waiting ${settle} s to see it stay up (readiness.settle)`);
  const stop = new AbortController();
  const onFailed = () => stop.abort(failed.reason);
  failed.addEventListener("abort", onFailed, { once: true });
  let latest = pod;
  let restart: string | undefined;
  const restarted = (p: ApiPod): string | undefined => {
    if (p.status !== "RUNNING") return `it went from RUNNING to ${p.status}`;
    const since = runningSince(p);
    if (startedAt !== undefined && since !== undefined && since !== startedAt)
      return `its container started again at ${p.startedAt}`;
    return undefined;
  };
  try {
    return (
      (await ctx.watcher.waitFor({
        podId: pod.id,
        target: "RUNNING",
        // The wait's own deadline is when it settles (or the create's, if sooner): the watcher
        // reads once more then, and reads in between only at its longest interval, to catch a
        // restart (a few reads per pod, or per fleet, not one a second).
        timeoutMs: Math.max(0, Math.min(settledAt, deadline) - ctx.now()),
        relaxed: () => true,
        signal: stop.signal,
        onRead: (p) => {
          latest = p;
          containers.observe(p.status);
          restart ??= restarted(p);
          if (restart !== undefined) {
            containers.expectUp(startedAt ?? Number.NEGATIVE_INFINITY, true);
            stop.abort(new Error(restart));
          }
        },
        until: () => ctx.now() >= settledAt,
      })) ?? latest
    );
  } catch (err) {
    // The last read came at the settle time and saw no restart: settled.
    if (restart === undefined && isWaitFailure(err) && err.reason === "TIMEOUT" && ctx.now() >= settledAt)
      return latest;
    if (restart === undefined) throw err;
    // The log, now being read, usually quotes the exit within moments: wait for it briefly.
    if (!failed.aborted) await ctx.sleep(QUOTE_GRACE_MS, failed).catch(() => undefined);
    if (failed.aborted) throw failed.reason;
    throw new WaitFailure(
      pod.id,
      "CONTAINER",
      latest.status,
      latest,
      `pod ${pod.id} did not stay up: ${restart} within ${settle} s of RUNNING (readiness.settle), a crash loop; its log could not be read to say why`,
    );
  } finally {
    failed.removeEventListener("abort", onFailed);
    stop.abort();
  }
}

/** Stops a pod (`desiredStatus: "STOPPED"`) and waits until it is EXITED; it keeps its disk and volume. */
export async function stopPod(
  ctx: HostContext,
  pod: ApiPod,
  inputs: Partial<PodInputs>,
  timeoutSeconds: number,
): Promise<ApiPod> {
  try {
    await ctx.api.pods.action(pod.id, "stop");
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.CONFLICT)) {
      throw new Error(`${label(inputs)}: pod ${pod.id} cannot be stopped now: ${err.detail ?? err.message}`);
    }
    throw err;
  }
  const stopped = (await waitForPod(ctx, pod, inputs, "STOPPED", timeoutSeconds)) ?? pod;
  ctx.progress(label(inputs), `${pod.id} stopped: its disk and volume are kept, its GPU no longer bills`);
  return stopped;
}

/**
 * Starts a stopped pod (`desiredStatus: "RUNNING"`). Starting needs a free GPU of the pod's type on
 * its machine: when there is none the API refuses (400) and the pod stays stopped, which the error
 * says, so that the next `pulumi up` simply tries again. Waiting for RUNNING is the caller's.
 */
export async function resumePod(ctx: HostContext, pod: ApiPod, inputs: Partial<PodInputs>): Promise<ApiPod> {
  try {
    const started = await ctx.api.pods.action(pod.id, "start");
    ctx.progress(label(inputs), `${pod.id} starting`);
    return started ?? (await ctx.api.pods.get(pod.id));
  } catch (err) {
    if (isRunpodApiError(err, ERROR_CODES.BAD_REQUEST, ERROR_CODES.CONFLICT)) {
      throw new Error(
        `${label(inputs)}: pod ${pod.id} could not be started: ${err.detail ?? err.message}. It stays stopped (${pod.status}); starting needs a free ${pod.gpu?.id ?? "machine"} where the pod lives, so run \`pulumi up\` again later, or replace the pod elsewhere.`,
      );
    }
    throw err;
  }
}

/** Deletes a pod and waits until it is gone; false when it was gone already (404). */
export async function terminateAndWait(
  ctx: HostContext,
  id: string,
  timeoutSeconds: number,
): Promise<boolean> {
  try {
    await ctx.api.pods.delete(id);
  } catch (err) {
    if (!isRunpodApiError(err, ERROR_CODES.NOT_FOUND)) throw err;
    return false;
  }
  await ctx.watcher.waitFor({ podId: id, target: "GONE", timeoutMs: timeoutSeconds * 1000 });
  return true;
}
