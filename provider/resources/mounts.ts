/** The mount entries pods, templates and clusters share, as a program writes them. */
import type * as pulumi from "@pulumi/pulumi";

/** Host-local persistent storage: survives restarts, pinned to one machine. */
export interface PersistentMountArgs {
  /** Size in GB, at least 10. */
  size: pulumi.Input<number>;
  /** Where it is mounted in the container, e.g. `/workspace`. */
  path: pulumi.Input<string>;
}

/** A network volume mount. */
export interface NetworkMountArgs {
  /** A `NetworkVolume`'s id (`volume.id`): passing the Output also orders destroy. */
  volumeId: pulumi.Input<string>;
  /** Where it is mounted in the container, e.g. `/data`. */
  path: pulumi.Input<string>;
}

/** A global volume mount: an existing volume, referenced by id. */
export interface GlobalMountArgs {
  /** The global volume's id. */
  volumeId: pulumi.Input<string>;
  /**
   * Where it is mounted in the container.
   * @defaultValue the service's choice (`/global` in the emulator)
   */
  path?: pulumi.Input<string>;
}
