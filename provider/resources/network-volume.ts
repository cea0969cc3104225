/**
 * `NetworkVolume` (type `pulumi-nodejs:dynamic/runpod:NetworkVolume`): network-attached storage in
 * one data center, managed through `{base_url}/v2/network-volumes`.
 *
 * The v2 description fixes the rules: 10-4096 GB, the size can only grow, the data center and the
 * storage type are fixed at create. So a larger size or a new name is an update in place, a new
 * data center or type is a replacement, and a smaller size is a check failure.
 *
 * Global volumes (a Pod's `mounts.global`) have no management API in the public v2 description:
 * create them in the RunPod console and reference them by id only.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { CheckFailure } from "../both/check-failure.js";
import { isUnknown } from "../both/unknown.js";
import { schemaFailures } from "../both/validation.js";
import { ERROR_CODES, isRunpodApiError } from "../client/errors.js";
import {
  type NetworkVolume as ApiVolume,
  type CreateNetworkVolumeRequest,
  type UpdateNetworkVolumeRequest,
  VolumeType,
} from "../client/schemas/network-volumes.js";
import { api, configureRuntime } from "../host/context.js";
import { createOnce } from "../host/create-once.js";
import { progress } from "../host/progress.js";
import { thinProvider } from "../program/thin.js";
import {
  byName,
  checkResult,
  differs,
  diffResult,
  isKnown,
  named,
  optionInputs,
  unlessGone,
  withoutInternal,
} from "./common.js";
import { NetworkVolumeArgsSchema } from "./network-volume-schema.js";
import { deleteWhenReleased } from "./release-wait.js";

export const NETWORK_VOLUME_TYPE = "pulumi-nodejs:dynamic/runpod:NetworkVolume";

/**
 * Checked inputs of a NetworkVolume: `NetworkVolumeArgs` resolved to plain values, as `check`
 * accepts them and the provider sees them.
 */
export interface NetworkVolumeInputs {
  name: string;
  /** GB, 10-4096; can only grow. */
  size: number;
  dataCenterId: string;
  type?: "STANDARD" | "HIGH_PERFORMANCE" | undefined;
  adoptId?: string | undefined;
}

/** How the program describes a network volume. Every field may be a Pulumi Input. */
export interface NetworkVolumeArgs {
  /** Human-readable name (not unique). Changes in place. */
  name: pulumi.Input<string>;
  /** Size in GB, 10-4096. Can only grow: a larger size changes in place, a smaller one fails at check. */
  size: pulumi.Input<number>;
  /** Data center, sent as the API's `dataCenter`. Pods mounting the volume are placed here. Changing it replaces the volume (the data does not move). */
  dataCenterId: pulumi.Input<string>;
  /** Storage tier. Changing it replaces the volume. @default the data center's primary tier */
  type?: pulumi.Input<"STANDARD" | "HIGH_PERFORMANCE">;
  /** Adopt this existing volume instead of creating one (`pulumi import` does not work for dynamic providers). */
  adoptId?: pulumi.Input<string>;
}

export interface NetworkVolumeOutputs {
  /** The volume id; also the resource id. Give it to a Pod's `mounts.network[0].volumeId`. */
  volumeId: string;
  name: string;
  size: number;
  dataCenterId: string;
  type: string;
}

/**
 * A RunPod network volume. Pods mount it with `mounts.network: [{ volumeId: volume.id, path }]`;
 * passing `volume.id` (an Output) both places the pod in the volume's data center and makes the
 * pod depend on the volume, so `pulumi destroy` deletes the pod first: the API refuses to delete a
 * volume a pod still mounts (409).
 *
 * Global volumes (`mounts.global`) cannot be managed here: the public v2 API has no endpoint for
 * them, so a pod references an existing global volume by id only.
 *
 * @example
 * const data = new NetworkVolume("datasets", { name: "datasets", size: 100, dataCenterId: "EU-RO-1" });
 * new Pod("trainer", {
 *   name: "trainer",
 *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
 *   gpu: { id: "NVIDIA A40" },
 *   mounts: { network: [{ volumeId: data.id, path: "/data" }] },
 * });
 */
export class NetworkVolume extends pulumi.dynamic.Resource {
  declare readonly volumeId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly size: pulumi.Output<number>;
  declare readonly dataCenterId: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;

