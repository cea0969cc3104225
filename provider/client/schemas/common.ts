/**
 * Schemas shared by every API area: the problem+json error body and the container settings that
 * templates, pods and serverless endpoints have in common (docs/api-model.md, Container config).
 *
 * Bodies we send are strict (a typo is a local error, not a 422 from the service); bodies we
 * receive are loose (a new server field never breaks a read).
 */
import { z } from "zod";

/** `major.minor`, as the contract's GPU request requires for CUDA versions. */
export const CUDA_VERSION_PATTERN = /^\d+\.\d+$/;
/** `<port>/<protocol>`, for example `8888/http` or `22/tcp`. */
export const PORT_PATTERN = /^(\d{1,5})\/(http|tcp|udp)$/;
/** Request-size limit of `POST /v2/pods`, also applied to the template-expanded request (docs/api-model.md, Limits). */
export const MAX_REQUEST_BYTES = 102_400;

export const CudaVersion = z
  .string()
  .regex(CUDA_VERSION_PATTERN, "must be a CUDA version as major.minor, e.g. 12.4");

export const Port = z
  .string()
  .regex(PORT_PATTERN, "must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http")
  .refine((p) => {
    const n = Number(p.split("/")[0]);
    return n >= 1 && n <= 65_535;
  }, "port number must be between 1 and 65535");

export const EnvMap = z.record(z.string(), z.string());

/** Container settings as sent in a create or update body. */
export const ContainerConfigRequest = {
  image: z.string().min(1).optional(),
  args: z.string().optional(),
  cmd: z.array(z.string()).optional(),
  entrypoint: z.array(z.string()).optional(),
  disk: z.int().min(1).optional(),
  env: EnvMap.optional(),
  ports: z.array(Port).optional(),
  registry: z.string().nullable().optional(),
};

/** RFC 9457 problem body (docs/api-model.md, Error response). */
export const Problem = z.looseObject({
  title: z.string(),
  status: z.int(),
  detail: z.string(),
  errors: z.array(z.string()).optional(),
});
export type Problem = z.infer<typeof Problem>;
