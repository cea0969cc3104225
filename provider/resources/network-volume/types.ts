/** The types of `NetworkVolume`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { Resolved } from "../same-type.js";

/**
 * Checked inputs of a NetworkVolume: `NetworkVolumeArgs` resolved to plain values, as `check`
 * accepts them and the provider sees them.
 */
export type NetworkVolumeInputs = Resolved<NetworkVolumeArgs>;

/** How the program describes a network volume. Every field may be a Pulumi Input. */
export interface NetworkVolumeArgs {
  /**
   * Human-readable name (not unique).
   * @onChange update
   */
  name: pulumi.Input<string>;
  /**
   * Size in GB, 10-4096. Can only grow: a smaller size fails at check (unless the volume is
   * replaced anyway).
   * @onChange update
   */
  size: pulumi.Input<number>;
  /**
   * Data center, sent as the API's `dataCenter`. Pods mounting the volume are placed here.
   * @onChange replace: the data does not move.
   */
  dataCenterId: pulumi.Input<string>;
  /**
   * Storage tier.
   * @defaultValue the data center's primary tier
   * @onChange replace
   */
  type?: pulumi.Input<"STANDARD" | "HIGH_PERFORMANCE">;
  /**
   * Adopt this existing volume instead of creating one (`pulumi import` does not work for dynamic
   * providers).
   * @defaultValue none: create a volume
   * @onChange none
   */
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
