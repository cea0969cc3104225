/**
 * v2 pods under base_url (docs/api-model.md, Resources and their routes; v2 description: createPod, getPod, listPods,
 * updatePod, deletePod, podAction): the route table and the handlers past create
 * (create.ts). Cluster member pods are read here but changed only through their cluster.
 */

import { reacquire } from "../catalog/capacity.js";
import { badRequest, conflict } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { MAX_REQUEST_BYTES, PodActionRequest } from "../schemas/common.js";
import { UpdatePodRequest } from "../schemas/pods.js";
import { requireRegistry } from "../store/lookups.js";
import type { PodRecord } from "../store/pod-records.js";
import { nextArgs } from "./command.js";
import { createPod, resolveTemplate } from "./create.js";
import {
  applyPendingNetworking,
  containerChanged,
  findPod,
  LOCKED_OUT,
  meterPod,
  requireModifiable,
  requirePod,
  restartSequence,
  startSequence,
  stop,
  terminate,
  VALID_ACTIONS,
} from "./lifecycle.js";
import { randomPort } from "./new-pod.js";
import { podView } from "./view.js";

// ---------------------------------------------------------------- read

function listPods(ctx: RouteContext) {
  const includeCluster = ctx.query.get("includeClusterPods") === "true";
  const pods = [...ctx.state.pods.keys()]
    .map((id) => findPod(ctx.state, id, ctx.account))
    .filter((p): p is PodRecord => p !== undefined && p.status !== "TERMINATED")
    .filter((p) => includeCluster || !p.cluster)
    .map((p) => podView(ctx.state, p));
  return json(200, { pods });
}

function getPod(ctx: RouteContext) {
  return json(200, podView(ctx.state, requirePod(ctx.state, ctx.params.id ?? "", ctx.account)));
}

// ---------------------------------------------------------------- update

type Patch = ReturnType<typeof UpdatePodRequest.parse>;

/** The pod's mounts after a PATCH's `mounts`, checked whole before anything changes. */
function patchedMounts(pod: PodRecord, patch: NonNullable<Patch["mounts"]>): PodRecord["mounts"] {
  if (patch.network?.length === 0)
    throw badRequest("mounts.network must not be an empty array; omit mounts to leave them unchanged.");
  if (patch.global?.length === 0)
    throw badRequest("mounts.global must not be an empty array; omit mounts to leave them unchanged.");
  for (const kind of ["persistent", "network", "global"] as const) {
    if (patch[kind] !== undefined && pod.mounts[kind] === undefined) {
      throw badRequest(
        `mounts.${kind} was not present when the pod was created; the mount kind is fixed at create.`,
      );
    }
  }
  const next = structuredClone(pod.mounts);
  if (patch.persistent && next.persistent) {
    if (patch.persistent.size !== next.persistent.size) {
      throw badRequest("mounts.persistent.size cannot change; only the path may be updated.");
    }
    next.persistent.path = patch.persistent.path;
  }
  for (const kind of ["network", "global"] as const) {
    const entries = patch[kind];
    const current = next[kind];
    if (!entries || !current) continue;
    if (entries.length !== current.length)
      throw badRequest(`mounts.${kind} must list the same volumes as at create.`);
    next[kind] = entries.map((entry, i) => {
      const existing = current[i];
      if (!existing || existing.volumeId !== entry.volumeId) {
        throw badRequest(`mounts.${kind}[${i}].volumeId is immutable; only the path may change.`);
      }
      return { volumeId: existing.volumeId, path: entry.path ?? existing.path };
    });
  }
  return next;
}

