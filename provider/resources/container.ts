/**
 * The container config a pod and a template share (contract: Container config), declared once:
 * as a program writes it (the checked inputs are this resolved, same-type.ts `Resolved`), and as
 * the outputs keep it.
 */
import type * as pulumi from "@pulumi/pulumi";

/**
 * Container fields as a program writes them; every field may be a Pulumi Input. The command is
 * `args`, or `cmd`/`entrypoint` encoded into it (all three only when they describe the same
 * command). Every change updates in place.
 */
export interface ContainerArgs {
  /**
   * The container command as one raw string: a shell string, or a JSON `{entrypoint, cmd}` string.
   * @defaultValue none: the image's (or the template's) command
   * @onChange update
   */
  args?: pulumi.Input<string>;
  /**
   * CMD in exec form, encoded into `args`; `[]` clears it.
   * @defaultValue none: the image's (or the template's)
   * @onChange update
   */
  cmd?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * ENTRYPOINT in exec form, overriding the image's, encoded into `args`; `[]` clears it.
   * @defaultValue none: the image's (or the template's)
   * @onChange update
   */
  entrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Container disk in GB, at least 1: ephemeral, wiped on restart.
   * @defaultValue none: the API's default (the template's, when created from one)
   * @onChange update
   */
  disk?: pulumi.Input<number>;
  /**
   * Environment variables. Always stored as secrets in state. A `Secret`'s `reference` as a value
   * keeps the value itself out of state.
   * @defaultValue `{}`
   * @onChange update
   */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Exposed ports, `<port>/<protocol>`, e.g. `8888/http`, `22/tcp`.
   * @defaultValue none: the API's (the template's, when created from one)
   * @onChange update
   */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * A `Registry`'s id, for private images; `null` removes it.
   * @defaultValue none: public images only
   * @onChange update
   */
  registry?: pulumi.Input<string | null>;
}

/** Container fields as the outputs keep them: every field set, the command both raw and split. */
export interface ContainerOutputs {
  image: string;
  args: string;
  cmd: string[];
  entrypoint: string[];
  disk: number;
  env: Record<string, string>;
  ports: string[];
  registry: string | null;
}
