/** Pod bodies (docs/api-model.md, Creating a pod). */
import { z } from "zod";
import { PodMounts } from "../../resources/pod/field-types.js";
import { POD_CREATE_AND_UPDATE, POD_CREATE_ONLY, POD_UPDATE_ONLY } from "../../resources/pod/fields.js";
import { CLOUDS, POD_ACTIONS, POD_STATUSES } from "../vocabulary.js";
import { EnvMap } from "./common.js";

export { CLOUDS, POD_ACTIONS, POD_STATUSES };

export const PodStatus = z.enum(POD_STATUSES);
export type PodStatus = z.infer<typeof PodStatus>;

export const PodAction = z.enum(POD_ACTIONS);
export type PodAction = z.infer<typeof PodAction>;

export const Cloud = z.enum(CLOUDS);
export type Cloud = z.infer<typeof Cloud>;

/** Mounts as a create or update body carries them. */
export const MountsRequest = PodMounts;
export type MountsRequest = z.infer<typeof MountsRequest>;

/**
 * The create body: the fields a Pod declares for it (provider/resources/pod/fields.ts), as the
 * program gives them. Closed, as the contract's CreatePodRequest is.
 */
export const CreatePodRequest = z.strictObject({ ...POD_CREATE_AND_UPDATE, ...POD_CREATE_ONLY });
export type CreatePodRequest = z.infer<typeof CreatePodRequest>;

/**
 * The update body: the fields a Pod declares for it, each optional, and `templateId`, which PATCH
 * applies as if its settings were in the body (the provider never sends it: a Pod's template is a
 * create-time source).
 */
export const UpdatePodRequest = z
  .strictObject({ ...POD_CREATE_AND_UPDATE, ...POD_UPDATE_ONLY, templateId: z.string().min(1) })
  .partial();
export type UpdatePodRequest = z.infer<typeof UpdatePodRequest>;

export const PodActionRequest = z.strictObject({ action: PodAction });

const SshEndpoint = z.looseObject({
  host: z.string(),
  port: z.int(),
  username: z.string(),
  command: z.string(),
});
export type SshEndpoint = z.infer<typeof SshEndpoint>;

/**
 * A pod as every pod read parses it. Liberal: a field the provider or the CLI decides something on
 * is required (id, status, what a diff or refresh compares, env for the create key, createdAt for
 * recovery, runtime for readiness); a field it only shows is optional, and absent in an answer it
 * becomes null in outputs rather than failing the read. RunPod's own description omits
 * `gpu.vcpuCount` and `gpu.memory` from its pod examples though the contract lists them.
 */
export const Pod = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  status: PodStatus,
  actions: z.array(PodAction).optional(),
  image: z.string(),
  args: z.string(),
  cmd: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  disk: z.number(),
  mounts: z.looseObject({
    persistent: z.looseObject({ size: z.number(), path: z.string() }).optional(),
    network: z.array(z.looseObject({ volumeId: z.string(), path: z.string() })).optional(),
    global: z.array(z.looseObject({ volumeId: z.string(), path: z.string().optional() })).optional(),
  }),
  ports: z.array(z.string()),
  env: EnvMap,
  registry: z.string().nullable(),
  gpu: z
    .looseObject({
      id: z.string(),
      count: z.number().optional(),
      vcpuCount: z.number().optional(),
      memory: z.number().optional(),
    })
    .optional(),
  cpu: z.looseObject({ id: z.string(), vcpuCount: z.number(), memory: z.number().optional() }).optional(),
  cloud: Cloud,
  dataCenterId: z.string().nullable(),
  cudaVersion: z.string().nullable().optional(),
  ssh: z
    .looseObject({ proxy: SshEndpoint.nullable().optional(), direct: SshEndpoint.nullable().optional() })
    .optional(),
  cluster: z
    .looseObject({
      id: z.string(),
      rank: z.int().nullable(),
      role: z.string().optional(),
      ip: z.string().optional(),
    })
    .optional(),
  template: z.string().nullable().optional(),
  cost: z.number().optional(),
  locked: z.boolean(),
  globalNetworking: z.looseObject({
    enabled: z.boolean(),
    ip: z.string().optional(),
    internalDns: z.string().optional(),
  }),
  /** Live metrics; null unless RUNNING. Its `ports` are what readiness reads. */
  runtime: z
    .looseObject({
      ports: z
        .array(
          z.looseObject({
            private: z.int(),
            public: z.int().nullable(),
            type: z.string(),
            ip: z.string().nullable(),
          }),
        )
        .optional(),
    })
    .nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
});
export type Pod = z.infer<typeof Pod>;

export const ListPodsResponse = z.looseObject({ pods: z.array(Pod) });

/** One event of `GET /v2/pods/{id}/logs`: its `data` payload (the event id is its `ts`). */
export const PodLogLine = z.looseObject({
  source: z.enum(["container", "system"]),
  line: z.string(),
  ts: z.string(),
});
export type PodLogLine = z.infer<typeof PodLogLine>;