function updatePod(ctx: RouteContext) {
  const { state } = ctx;
  const pod = requireModifiable(state, ctx.params.id ?? "", "modified", ctx.account);
  const patch = validateBody(UpdatePodRequest, ctx.body);
  const template = patch.templateId ? resolveTemplate(state, patch.templateId, ctx.account) : undefined;
  const args = nextArgs(template && patch.args === undefined ? template.args : pod.args, patch);
  requireRegistry(state, ctx.account, patch.registry !== undefined ? patch.registry : template?.registry);

  let restart = false;
  const set = <K extends keyof PodRecord>(key: K, value: PodRecord[K] | undefined, restarts: boolean) => {
    if (value === undefined) return;
    if (JSON.stringify(pod[key]) !== JSON.stringify(value)) {
      pod[key] = value;
      if (restarts) restart = true;
    }
  };
  // Every check happens before the first change: a rejected PATCH changes nothing.
  const mounts =
    patch.mounts && Object.keys(patch.mounts).length > 0 ? patchedMounts(pod, patch.mounts) : undefined;
  const env = template ? { ...template.env, ...(patch.env ?? {}) } : patch.env;
  set("mounts", mounts, true);
  set("name", patch.name, false);
  set("image", patch.image ?? template?.image, true);
  set("args", args, true);
  set("disk", patch.disk ?? template?.disk, true);
  set("env", env, true);
  set("ports", patch.ports ?? template?.ports, true);
  set("registry", patch.registry !== undefined ? patch.registry : template?.registry, true);
  set("locked", patch.locked, false);
  if (patch.globalNetworking !== undefined && patch.globalNetworking !== pod.globalNetworking) {
    pod.pendingGlobalNetworking = patch.globalNetworking;
  }
  for (const p of pod.ports) {
    const port = Number(p.split("/")[0]);
    if (p.endsWith("/tcp") && pod.machine.portMap[port] === undefined)
      pod.machine.portMap[port] = randomPort(state);
  }
  if (restart) containerChanged(state, pod);
  // A changed disk bills from now, whatever the status.
  meterPod(state, pod);
  return json(200, podView(state, pod));
}

// ---------------------------------------------------------------- delete and actions

function deletePod(ctx: RouteContext) {
  const pod = requireModifiable(ctx.state, ctx.params.id ?? "", "terminated", ctx.account);
  terminate(ctx.state, pod);
  return noContent;
}

/**
 * The service's wording when a stopped pod cannot get its GPUs back: a stopped pod resumes on the
 * machine it stopped on, so other data centers' stock does not help.
 */
export const NO_CAPACITY_TO_START = "There are not enough free GPUs on the host machine to start this pod.";
const NO_CPU_CAPACITY_TO_START = "There are not enough free CPUs on the host machine to start this pod.";

/**
 * POST /v2/pods/{id}/action (v2 description: podAction): only the actions the pod's `actions[]`
 * lists (409 otherwise). `stop` keeps the pod, its disk and mounts (EXITED, cost 0, capacity given
 * back); `start` takes its machine's GPUs or vCPUs again, or fails with 400 and stays EXITED;
 * `restart` restarts the container in place; `terminate` is a delete (204).
 */
const LOCKED_VERB: Partial<Record<string, string>> = {
  stop: "stopped",
  restart: "restarted",
  terminate: "terminated",
};

function podAction(ctx: RouteContext) {
  const { state } = ctx;
  const { action } = validateBody(PodActionRequest, ctx.body);
  const pod = requireModifiable(state, ctx.params.id ?? "", "changed", ctx.account);
  if (pod.locked && LOCKED_OUT.includes(action)) {
    throw conflict(
      `Pod '${pod.id}' is locked and cannot be ${LOCKED_VERB[action] ?? action}; unlock it (PATCH locked=false) first.`,
    );
  }
  if (!VALID_ACTIONS[pod.status].includes(action)) {
    throw conflict(
      `Action '${action}' is not valid for a pod in status ${pod.status}; valid: ${VALID_ACTIONS[pod.status].join(", ") || "none"}.`,
    );
  }
  switch (action) {
    case "terminate":
      terminate(state, pod);
      return noContent;
    case "stop":
      stop(state, pod);
      break;
    case "restart":
      applyPendingNetworking(pod);
      restartSequence(state, pod);
      break;
    case "start":
      if (!reacquire(state, pod.machine)) {
        throw badRequest(pod.machine.gpuTypeId ? NO_CAPACITY_TO_START : NO_CPU_CAPACITY_TO_START);
      }
      applyPendingNetworking(pod);
      startSequence(state, pod, state.now(), "RUNNING", "start");
      break;
  }
  return json(200, podView(state, pod));
}

export const podRoutes: RouteTable = {
  v2: [
    {
      method: "POST",
      pattern: "/v2/pods",
      handler: createPod,
      maxBodyBytes: MAX_REQUEST_BYTES,
      sizeBeforeAuth: true,
    },
    { method: "GET", pattern: "/v2/pods", handler: listPods },
    { method: "GET", pattern: "/v2/pods/:id", handler: getPod },
    { method: "PATCH", pattern: "/v2/pods/:id", handler: updatePod },
    { method: "DELETE", pattern: "/v2/pods/:id", handler: deletePod },
    { method: "POST", pattern: "/v2/pods/:id/action", handler: podAction },
  ],
};
