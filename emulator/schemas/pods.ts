/**
 * Pod bodies (docs/api-model.md, Creating a pod; GPU request, CPU request, Mounts; v2
 * description: CreatePodRequest, UpdatePodRequest). Every object is closed. What a schema can say
 * is a 422; "exactly one of gpu or cpu", the CUDA pairing and the mount exclusions are the
 * handler's 400s.
 */
import { z } from "zod";
import { CLOUDS, ContainerFields, CudaVersion, Mounts } from "./common.js";

/** The create-time GPU object: only these properties. */
const GpuRequest = z.strictObject({
  id: z.string().min(1),
  count: z.int().min(1).optional(),
  allowedCudaVersions: z.array(CudaVersion).optional(),
  minCudaVersion: CudaVersion.optional(),
  minRamPerGpu: z.int().min(1).optional(),
  minVcpuCountPerGpu: z.int().min(1).optional(),
});

/** The create-time CPU object: a flavor and a vCPU count (power of two, checked by the handler). */
const CpuRequest = z.strictObject({
  id: z.string().min(1),
  vcpuCount: z.int().min(2),
});

export const CreatePodRequest = z.strictObject({
  name: z.string().min(1),
  ...ContainerFields,
  gpu: GpuRequest.optional(),
  cpu: CpuRequest.optional(),
  cloud: z.enum(CLOUDS).optional(),
  dataCenterIds: z.array(z.string().min(1)).optional(),
  globalNetworking: z.boolean().optional(),
  mounts: Mounts.optional(),
  startJupyter: z.boolean().optional(),
  startSsh: z.boolean().optional(),
  templateId: z.string().min(1).optional(),
});
export type CreatePodRequest = z.infer<typeof CreatePodRequest>;

/**
 * A PATCH: the container config, mounts (paths only, the handler checks), `locked`,
 * `globalNetworking` (applied at the next start) and a template to re-apply. `startSsh` and
 * `startJupyter` are create-time only, so a PATCH naming them is a 422.
 */
export const UpdatePodRequest = z.strictObject({
  name: z.string().min(1).optional(),
  ...ContainerFields,
  mounts: Mounts.optional(),
  locked: z.boolean().optional(),
  globalNetworking: z.boolean().optional(),
  templateId: z.string().min(1).optional(),
});
export type UpdatePodRequest = z.infer<typeof UpdatePodRequest>;
