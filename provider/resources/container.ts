/**
 * The container config a pod and a template share (contract: Container config), declared once:
 * as the provider sees it after check, as a program writes it, and as the outputs keep it.
 */
import type * as pulumi from "@pulumi/pulumi";

/** Checked container fields: plain values, as `check` accepts them and the provider sees them. */
export interface ContainerInputs {
  args?: string | undefined;
  cmd?: string[] | undefined;
  entrypoint?: string[] | undefined;
  disk?: number | undefined;
  env?: Record<string, string> | undefined;
  ports?: string[] | undefined;
  registry?: string | null | undefined;
}

/** Container fields as a program writes them. Every field may be a Pulumi Input. */
export interface ContainerArgs {
  /** The container command as one raw string (a shell string or a JSON `{entrypoint, cmd}` string). */
  args?: pulumi.Input<string>;
  /** CMD in exec form, encoded into `args`. */
  cmd?: pulumi.Input<pulumi.Input<string>[]>;
  /** ENTRYPOINT in exec form, encoded into `args`. */
  entrypoint?: pulumi.Input<pulumi.Input<string>[]>;
  /** Container disk in GB (ephemeral). */
  disk?: pulumi.Input<number>;
  /** Environment variables. Always stored as secrets in state. */
  env?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** `<port>/<protocol>`, e.g. `8888/http`, `22/tcp`. */
  ports?: pulumi.Input<pulumi.Input<string>[]>;
  /** Container registry credential id, for private images. */
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
