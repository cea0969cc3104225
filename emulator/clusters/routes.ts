/**
 * Instant clusters under base_url (`/v2/clusters`, v2 description: Cluster, CreateClusterRequest,
 * UpdateClusterRequest). A cluster is `compute.podCount` identical GPU pods in one data center;
 * its members live in the pod store, so they follow the pod lifecycle on the emulator clock
 * (PROVISIONING -> STARTING -> RUNNING, the image's container behaviour, logs), are listed by
 * `GET /v2/pods` only with `includeClusterPods=true`, and refuse pod PATCH, DELETE and actions
 * with 409.
 *
 * Create checks: schema (422), image present and the mount rules (400), GPU type and per-pod
 * count (400), data centers and volumes (400), balance (402), pool access (403), capacity for the
 * whole cluster in one data center (400 with the service's capacity wording). PATCH renames and
 * nothing else (the members keep their names). DELETE terminates every member and the cluster
 * stays readable, its members TERMINATED, for settings.terminatingMs, like a deleted pod.
 */

import { createHash } from "node:crypto";
import { gpuStockAt } from "../catalog/capacity.js";
import { badRequest, HttpError, NO_CAPACITY, notFound, unprocessable } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { nextArgs } from "../pods/command.js";
import { findPod, launchPod, terminate } from "../pods/lifecycle.js";
import {
  allowedDataCenters,
  candidateDataCenters,
  podMounts,
  randomPublicIp,
  serviceEnv,
  tcpPortMap,
} from "../pods/new-pod.js";
import { publicAddress } from "../pods/ports.js";
import { podView } from "../pods/view.js";
import { CreateClusterRequest, UpdateClusterRequest } from "../schemas/clusters.js";
import type { PodStatus } from "../schemas/common.js";
import { requireGpuType } from "../store/lookups.js";
import type { ClusterRecord, PodRecord } from "../store/pod-records.js";
import { stockKey } from "../store/records.js";
import type { Store } from "../store/store.js";
import { memberMachine, overlayIp, roleOf } from "./members.js";

/** The overlay network every cluster gets (v2 description's example). */
const OVERLAY_CIDR = "10.65.0.0/16";
const VXLAN_PORT = 4789;

function vxlanId(id: string): number {
  return (Number.parseInt(createHash("sha256").update(id).digest("hex").slice(0, 6), 16) % 16_000_000) + 1;
}

/**
 * The cluster as a live record: undefined when unknown, its deleted grace period has passed, or
 * another account owns it (account/accounts.ts).
 */
export function findCluster(state: Store, id: string, account: string): ClusterRecord | undefined {
  const c = state.clusters.get(id);
  if (!c) return undefined;
  if (c.goneAt !== undefined && c.goneAt <= state.now()) {
    state.clusters.delete(id);
    for (const podId of c.memberIds) state.pods.delete(podId);
    return undefined;
  }
  return c.account === account ? c : undefined;
}

function requireCluster(state: Store, id: string, account: string): ClusterRecord {
  const c = findCluster(state, id, account);
  if (!c) throw notFound(`Cluster '${id}' was not found.`);
  return c;
}

function requireLiveCluster(state: Store, id: string, account: string): ClusterRecord {
  const c = requireCluster(state, id, account);
  if (c.goneAt !== undefined) throw notFound(`Cluster '${id}' was deleted.`);
  return c;
}

function members(state: Store, c: ClusterRecord): PodRecord[] {
  return c.memberIds.map((id) => findPod(state, id)).filter((p): p is PodRecord => p !== undefined);
}

function clusterView(state: Store, c: ClusterRecord): Record<string, unknown> {
  const pods = members(state, c);
  const byStatus: Partial<Record<PodStatus, number>> = {};
  for (const p of pods) byStatus[p.status] = (byStatus[p.status] ?? 0) + 1;
  const primary = pods.find((p) => p.cluster?.rank === 0);
  // The overlay network and the primary exist once the members are past provisioning.
  const placed = primary !== undefined && primary.status !== "PROVISIONING";
  const ssh =
    primary?.ports.includes("22/tcp") && primary.status === "RUNNING"
      ? publicAddress(state, primary, 22, state.now())
      : undefined;
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    compute: c.compute,
    dataCenterId: c.dataCenterId,
    pods: { total: pods.length, byStatus },
    ...(placed ? { network: { cidr: OVERLAY_CIDR, vxlanId: vxlanId(c.id), vxlanPort: VXLAN_PORT } } : {}),
    ...(placed && primary
      ? {
          primary: {
            podId: primary.id,
            status: primary.status,
            ...(ssh === undefined ? {} : { sshEndpoint: `${ssh.ip}:${ssh.port}` }),
          },
        }
      : {}),
    createdAt: new Date(c.createdAt).toISOString(),
  };
}

// ---------------------------------------------------------------- create