  constructor(name: string, args: NetworkVolumeArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("NetworkVolume"),
      name,
      { volumeId: undefined, type: undefined, ...args, ...optionInputs(opts) },
      opts,
      "runpod",
      "NetworkVolume",
    );
  }
}

// ---------------------------------------------------------------- check

/** Whether these inputs replace the volume anyway, so a smaller size is simply a new, smaller volume. */
function relocates(news: Record<string, unknown>, olds: Record<string, unknown>): boolean {
  const moved = (k: string) =>
    isUnknown(news[k]) || (isKnown(news[k]) && isKnown(olds[k]) && news[k] !== olds[k]);
  return moved("dataCenterId") || moved("type");
}

/**
 * Every check failure: the strict schema, then "size can only grow". `olds` are the previous inputs
 * (after a refresh, what read found), `{}` on create.
 */
export function checkNetworkVolume(
  news: Record<string, unknown>,
  olds: Record<string, unknown> = {},
): CheckFailure[] {
  const inputs = withoutInternal(news);
  const failures = schemaFailures(NetworkVolumeArgsSchema, inputs);
  const next = inputs.size;
  const prev = olds.size;
  if (
    typeof next === "number" &&
    typeof prev === "number" &&
    next < prev &&
    !relocates(inputs, withoutInternal(olds))
  ) {
    failures.push({
      property: "size",
      reason: `can only grow: the volume has ${prev} GB and network volume storage cannot be reduced (the API answers 400). Keep size at ${prev} or more, or create a new NetworkVolume and copy the data`,
    });
  }
  return failures;
}

// ---------------------------------------------------------------- diff

export interface NetworkVolumeDiff {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly updates: string[];
}

/**
 * The replace/update table (pure): a new data center or type replaces (both immutable after
 * create); a new name or size updates in place. A left-out `type` is no opinion; an unknown value
 * (preview) counts as a change.
 */
export function diffNetworkVolume(
  olds: Partial<NetworkVolumeOutputs>,
  news: NetworkVolumeInputs,
): NetworkVolumeDiff {
  const replaces: string[] = [];
  const updates: string[] = [];
  if (differs(news.dataCenterId, olds.dataCenterId)) replaces.push("dataCenterId");
  if (news.type !== undefined && differs(news.type, olds.type)) replaces.push("type");
  if (differs(news.name, olds.name)) updates.push("name");
  if (differs(news.size, olds.size)) updates.push("size");
  return { changes: replaces.length + updates.length > 0, replaces, updates };
}

// ---------------------------------------------------------------- API bodies and outputs

/** The create body: `dataCenterId` is the API's `dataCenter`; nothing else of ours is sent. */
function createVolumeBody(inputs: NetworkVolumeInputs): CreateNetworkVolumeRequest {
  return {
    name: inputs.name,
    size: inputs.size,
    dataCenter: inputs.dataCenterId,
    ...(inputs.type !== undefined ? { type: inputs.type } : {}),
  };
}

function volumeOutputs(v: ApiVolume): NetworkVolumeOutputs {
  return { volumeId: v.id, name: v.name, size: v.size, dataCenterId: v.dataCenter, type: v.type };
}

function inputsFromOutputs(
  o: NetworkVolumeOutputs,
  prior: Partial<NetworkVolumeInputs>,
): NetworkVolumeInputs {
  const type = VolumeType.safeParse(o.type);
  return {
    name: o.name,
    size: o.size,
    dataCenterId: o.dataCenterId,
    ...(type.success ? { type: type.data } : {}),
    ...(prior.adoptId ? { adoptId: prior.adoptId } : {}),
  };
}

function shrinkError(what: string, id: string, from: number, to: number): Error {
  return new Error(
    `${what}: volume ${id} has ${from} GB; network volume storage cannot be reduced to ${to} GB. Keep size at ${from} or more, or create a new NetworkVolume and copy the data.`,
  );
}

// ---------------------------------------------------------------- the provider

const label = byName("NetworkVolume");

/** Volumes this process created or found: an unanswered create never takes one of them twice. */
const claimed = new Set<string>();

