/**
 * Network volumes under base_url (`/v2/network-volumes`): 10-4096 GB, grow only, data center and
 * type fixed; the acting account's own (accounts.ts). A volume bills from its create until its
 * delete at its size's rate (billing/rates.ts); this module writes that to the usage ledger, which keeps a
 * deleted volume's usage.
 */

import { volumeMetering } from "../billing/rates.js";
import { badRequest, conflict, notFound } from "../http/errors.js";
import { json, noContent, type RouteContext, type RouteTable } from "../http/routing.js";
import { validateBody } from "../http/validation.js";
import { findPod } from "../pods/lifecycle.js";
import { CreateNetworkVolumeRequest, UpdateNetworkVolumeRequest } from "../schemas/network-volumes.js";
import { ownedVolume, requireDataCenter } from "../store/lookups.js";
import type { NetworkVolumeRecord } from "../store/records.js";
import type { Store } from "../store/store.js";

/** The NetworkVolume answer (v2 description), without the emulator's bookkeeping. */
const view = ({ account: _account, ...v }: NetworkVolumeRecord) => v;

function find(ctx: RouteContext): NetworkVolumeRecord {
  const v = ownedVolume(ctx.state, ctx.params.id ?? "", ctx.account);
  if (!v) throw notFound(`Network volume '${ctx.params.id}' was not found.`);
  return v;
}

/** From now on the volume bills its current size (nothing once `gone`). */
function meter(state: Store, v: NetworkVolumeRecord, gone = false): void {
  state.usage.meter("networkVolumes", v.id, v.account, state.now(), gone ? undefined : volumeMetering(v));
}

function createVolume(ctx: RouteContext) {
  const body = validateBody(CreateNetworkVolumeRequest, ctx.body);
  const dc = requireDataCenter(ctx.state, body.dataCenter, "dataCenter");
  const type = body.type ?? dc.networkVolumeTypes[0];
  if (!type || !dc.networkVolumeTypes.includes(type)) {
    throw badRequest(
      dc.networkVolumeTypes.length === 0
        ? `Data center ${dc.id} does not offer network volumes.`
        : `Data center ${dc.id} does not offer ${type} volumes (offers ${dc.networkVolumeTypes.join(", ")}).`,
    );
  }
  const v: NetworkVolumeRecord = {
    id: ctx.state.newId(10),
    name: body.name,
    size: body.size,
    dataCenter: dc.id,
    type,
    account: ctx.account,
  };
  ctx.state.networkVolumes.set(v.id, v);
  meter(ctx.state, v);
  return json(201, view(v));
}

function updateVolume(ctx: RouteContext) {
  const v = find(ctx);
  const patch = validateBody(UpdateNetworkVolumeRequest, ctx.body);
  if (patch.name === undefined && patch.size === undefined)
    throw badRequest("The PATCH body is empty; send name and/or size.");
  if (patch.size !== undefined && patch.size < v.size) {
    throw badRequest(
      `size can only grow: the volume has ${v.size} GB, the request asks for ${patch.size} GB.`,
    );
  }
  if (patch.name !== undefined) v.name = patch.name;
  if (patch.size !== undefined) v.size = patch.size;
  meter(ctx.state, v);
  return json(200, view(v));
}

function deleteVolume(ctx: RouteContext) {
  const v = find(ctx);
  const pod = [...ctx.state.pods.keys()]
    .map((id) => findPod(ctx.state, id, ctx.account))
    .find((p) => p && p.status !== "TERMINATED" && p.mounts.network?.some((m) => m.volumeId === v.id));
  if (pod) throw conflict(`Network volume '${v.id}' is mounted by pod '${pod.id}'; terminate the pod first.`);
  const endpoint = [...ctx.state.endpoints.values()].find(
    (e) => e.account === ctx.account && e.networkVolumes.includes(v.id),
  );
  if (endpoint)
    throw conflict(
      `Network volume '${v.id}' is attached to endpoint '${endpoint.id}'; detach or delete it first.`,
    );
  meter(ctx.state, v, true);
  ctx.state.networkVolumes.delete(v.id);
  return noContent;
}

export const networkVolumeRoutes: RouteTable = {
  v2: [
    { method: "POST", pattern: "/v2/network-volumes", handler: createVolume },
    {
      method: "GET",
      pattern: "/v2/network-volumes",
      handler: (ctx) =>
        json(200, {
          networkVolumes: [...ctx.state.networkVolumes.values()]
            .filter((v) => v.account === ctx.account)
            .map(view),
        }),
    },
    { method: "GET", pattern: "/v2/network-volumes/:id", handler: (ctx) => json(200, view(find(ctx))) },
    { method: "PATCH", pattern: "/v2/network-volumes/:id", handler: updateVolume },
    { method: "DELETE", pattern: "/v2/network-volumes/:id", handler: deleteVolume },
  ],
};