function createCluster(ctx: RouteContext) {
  const { state } = ctx;
  const body = validateBody(CreateClusterRequest, ctx.body);
  if (body.image === undefined) {
    throw badRequest(
      "image is required: clusters take no templateId; spread a template's container settings into the body.",
    );
  }
  const args = nextArgs("", body);
  const mounts = body.mounts;
  if (mounts?.persistent && (mounts.network?.length || mounts.global?.length)) {
    throw badRequest("mounts.persistent cannot be combined with mounts.network or mounts.global.");
  }
  const { gpuTypeId, gpuCountPerPod, podCount } = body.compute;
  const type = requireGpuType(state, gpuTypeId, "compute.gpuTypeId");
  if (gpuCountPerPod > type.maxCount.secure) {
    throw badRequest(
      `compute.gpuCountPerPod ${gpuCountPerPod} exceeds the maximum of ${type.maxCount.secure} ${gpuTypeId} per pod.`,
    );
  }
  const candidates = candidateDataCenters(state, body.dataCenterIds, mounts, ctx.account, "cluster");
  if (state.settings.balanceExhausted) {
    throw new HttpError(402, "Your balance is too low to create this cluster. Add funds to continue.");
  }
  const allowed = allowedDataCenters(state, ctx.apiKey, candidates, gpuTypeId);
  // A cluster is always within one data center: the whole of it has to fit there.
  const need = podCount * gpuCountPerPod;
  const dc = allowed.find((id) => (gpuStockAt(state, id, gpuTypeId)?.free ?? 0) >= need);
  if (dc === undefined) throw badRequest(NO_CAPACITY);

  const c: ClusterRecord = {
    id: state.newId(),
    name: body.name,
    type: body.type,
    compute: body.compute,
    dataCenterId: dc,
    memberIds: [],
    createdAt: ctx.now,
    account: ctx.account,
  };
  const env = serviceEnv(state, ctx.account, body.env ?? {}, {
    ssh: body.startSsh,
    jupyter: body.startJupyter,
  });
  const ports = body.ports ?? [];
  const stock = gpuStockAt(state, dc, gpuTypeId);
  for (let rank = 0; rank < podCount; rank += 1) {
    const portMap = tcpPortMap(state, ports);
    if (stock) stock.free -= gpuCountPerPod;
    const role = roleOf(body.type, rank);
    const pod = launchPod(
      state,
      {
        id: state.newId(),
        name: `${body.name}-node-${rank}`,
        image: body.image,
        args,
        disk: body.disk ?? 20,
        env: { ...env },
        ports,
        registry: null,
        mounts: podMounts(mounts?.persistent, mounts),
        gpu: { id: gpuTypeId, count: gpuCountPerPod },
        cloud: "SECURE",
        machine: memberMachine(state.gpuStock.get(stockKey(dc, gpuTypeId)), dc, gpuTypeId, gpuCountPerPod, {
          portMap,
          held: true,
          publicIp: randomPublicIp(state),
        }),
        locked: false,
        globalNetworking: false,
        cluster: { id: c.id, rank, ...(role === undefined ? {} : { role }), ip: overlayIp(rank) },
        costPerHour: Math.round(type.price.secure * gpuCountPerPod * 1000) / 1000,
        createdAt: ctx.now,
        account: ctx.account,
      },
      ctx.now,
    );
    c.memberIds.push(pod.id);
  }
  state.clusters.set(c.id, c);
  return json(201, clusterView(state, c));
}

// ---------------------------------------------------------------- read, rename, delete

function listClusters(ctx: RouteContext) {
  const { state } = ctx;
  const clusters = [...state.clusters.keys()]
    .map((id) => findCluster(state, id, ctx.account))
    .filter((c): c is ClusterRecord => c !== undefined && c.goneAt === undefined)
    .map((c) => clusterView(state, c));
  return json(200, { clusters });
}

function renameCluster(ctx: RouteContext) {
  const { state } = ctx;
  const c = requireLiveCluster(state, ctx.params.id ?? "", ctx.account);
  // minProperties: 1, on the body as sent (an unknown property is its own error, not an empty body).
  const body = ctx.body;
  if (
    body === undefined ||
    (typeof body === "object" && body !== null && !Array.isArray(body) && Object.keys(body).length === 0)
  ) {
    throw unprocessable(["$: expected at least 1 property"]);
  }
  const { name } = validateBody(UpdateClusterRequest, body);
  if (name !== undefined) c.name = name;
  return json(200, clusterView(state, c));
}

function deleteCluster(ctx: RouteContext) {
  const { state } = ctx;
  const c = requireLiveCluster(state, ctx.params.id ?? "", ctx.account);
  for (const pod of members(state, c)) {
    if (pod.status === "TERMINATED") continue;
    // Members cannot be locked (pod PATCH refuses them), so terminating never meets a lock.
    terminate(state, pod);
  }
  c.goneAt = state.now() + state.settings.terminatingMs;
  return noContent;
}

function listClusterPods(ctx: RouteContext) {
  const { state } = ctx;
  const c = requireCluster(state, ctx.params.id ?? "", ctx.account);
  return json(200, { pods: members(state, c).map((p) => podView(state, p)) });
}

export const clusterRoutes: RouteTable = {
  v2: [
    { method: "GET", pattern: "/v2/clusters", handler: listClusters },
    { method: "POST", pattern: "/v2/clusters", handler: createCluster },
    {
      method: "GET",
      pattern: "/v2/clusters/:id",
      handler: (ctx) =>
        json(200, clusterView(ctx.state, requireCluster(ctx.state, ctx.params.id ?? "", ctx.account))),
    },
    { method: "PATCH", pattern: "/v2/clusters/:id", handler: renameCluster },
    { method: "DELETE", pattern: "/v2/clusters/:id", handler: deleteCluster },
    { method: "GET", pattern: "/v2/clusters/:id/pods", handler: listClusterPods },
  ],
};