export class NetworkVolumeProvider
  implements pulumi.dynamic.ResourceProvider<NetworkVolumeInputs, NetworkVolumeOutputs>
{
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    configureRuntime(req);
  }

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

  async create(inputs: NetworkVolumeInputs): Promise<pulumi.dynamic.CreateResult<NetworkVolumeOutputs>> {
    if (inputs.adoptId) return this.adopt(inputs.adoptId, inputs);
    const body = createVolumeBody(inputs);
    // Never doubled: an unanswered create is resolved by looking for the volume it may have made
    // (same name, data center and size; provider/host/create-once.ts). A volume bills while it exists.
    const v = await createOnce({
      what: `a network volume named ${body.name} in ${body.dataCenter}`,
      create: () => api().createNetworkVolume(body),
      list: () => api().listNetworkVolumes(),
      matches: (x) =>
        x.name === body.name &&
        x.dataCenter === body.dataCenter &&
        x.size === body.size &&
        (body.type === undefined || x.type === body.type),
      claimed,
    });
    progress(label(inputs), `created ${v.id} in ${v.dataCenter} (${v.size} GB ${v.type})`);
    return { id: v.id, outs: volumeOutputs(v) };
  }

  /** `adoptId`: take over an existing volume, then apply a new name or a larger size in place. */
  private async adopt(
    id: string,
    inputs: NetworkVolumeInputs,
  ): Promise<pulumi.dynamic.CreateResult<NetworkVolumeOutputs>> {
    const v = await unlessGone(api().getNetworkVolume(id));
    if (!v) {
      throw new Error(
        `${label(inputs)}: adoptId ${id}: no such network volume (or this API key cannot see it).`,
      );
    }
    const current = volumeOutputs(v);
    const d = diffNetworkVolume(current, inputs);
    if (d.replaces.length > 0) {
      throw new Error(
        `${label(inputs)}: adoptId ${id} cannot be adopted: it is a ${current.type} volume in ${current.dataCenterId}, the inputs ask for ${inputs.type ?? current.type} in ${inputs.dataCenterId}; neither can change after create.`,
      );
    }
    if (inputs.size < current.size) throw shrinkError(label(inputs), id, current.size, inputs.size);
    const body = patchBody(d.updates, inputs);
    const updated = Object.keys(body).length > 0 ? await api().updateNetworkVolume(id, body) : v;
    claimed.add(id);
    progress(label(inputs), `adopted existing network volume ${id}`);
    return { id, outs: volumeOutputs(updated) };
  }

  async read(
    id: string,
    props?: NetworkVolumeOutputs,
  ): Promise<pulumi.dynamic.ReadResult<NetworkVolumeOutputs>> {
    const v = await unlessGone(api().getNetworkVolume(id));
    if (!v) return {};
    const outs = volumeOutputs(v);
    const prior = (props ?? {}) as Partial<NetworkVolumeInputs>;
    // ReadResult types `inputs` as outputs; they are inputs.
    return { id, props: outs, inputs: inputsFromOutputs(outs, prior) as unknown as NetworkVolumeOutputs };
  }

  async update(
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
        ? await api().updateNetworkVolume(id, body)
        : await api().getNetworkVolume(id);
    return { outs: volumeOutputs(v) };
  }

  /**
   * DELETE; 404 is success. A 409 means a pod (or a serverless endpoint) still uses the volume:
   * retried while a pod deleted in the same destroy lets go of it, then a clear error. Never
   * swallowed: a volume left behind bills for its storage.
   */
  async delete(id: string, props: NetworkVolumeOutputs): Promise<void> {
    const what = label(props, id);
    const gone = await deleteWhenReleased({
      what,
      noun: "network volume",
      id,
      remove: () => api().deleteNetworkVolume(id),
      inUse: (err) => isRunpodApiError(err, ERROR_CODES.CONFLICT),
      advice:
        "Terminate the pod that mounts it, or point that pod (or endpoint) at another volume, then run destroy again. " +
        "In a Pulumi program, give the pod the volume's id as an Output (mounts.network: [{ volumeId: volume.id, path }]) " +
        "or add dependsOn: [volume], so that destroy deletes the pod before the volume.",
    });
    if (gone) progress(what, `deleted ${id}`);
  }
}

function patchBody(
  updates: readonly string[],
  news: NetworkVolumeInputs,
): z.input<typeof UpdateNetworkVolumeRequest> {
  return {
    ...(updates.includes("name") ? { name: news.name } : {}),
    ...(updates.includes("size") ? { size: news.size } : {}),
  };
}

export const networkVolumeProvider = named(new NetworkVolumeProvider(), label);
