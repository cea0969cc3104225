/** The types of `ServerlessJob`: the inputs `check` accepts, the arguments a program writes, the outputs state keeps. */

import type * as pulumi from "@pulumi/pulumi";
import type { Resolved } from "../same-type.js";

/**
 * Checked inputs of a ServerlessJob: `ServerlessJobArgs` resolved to plain values, as `check`
 * accepts them and the provider sees them.
 */
export type ServerlessJobInputs = Resolved<ServerlessJobArgs>;

/** How the program describes a deploy-time job. Every field may be a Pulumi Input. */
export interface ServerlessJobArgs {
  /**
   * A serverless endpoint's id, or a hosted model endpoint such as `black-forest-labs-flux-1-schnell`.
   * @onChange replace: the job runs again.
   */
  endpointId: pulumi.Input<string>;
  /**
   * The job's `input` object.
   * @onChange replace: the job runs again.
   */
  input: pulumi.Input<Record<string, unknown>>;
  /**
   * `sync` uses /runsync (then /status if it is still running); `async` uses /run and polls /status.
   * @defaultValue `"sync"`
   * @onChange none
   */
  mode?: pulumi.Input<"sync" | "async">;
  /**
   * Seconds to wait for the job (1-86400).
   * @defaultValue `600`
   * @onChange none
   */
  timeout?: pulumi.Input<number>;
}

export interface ServerlessJobOutputs {
  endpointId: string;
  input: Record<string, unknown>;
  jobId: string;
  status: string;
  /** The job's output. Media URLs in it expire after 7 days. */
  output: unknown;
  delayTime: number | null;
  executionTime: number | null;
  workerId: string | null;
}
