/** The NetworkVolume provider: check, diff, create, read, update and delete, as the provider host runs them. */
import type * as pulumi from "@pulumi/pulumi";
import { createOnce } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError } from "../../client/errors.js";
import { bindToHost } from "../../host/bind.js";
import type { HostContext } from "../../host/context.js";
import { deleteWhenReleased } from "../../host/release-wait.js";
import { byName, checkResult, diffResult, missingObject, readResult, unlessGone } from "../common.js";
import { adopt } from "../create-outcomes.js";
import { createVolumeBody, inputsFromOutputs, patchBody, shrinkError, volumeOutputs } from "./body.js";
import { checkNetworkVolume } from "./check.js";
import { diffNetworkVolume } from "./diff.js";
import { NETWORK_VOLUME } from "./fields.js";
import type { NetworkVolumeInputs, NetworkVolumeOutputs } from "./types.js";

const label = byName("NetworkVolume");

/** @internal The provider host's side of NetworkVolume; programs reach it only through the thin provider. */
export class NetworkVolumeProvider {
  async check(
    olds: NetworkVolumeInputs,
    news: NetworkVolumeInputs,
  ): Promise<pulumi.dynamic.CheckResult<NetworkVolumeInputs>> {
    const failures = checkNetworkVolume(
      news as unknown as Record<string, unknown>,
      (olds ?? {}) as unknown as Record<string, unknown>,
    );
    return checkResult(news, failures);
  }

  async diff(
    _id: string,
    olds: NetworkVolumeOutputs,
    news: NetworkVolumeInputs,
  ): Promise<pulumi.dynamic.DiffResult> {
    return diffResult(diffNetworkVolume(olds, news), news);
  }

  async create(
    ctx: HostContext,
    inputs: NetworkVolumeInputs,
  ): Promise<pulumi.dynamic.CreateResult<NetworkVolumeOutputs>> {
    if (inputs.adoptId) return this.adopt(ctx, inputs.adoptId, inputs);
    const body = createVolumeBody(inputs);
    // Never doubled: an unanswered create is resolved by looking for the volume it may have made
    // (same name, data center and size, and not on the account before; provider/client/create-once.ts).
    // A volume bills while it exists.
    const v = await createOnce({
      what: `a network volume named ${body.name} in ${body.dataCenter}`,
      create: () => ctx.api.networkVolumes.create(body),
      list: () => ctx.api.networkVolumes.list(),
      matches: (x) =>
        x.name === body.name &&
        x.dataCenter === body.dataCenter &&
        x.size === body.size &&
        (body.type === undefined || x.type === body.type),
      claimed: ctx.claims.volumes,
      clock: ctx.clock,
    });
    ctx.progress(label(inputs), `created ${v.id} in ${v.dataCenter} (${v.size} GB ${v.type})`);
    return { id: v.id, outs: volumeOutputs(v) };
  }

  /** `adoptId`: take over an existing volume, then apply a new name or a larger size in place. */
  private adopt(ctx: HostContext, id: string, inputs: NetworkVolumeInputs) {
    return adopt(ctx, {
      what: label(inputs),
      noun: "network volume",
      id,
      read: () => ctx.api.networkVolumes.get(id),
      plan: (v) => {
        const current = volumeOutputs(v);
        const d = diffNetworkVolume(current, inputs);
        if (d.replaces.length > 0) {
          return {
            refused: `it is a ${current.type} volume in ${current.dataCenterId}, the inputs ask for ${inputs.type ?? current.type} in ${inputs.dataCenterId}; neither can change after create`,
          };
        }
        if (inputs.size < current.size) throw shrinkError(label(inputs), id, current.size, inputs.size);
        const body = patchBody(d.updates, inputs);
        return Object.keys(body).length > 0 ? { write: () => ctx.api.networkVolumes.update(id, body) } : {};
      },
      claims: ctx.claims.volumes,
      outputs: volumeOutputs,
    });
  }

  async read(
    ctx: HostContext,
    id: string,
    props?: NetworkVolumeOutputs,
  ): Promise<pulumi.dynamic.ReadResult<NetworkVolumeOutputs>> {
    const v = await unlessGone(ctx.api.networkVolumes.get(id));
    if (!v) return missingObject("network volume", id, props);
    const outs = volumeOutputs(v);
    return readResult(id, outs, inputsFromOutputs(outs, (props ?? {}) as Partial<NetworkVolumeInputs>));
  }

  async update(
    ctx: HostContext,
    id: string,
    olds: NetworkVolumeOutputs,
    news: NetworkVolumeInputs,
  ): Promise<pulumi.dynamic.UpdateResult<NetworkVolumeOutputs>> {
    const d = diffNetworkVolume(olds, news);
    // check refuses a smaller size; this is the backstop when check could not know the old size.
    if (d.updates.includes("size") && news.size < olds.size)
      throw shrinkError(label(news), id, olds.size, news.size);
    const body = patchBody(d.updates, news);
    // An empty PATCH is a 400: with nothing to change (only adoptId moved), read instead.
    const v =
      Object.keys(body).length > 0
        ? await ctx.api.networkVolumes.update(id, body).finally(() => ctx.reads.forgetVolume(id))
        : await ctx.api.networkVolumes.get(id);
    return { outs: volumeOutputs(v) };
  }

  /**
   * DELETE; 404 is success. A 409 means a pod (or a serverless endpoint) still uses the volume:
   * retried while a pod deleted in the same destroy lets go of it, then a clear error. Never
   * swallowed: a volume left behind bills for its storage.
   */
  async delete(ctx: HostContext, id: string, props: NetworkVolumeOutputs): Promise<void> {
    const what = label(props, id);
    const gone = await deleteWhenReleased(ctx, {
      what,
      noun: "network volume",
      id,
      // A pod that reads this volume next must not be told it is still there (`SharedReads` in host/context.ts).
      remove: () => ctx.api.networkVolumes.delete(id).finally(() => ctx.reads.forgetVolume(id)),
      inUse: (err) => isRunpodApiError(err, ERROR_CODES.CONFLICT),
      advice:
        "Terminate the pod that mounts it, or point that pod (or endpoint) at another volume, then run destroy again. " +
        "In a Pulumi program, give the pod the volume's id as an Output (mounts.network: [{ volumeId: volume.id, path }]) " +
        "or add dependsOn: [volume], so that destroy deletes the pod before the volume.",
    });
    if (gone) ctx.progress(what, `deleted ${id}`);
  }
}

/** @internal */
export const networkVolumeProvider = bindToHost(NETWORK_VOLUME, new NetworkVolumeProvider(), label);
