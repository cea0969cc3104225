/**
 * Serverless endpoint bodies (`{base_url}/v2/serverless`): CreateEndpointRequest and
 * UpdateEndpointRequest of the v2 description, plus the contract's `cmd`/`entrypoint`.
 *
 * What a JSON Schema can say (types, ranges, closed objects, `if`/`then`, `dependentRequired`,
 * `uniqueItems`) is a 422 here; the cross-field rules are the handlers' 400s.
 */
import { z } from "zod";
import { ContainerFields, CudaVersion } from "./common.js";

export const ENDPOINT_TYPES = ["QUEUE", "LOAD_BALANCER"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export const FLASHBOOT_MODES = ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"] as const;
export type FlashbootMode = (typeof FLASHBOOT_MODES)[number];

/** `uniqueItems`: no two entries equal as JSON. */
function unique<T>(items: readonly T[]): boolean {
  return new Set(items.map((i) => JSON.stringify(i))).size === items.length;
}

const QueueDelayScaling = z.strictObject({ type: z.literal("QUEUE_DELAY"), queueDelay: z.number().min(0.5) });
const RequestCountScaling = z.strictObject({
  type: z.literal("REQUEST_COUNT"),
  requestCount: z.int().min(1),
});
export const EndpointScaling = z.discriminatedUnion("type", [QueueDelayScaling, RequestCountScaling]);
export type EndpointScaling = z.infer<typeof EndpointScaling>;

const Pools = z.array(z.string().min(1)).min(1);
/** GPU type ids subtracted from the pools; `^\s*[^-\s]` as the description has it. */
const ExcludedTypes = z
  .array(z.string().regex(/^\s*[^-\s]/, "must be a GPU type id"))
  .refine(unique, "items must be unique");

const CreateEndpointGpu = z.strictObject({
  pools: Pools,
  excludedTypes: ExcludedTypes.optional(),
  count: z.int().min(1).optional(),
  allowedCudaVersions: z.array(CudaVersion).optional(),
  minCudaVersion: CudaVersion.optional(),
});

const UpdateEndpointGpu = z
  .strictObject({
    pools: Pools.optional(),
    excludedTypes: ExcludedTypes.optional(),
    count: z.int().min(1).optional(),
    allowedCudaVersions: z.array(CudaVersion).optional(),
    /** `""` clears the floor. */
    minCudaVersion: z.union([z.literal(""), CudaVersion]).optional(),
  })
  .superRefine((gpu, ctx) => {
    // dependentRequired: excludedTypes -> pools (the two are one selection).
    if (gpu.excludedTypes !== undefined && gpu.pools === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["pools"],
        message: "required property is missing (excludedTypes requires pools)",
      });
    }
  });

const CpuConfig = z.strictObject({ id: z.string().min(1), vcpuCount: z.int().min(2) });
const CpuConfigs = z.array(CpuConfig).min(1).refine(unique, "items must be unique");

const Workers = z.strictObject({
  min: z.int().min(0).optional(),
  max: z.int().min(0).optional(),
  idleTimeout: z.int().min(1).max(3600).optional(),
});

const Settings = {
  dataCenterIds: z.array(z.string()).optional(),
  flashboot: z.enum(FLASHBOOT_MODES).optional(),
  networkVolumes: z.array(z.string()).optional(),
  timeout: z.int().min(1).optional(),
  workers: Workers.optional(),
};

export const CreateEndpointRequest = z
  .strictObject({
    name: z.string().min(1),
    type: z.enum(ENDPOINT_TYPES),
    scaling: EndpointScaling,
    templateId: z.string().min(1).optional(),
    gpu: CreateEndpointGpu.optional(),
    cpu: CpuConfigs.optional(),
    ...ContainerFields,
    ...Settings,
  })
  .superRefine((body, ctx) => {
    // if: not templateId, then: required image.
    if (body.templateId === undefined && body.image === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "required property 'image' is missing (it is required unless templateId is set)",
      });
    }
    // if: type LOAD_BALANCER, then: scaling is RequestCountScaling.
    if (body.type === "LOAD_BALANCER" && body.scaling.type !== "REQUEST_COUNT") {
      ctx.addIssue({
        code: "custom",
        path: ["scaling", "type"],
        message: 'expected one of "REQUEST_COUNT" (LOAD_BALANCER endpoints scale on request count)',
      });
    }
  });
export type CreateEndpointRequest = z.infer<typeof CreateEndpointRequest>;

export const UpdateEndpointRequest = z.strictObject({
  name: z.string().min(1).optional(),
  scaling: EndpointScaling.optional(),
  // No minLength on update: "" is an unknown template (404), as any other id.
  templateId: z.string().optional(),
  gpu: UpdateEndpointGpu.optional(),
  cpu: CpuConfigs.optional(),
  ...ContainerFields,
  ...Settings,
});
export type UpdateEndpointRequest = z.infer<typeof UpdateEndpointRequest>;
