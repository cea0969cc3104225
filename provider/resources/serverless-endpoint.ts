/**
 * `ServerlessEndpoint` (type `pulumi-nodejs:dynamic/runpod:ServerlessEndpoint`): a serverless
 * endpoint managed through `{base_url}/v2/serverless`. Inputs carry the v2 description's names
 * (CreateEndpointRequest): the routing `type` and the compute family (GPU pools or CPU
 * configurations) are fixed at create and replace; everything else updates in place.
 *
 * REST v1 (`/v1/endpoints`) was retired on 2026-11-15. Stacks whose endpoints were created through
 * it keep working: their state carries the v1 names (`computeType`, `workersMin`, `scalerType`, ...),
 * which `currentView` reads as the v2 fields they were, until the next refresh or update writes
 * v2 outputs (docs/api-differences.md).
 *
 * Deleting an endpoint permanently removes its configuration, logs and job history: protect
 * production endpoints with `{ protect: true }`.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EndpointType } from "../client/vocabulary.js";
import { secretEnv } from "../program/secret-inputs.js";
import { thinProvider } from "../program/thin.js";
import { optionInputs, withSecretOutputs } from "./common.js";
import type { ServerlessEndpointArgs, ServerlessEndpointOutputs } from "./serverless-endpoint/types.js";

export { SERVERLESS_ENDPOINT_TYPE } from "../both/type-tokens.js";

/** Outputs a program may read without having set them: declared so the resource carries them. */
const OUTPUT_ONLY = [
  "endpointId",
  "type",
  "gpu",
  "cpu",
  "workers",
  "scaling",
  "flashboot",
  "networkVolumes",
  "dataCenterIds",
  "timeout",
  "createdAt",
  "requestUrls",
  "jobUrl",
] as const;

/**
 * A serverless endpoint.
 * @example
 * const endpoint = new ServerlessEndpoint("sdxl", {
 *   name: "sdxl",
 *   templateId: sdxlTemplate.id,
 *   gpu: { pools: ["ADA_24", "ADA_48_PRO"] },
 *   workers: { max: 2 },
 * }, { protect: true });
 * export const runUrl = endpoint.requestUrls.apply((u) => u.run);
 */
export class ServerlessEndpoint extends pulumi.dynamic.Resource {
  /** The endpoint id; also the resource id. Give it to a `ServerlessJob`'s `endpointId`. */
  declare readonly endpointId: pulumi.Output<string>;
  /** Endpoint name. */
  declare readonly name: pulumi.Output<string>;
  /** `QUEUE` or `LOAD_BALANCER`. */
  declare readonly type: pulumi.Output<EndpointType>;
  /** GPU pools, exclusions, count and CUDA constraints as the API reports them; `null` on a CPU endpoint. */
  declare readonly gpu: pulumi.Output<ServerlessEndpointOutputs["gpu"]>;
  /** CPU configurations as the API reports them; `null` on a GPU endpoint. */
  declare readonly cpu: pulumi.Output<ServerlessEndpointOutputs["cpu"]>;
  /** Worker counts and idle timeout as the API reports them. */
  declare readonly workers: pulumi.Output<ServerlessEndpointOutputs["workers"]>;
  /** The scaler as the API reports it. */
  declare readonly scaling: pulumi.Output<ServerlessEndpointOutputs["scaling"]>;
  /** The environment variables the program declared (secret). */
  declare readonly env: pulumi.Output<Record<string, string>>;
  /** When the endpoint was created (ISO 8601); `null` when the API does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The addresses the API gives for this endpoint's type: `run`, `runSync`, `status`, `stream`, `cancel`, `retry`, `purgeQueue`, `health` for a queue; `base` and `health` for a load balancer. */
  declare readonly requestUrls: pulumi.Output<Record<string, string>>;
  /** Queue endpoints: `{serverless_url}/v2/{endpoint_id}/`; load balancers: their base address. */
  declare readonly jobUrl: pulumi.Output<string>;

  constructor(name: string, args: ServerlessEndpointArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      thinProvider("ServerlessEndpoint"),
      name,
      {
        ...Object.fromEntries(OUTPUT_ONLY.map((k) => [k, undefined])),
        ...args,
        ...secretEnv(args.env),
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, "env"),
      "runpod",
      "ServerlessEndpoint",
    );
  }
}
