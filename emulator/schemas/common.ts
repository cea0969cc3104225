/**
 * The emulator's own request-schema building blocks, written from the v2 description and the
 * contract (never imported from the client: the two check each other). Bodies are closed: an
 * unknown property is a 422 (`$: additional properties 'x' not allowed`).
 */
import { z } from "zod";

/**
 * Body-size limit of `POST /v2/pods`, applied again to the request expanded with its template
 * (docs/api-model.md, Limits, "Request body size").
 */
export const MAX_REQUEST_BYTES = 102_400;

/** `major.minor` (docs/api-model.md, GPU request). */
export const CudaVersion = z.string().regex(/^\d+\.\d+$/, "must be a CUDA version as major.minor, e.g. 12.4");

/** `<port>/<protocol>` (docs/api-model.md, Container config, `ports`). */
export const Port = z
  .string()
  .regex(
    /^\d{1,5}\/(http|tcp|udp)$/,
    "must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http",
  )
  .refine((p) => {
    const n = Number(p.split("/")[0]);
    return n >= 1 && n <= 65_535;
  }, "port number must be between 1 and 65535");

const EnvMap = z.record(z.string(), z.string());

/**
 * BaseContainerConfig (v2 description): what every containerized resource takes, clusters
 * included.
 */
export const BaseContainerFields = {
  image: z.string().min(1).optional(),
  args: z.string().optional(),
  disk: z.int().min(1).optional(),
  env: EnvMap.optional(),
  ports: z.array(Port).optional(),
};

/**
 * ContainerConfig: the base plus `registry`, and the contract's `cmd`/`entrypoint` (the v2
 * description leaves them out; the contract lists them for templates, pods and serverless
 * endpoints, and the contract wins).
 */
export const ContainerFields = {
  ...BaseContainerFields,
  cmd: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  registry: z.string().nullable().optional(),
};

/** Mounts (docs/api-model.md, Mounts; the description lacks `global`, the model has it). */
export const Mounts = z.strictObject({
  persistent: z.strictObject({ size: z.int().min(10), path: z.string().min(1) }).optional(),
  network: z
    .array(z.strictObject({ volumeId: z.string().min(1), path: z.string().min(1) }))
    .max(1)
    .optional(),
  global: z
    .array(z.strictObject({ volumeId: z.string().min(1), path: z.string().min(1).optional() }))
    .max(1)
    .optional(),
});
export type Mounts = z.infer<typeof Mounts>;

export const CLOUDS = ["SECURE", "COMMUNITY"] as const;
export type Cloud = (typeof CLOUDS)[number];

export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;
export type PodStatus = (typeof POD_STATUSES)[number];

export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;
export type PodAction = (typeof POD_ACTIONS)[number];

/** PodActionRequest (v2 description): one field, closed. */
export const PodActionRequest = z.strictObject({ action: z.enum(POD_ACTIONS) });
