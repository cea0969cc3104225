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
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs } from "./common.js";
import type { NetworkVolumeArgs } from "./network-volume/types.js";

export { NETWORK_VOLUME_TYPE } from "./type-tokens.js";

/** One thin provider for every NetworkVolume: Pulumi serializes it once per program. */
const NETWORK_VOLUME_PROVIDER = thinProvider("NetworkVolume");

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
  /** The volume id; also the resource id. Give it to a Pod's `mounts.network[0].volumeId`. */
  declare readonly volumeId: pulumi.Output<string>;
  /** Volume name. */
  declare readonly name: pulumi.Output<string>;
  /** Size in GB. */
  declare readonly size: pulumi.Output<number>;
  /** The data center the volume is in. */
  declare readonly dataCenterId: pulumi.Output<string>;
  /** Storage tier: `STANDARD` or `HIGH_PERFORMANCE`. */
  declare readonly type: pulumi.Output<string>;

  /**
   * An existing network volume, read by its id and never changed by this program: `pulumi up`
   * reads it (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it
   * without deleting it (nor its data). Pods mount it by `volume.id` as they mount a managed one.
   * To take a volume over and manage it (rename it, grow it), give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The volume's id, as the RunPod console and `GET /v2/network-volumes` show it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const datasets = NetworkVolume.get("datasets", "k2q4xnyy7l");
   * new Pod("trainer", {
   *   name: "trainer",
   *   image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
   *   gpu: { id: "NVIDIA A40" },
   *   mounts: { network: [{ volumeId: datasets.id, path: "/data" }] },
   * });
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): NetworkVolume {
    return readById(NetworkVolume, name, id, opts);
  }

  constructor(name: string, args: NetworkVolumeArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      NETWORK_VOLUME_PROVIDER,
      name,
      { ...unsetOutputs(NETWORK_VOLUME_OUTPUTS), ...args, ...optionInputs(opts) },
      opts,
      "runpod",
      "NetworkVolume",
    );
  }
}

/** Every output of a NetworkVolume (common.ts `OutputNames`). */
const NETWORK_VOLUME_OUTPUTS: OutputNames<NetworkVolume> = {
  volumeId: true,
  name: true,
  size: true,
  dataCenterId: true,
  type: true,
};
