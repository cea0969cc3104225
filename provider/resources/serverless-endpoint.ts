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
import type { EndpointType, FlashbootMode } from "../client/vocabulary.js";
import { secretEnv } from "../program/secret-inputs.js";
import { thinProvider } from "../program/thin.js";
import { type OutputNames, optionInputs, readById, unsetOutputs, withSecretOutputs } from "./common.js";
import { SECRET_FIELDS } from "./secret-fields.js";
import type { ServerlessEndpointArgs, ServerlessEndpointOutputs } from "./serverless-endpoint/types.js";

/** One thin provider for every ServerlessEndpoint: Pulumi serializes it once per program. */
const SERVERLESS_ENDPOINT_PROVIDER = thinProvider("ServerlessEndpoint");

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
  /** Faster cold starts: `OFF`, `FLASHBOOT` or `PRIORITY_FLASHBOOT`. */
  declare readonly flashboot: pulumi.Output<FlashbootMode>;
  /** `NetworkVolume` ids mounted on the workers. */
  declare readonly networkVolumes: pulumi.Output<string[]>;
  /** Data centers the workers may run in; empty means any. */
  declare readonly dataCenterIds: pulumi.Output<string[]>;
  /** Longest a single request may run, in ms. */
  declare readonly timeout: pulumi.Output<number>;
  /** The environment variables the program declared (secret). */
  declare readonly env: pulumi.Output<Record<string, string>>;
  /** When the endpoint was created (ISO 8601); `null` when the API does not say. */
  declare readonly createdAt: pulumi.Output<string | null>;
  /** The addresses the API gives for this endpoint's type: `run`, `runSync`, `status`, `stream`, `cancel`, `retry`, `purgeQueue`, `health` for a queue; `base` and `health` for a load balancer. */
  declare readonly requestUrls: pulumi.Output<Record<string, string>>;
  /** Queue endpoints: `{serverless_url}/v2/{endpoint_id}/`; load balancers: their base address. */
  declare readonly jobUrl: pulumi.Output<string>;

  /**
   * An existing endpoint, read by its id and never changed by this program: `pulumi up` reads it
   * (a `read` step), `pulumi refresh` reads it again, and `pulumi destroy` forgets it without
   * deleting it (its logs and job history stay). `env` holds every variable the endpoint has
   * (secret in state). Jobs run on it through `endpoint.id` as on a managed one. To take an
   * endpoint over and manage it, give `adoptId` instead.
   *
   * @param name The resource's name in the stack.
   * @param id The endpoint's id, as the RunPod console and `GET /v2/serverless` show it.
   * @param opts Resource options; the `id` option is set from `id`.
   * @example
   * const sdxl = ServerlessEndpoint.get("sdxl", "89zegalif9p80d");
   * export const runUrl = sdxl.requestUrls.apply((u) => u.run);
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): ServerlessEndpoint {
    return readById(ServerlessEndpoint, name, id, opts);
  }

  constructor(name: string, args: ServerlessEndpointArgs, opts: pulumi.CustomResourceOptions = {}) {
    super(
      SERVERLESS_ENDPOINT_PROVIDER,
      name,
      {
        ...unsetOutputs(SERVERLESS_ENDPOINT_OUTPUTS),
        ...args,
        ...secretEnv(args.env),
        ...optionInputs(opts),
      },
      withSecretOutputs(opts, ...SECRET_FIELDS.ServerlessEndpoint.outputs),
      "runpod",
      "ServerlessEndpoint",
    );
  }
}

/** Every output of a ServerlessEndpoint (common.ts `OutputNames`). */
const SERVERLESS_ENDPOINT_OUTPUTS: OutputNames<ServerlessEndpoint> = {
  endpointId: true,
  name: true,
  type: true,
  gpu: true,
  cpu: true,
  workers: true,
  scaling: true,
  flashboot: true,
  networkVolumes: true,
  dataCenterIds: true,
  timeout: true,
  env: true,
  createdAt: true,
  requestUrls: true,
  jobUrl: true,
};
