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
import { optionInputs } from "./common.js";
import type { NetworkVolumeArgs } from "./network-volume/types.js";

export { NETWORK_VOLUME_TYPE } from "../both/type-tokens.js";

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
