/**
 * Serverless endpoints (`{base_url}/v2/serverless`, v2 description: CreateEndpointRequest,
 * UpdateEndpointRequest, Endpoint). REST v1 (`/v1/endpoints`) was retired on 2026-11-15; the v2
 * routes replace it. The v2 body has the container settings of a pod or template (an endpoint can
 * be created from an image, without a template), GPU pools instead of GPU type lists, and separate
 * create and update GPU bodies.
 */
import { z } from "zod";
import {
  ENDPOINT_BODY,
  EndpointGpu,
  EndpointScaling,
  EndpointType,
} from "../../resources/serverless-endpoint/fields.js";
import { ENDPOINT_TYPES, FLASHBOOT_MODES, SCALER_TYPES } from "../vocabulary.js";
import { CudaVersion, EnvMap } from "./common.js";

export { ENDPOINT_TYPES, FLASHBOOT_MODES, SCALER_TYPES };

/**
 * The create body: a ServerlessEndpoint's declared fields
 * (provider/resources/serverless-endpoint/fields.ts), with what the API requires of every create
 * (a type and a scaler) and its own limits where the provider's are tighter.
 */
export const CreateEndpointRequest = z.strictObject({
  ...ENDPOINT_BODY,
  name: z.string().min(1),
  timeout: z.int().min(1).optional(),
  type: EndpointType,
  scaling: EndpointScaling,
});
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequest>;

/** Partial: an omitted field is unchanged; `excludedTypes` only with `pools` (they are one selection). */
export const UpdateEndpointGpu = EndpointGpu.partial().extend({
  /** `""` clears the floor. */
  minCudaVersion: z.union([z.literal(""), CudaVersion]).optional(),
});

export const UpdateEndpointRequest = CreateEndpointRequest.omit({ type: true })
  .extend({ gpu: UpdateEndpointGpu })
  .partial();
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequest>;

/** Queue endpoints: job routes; load-balancing endpoints: a base address and a health check. */
const RequestUrls = z.looseObject({
  run: z.string().optional(),
  runSync: z.string().optional(),
  status: z.string().optional(),
  stream: z.string().optional(),
  cancel: z.string().optional(),
  retry: z.string().optional(),
  purgeQueue: z.string().optional(),
  health: z.string().optional(),
  base: z.string().optional(),
});

export const Endpoint = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  type: z.enum(ENDPOINT_TYPES).optional(),
  requestUrls: RequestUrls.optional(),
  image: z.string().optional(),
  args: z.string().optional(),
  disk: z.number().optional(),
  ports: z.array(z.string()).optional(),
  env: EnvMap.optional(),
  registry: z.string().nullable().optional(),
  gpu: z
    .looseObject({
      pools: z.array(z.string()),
      excludedTypes: z.array(z.string()).optional(),
      count: z.number().optional(),
      allowedCudaVersions: z.array(z.string()).optional(),
      minCudaVersion: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  cpu: z
    .array(z.looseObject({ id: z.string(), vcpuCount: z.number(), memory: z.number().optional() }))
    .optional(),
  workers: z.looseObject({ min: z.number(), max: z.number(), idleTimeout: z.number().optional() }),
  scaling: z.looseObject({
    type: z.enum(SCALER_TYPES),
    queueDelay: z.number().optional(),
    requestCount: z.number().optional(),
  }),
  dataCenterIds: z.array(z.string()),
  networkVolumes: z.array(z.string()),
  timeout: z.number(),
  flashboot: z.enum(FLASHBOOT_MODES),
  createdAt: z.string(),
});
export type Endpoint = z.infer<typeof Endpoint>;
export const ListEndpointsResponse = z.looseObject({ endpoints: z.array(Endpoint) });

/**
 * An endpoint's active workers (`GET /v2/serverless/{id}/workers`). Only `id` is required: a
 * worker's log is read by it; the rest is shown as the service sends it, `status` included (a
 * status this client does not know yet is still printed).
 */
export const Worker = z.looseObject({
  id: z.string().min(1),
  status: z.string().optional(),
  isStale: z.boolean().optional(),
  version: z.number().nullable().optional(),
  gpuCount: z.number().optional(),
  image: z.string().nullable().optional(),
  uptimeSeconds: z.number().nullable().optional(),
  gpuTypeId: z.string().nullable().optional(),
  dataCenterId: z.string().nullable().optional(),
  startedAt: z.string().nullable().optional(),
});
export type Worker = z.infer<typeof Worker>;

const WorkerCount = z.number().optional();
export const ListEndpointWorkersResponse = z.looseObject({
  workers: z.array(Worker),
  summary: z
    .looseObject({
      running: WorkerCount,
      idle: WorkerCount,
      initializing: WorkerCount,
      throttled: WorkerCount,
      unhealthy: WorkerCount,
      total: WorkerCount,
    })
    .optional(),
  endpointVersion: z.number().nullable().optional(),
});
export type ListEndpointWorkersResponse = z.infer<typeof ListEndpointWorkersResponse>;

/** One changed configuration field of a release; `old` and `new` are raw JSON values. */
export const ReleaseDiffEntry = z.looseObject({
  field: z.string(),
  old: z.unknown(),
  new: z.unknown(),
});
export type ReleaseDiffEntry = z.infer<typeof ReleaseDiffEntry>;

/** An endpoint's configuration version (`GET /v2/serverless/{id}/releases`), newest first. */
export const Release = z.looseObject({
  id: z.string().min(1),
  version: z.number().nullable().optional(),
  source: z.string().optional(),
  buildId: z.string().nullable().optional(),
  createdByUserId: z.string().nullable().optional(),
  workerCount: z.number().optional(),
  createdAt: z.string().optional(),
  diff: z.array(ReleaseDiffEntry).optional(),
});
export type Release = z.infer<typeof Release>;

export const ListEndpointReleasesResponse = z.looseObject({
  endpointVersion: z.number().nullable().optional(),
  rollout: z
    .looseObject({
      inProgress: z.boolean().optional(),
      workersOnLatest: z.number().optional(),
      workersTotal: z.number().optional(),
      percentOnLatest: z.number().optional(),
    })
    .optional(),
  releases: z.array(Release),
});
export type ListEndpointReleasesResponse = z.infer<typeof ListEndpointReleasesResponse>;
