/**
 * The emulator's own schemas of the legacy v1 endpoint bodies (`{rest_url}/v1/endpoints`, v1
 * description: EndpointCreateInput, EndpointUpdateInput), kept for old clients. The provider no
 * longer speaks v1; these never come from its client, so a wrong schema on either side shows.
 */
import { z } from "zod";

export const COMPUTE_TYPES = ["GPU", "CPU"] as const;
export const SCALER_TYPES = ["QUEUE_DELAY", "REQUEST_COUNT"] as const;

const CudaVersion = z.string().regex(/^\d+\.\d+$/, "must be a CUDA version as major.minor, e.g. 12.4");
const EnvMap = z.record(z.string(), z.string());

const EndpointFields = {
  name: z.string().min(1).max(191),
  templateId: z.string().min(1),
  computeType: z.enum(COMPUTE_TYPES),
  gpuTypeIds: z.array(z.string().min(1)),
  gpuCount: z.int().min(1),
  cpuFlavorIds: z.array(z.string().min(1)),
  vcpuCount: z.int().min(1),
  dataCenterIds: z.array(z.string().min(1)),
  allowedCudaVersions: z.array(CudaVersion),
  minCudaVersion: CudaVersion,
  workersMin: z.int().min(0),
  workersMax: z.int().min(0),
  idleTimeout: z.int().min(1).max(3600),
  executionTimeoutMs: z.int().min(1),
  flashboot: z.boolean(),
  scalerType: z.enum(SCALER_TYPES),
  scalerValue: z.int().min(1),
  networkVolumeId: z.string().min(1),
  networkVolumeIds: z.array(z.string().min(1)),
  env: EnvMap,
};

export const CreateEndpointRequest = z.strictObject(EndpointFields).partial().required({ templateId: true });
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequest>;

/** PATCH body: every field optional except that the compute type cannot change (we never send it). */
const { computeType: _computeType, ...updatable } = EndpointFields;
export const UpdateEndpointRequest = z.strictObject(updatable).partial();
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequest>;

export const Endpoint = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  templateId: z.string().optional(),
  computeType: z.enum(COMPUTE_TYPES).optional(),
  gpuTypeIds: z.array(z.string()).optional(),
  gpuCount: z.number().optional(),
  cpuFlavorIds: z.array(z.string()).optional(),
  vcpuCount: z.number().optional(),
  dataCenterIds: z.array(z.string()).optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  minCudaVersion: z.string().nullable().optional(),
  workersMin: z.number().optional(),
  workersMax: z.number().optional(),
  idleTimeout: z.number().optional(),
  executionTimeoutMs: z.number().optional(),
  flashboot: z.boolean().optional(),
  scalerType: z.string().optional(),
  scalerValue: z.number().optional(),
  networkVolumeId: z.string().nullable().optional(),
  networkVolumeIds: z.array(z.string()).optional(),
  env: EnvMap.optional(),
  createdAt: z.string().optional(),
  version: z.number().optional(),
  userId: z.string().optional(),
});
export type Endpoint = z.infer<typeof Endpoint>;
export const ListEndpointsResponse = z.array(Endpoint);
