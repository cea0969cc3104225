/**
 * A ServerlessEndpoint's fields, each declared once (docs/decisions.md, "One declaration per
 * field"). The API's create body takes them as they are, with the type and the scaler required:
 * the provider sends its defaults for those (defaults.ts). Changes of pools, count or worker counts
 * may restart active workers; the preview says so.
 */
import { z } from "zod";
import { CudaVersion, EnvMap, Port } from "../../client/schemas/common.js";
import type { ENDPOINT_TYPES, FLASHBOOT_MODES, SCALER_TYPES } from "../../client/vocabulary.js";
import { declareResource, mirror } from "../../fields/declaration.js";
import { choice } from "../../fields/meta.js";
import { AllowedCudaVersions, adoptId } from "../common-fields.js";
import {
  SERVERLESS_ENDPOINT_DESCRIPTION,
  SERVERLESS_ENDPOINT_EXAMPLES,
  SERVERLESS_ENDPOINT_GET,
} from "./docs.js";

export const EndpointType = choice("EndpointType", "How an endpoint takes requests.", {
  QUEUE: "A managed job queue: jobs go through the run, runsync and status routes.",
  LOAD_BALANCER: "HTTP straight to the workers.",
} satisfies Record<(typeof ENDPOINT_TYPES)[number], string>);

export const Flashboot = choice("Flashboot", "FlashBoot cold-start acceleration.", {
  OFF: "No FlashBoot.",
  FLASHBOOT: "FlashBoot.",
  PRIORITY_FLASHBOOT: "FlashBoot with priority.",
} satisfies Record<(typeof FLASHBOOT_MODES)[number], string>);

export const ScalerType = choice("ScalerType", "What adds workers to an endpoint.", {
  QUEUE_DELAY: "Jobs waiting in the queue (queue endpoints).",
  REQUEST_COUNT: "Requests in flight per worker.",
} satisfies Record<(typeof SCALER_TYPES)[number], string>);

export const EndpointGpu = z
  .strictObject({
    pools: z.array(z.string().min(1)).min(1).meta({
      description:
        "Serverless GPU pools in order of preference (a GPU type's pool in the GPU catalog), for example `ADA_24`.",
    }),
    excludedTypes: z
      .array(z.string().regex(/^\s*[^-\s]/, "must be a GPU type id"))
      .optional()
      .meta({ description: "GPU types taken out of the pools.", default: [] }),
    count: z.int().min(1).optional().meta({ description: "GPUs per worker.", default: 1 }),
    allowedCudaVersions: AllowedCudaVersions.optional().meta({
      description:
        "Exact acceptable host CUDA versions, each `major.minor`. Not together with a minimum CUDA version.",
      defaultText: "any version",
    }),
    minCudaVersion: CudaVersion.optional().meta({
      description:
        "Lowest acceptable host CUDA version, `major.minor`. Not together with a list of allowed CUDA versions.",
      defaultText: "any version",
    }),
  })
  .meta({
    id: "EndpointGpu",
    description:
      "A GPU endpoint's serverless GPU pools, the GPU types taken out of them, GPUs per worker and CUDA constraints.",
  });

export const EndpointCpu = z
  .strictObject({
    id: z.string().min(1).meta({ description: "CPU flavor id (the CPU catalog lists them)." }),
    vcpuCount: z.int().min(2).meta({ description: "vCPUs per worker: a power of two." }),
  })
  .meta({ id: "EndpointCpu", description: "One CPU configuration a CPU endpoint's workers may use." });

export const EndpointWorkers = z
  .strictObject({
    min: z
      .int()
      .min(0)
      .optional()
      .meta({ description: "Workers kept running (and billed) when idle.", default: 0 }),
    max: z.int().min(0).optional().meta({ description: "Most workers at once.", default: 3 }),
    idleTimeout: z.int().min(1).max(3600).optional().meta({
      description:
        "How long an idle worker stays up, 1 to 3600. Not for a queue endpoint scaling on request count.",
      unit: "seconds",
      defaultText: "the API's (10 seconds in its description)",
    }),
  })
  .meta({
    id: "EndpointWorkers",
    description: "How many workers an endpoint runs. The minimum may not exceed the maximum.",
  });

export const QueueDelayScaling = z
  .strictObject({
    type: z.literal("QUEUE_DELAY").meta({ description: "`QUEUE_DELAY`." }),
    queueDelay: z.number().min(0.5).meta({
      description: "How long a job may wait before a worker is added, at least 0.5.",
      unit: "seconds",
    }),
  })
  .meta({
    id: "QueueDelayScaling",
    description: "Add workers when jobs wait in the queue. Queue endpoints only.",
  });

export const RequestCountScaling = z
  .strictObject({
    type: z.literal("REQUEST_COUNT").meta({ description: "`REQUEST_COUNT`." }),
    requestCount: z
      .int()
      .min(1)
      .meta({ description: "Requests per worker before another is added, at least 1." }),
  })
  .meta({ id: "RequestCountScaling", description: "Add workers by the number of requests in flight." });

export const EndpointScaling = z.discriminatedUnion("type", [QueueDelayScaling, RequestCountScaling]).meta({
  id: "EndpointScaling",
  description: "When an endpoint adds workers: on queue delay or on request count.",
});

/** Sent in the create body and in the update body, as given. */
export const ENDPOINT_BODY = {
  name: z
    .string()
    .min(1)
    .max(191)
    .meta({ description: "Endpoint name, 1 to 191 characters.", onChange: "update" }),
  templateId: z.string().min(1).optional().meta({
    description:
      "A serverless template whose container settings are applied once, at create (or when it changes).",
    defaultText: "none: the container settings below",
    onChange: "update",
  }),
  image: z.string().min(1).optional().meta({
    description: "Container image. Required unless a template is given.",
    defaultText: "the template's",
    onChange: "update",
  }),
  args: z.string().optional().meta({
    description: "The container command as one raw string.",
    defaultText: "the image's (or the template's)",
    onChange: "update",
  }),
  disk: z.int().min(1).optional().meta({
    description: "Container disk.",
    unit: "GB",
    defaultText: "the API's (or the template's)",
    onChange: "update",
  }),
  ports: z.array(Port).optional().meta({
    description: "Exposed ports, each `<port>/<protocol>`.",
    defaultText: "the template's, else none",
    onChange: "update",
  }),
  env: EnvMap.optional().meta({
    description:
      "Environment variables, always secret in state. Template keys the program does not declare are kept.",
    default: {},
    onChange: "update",
    secret: true,
  }),
  registry: z.string().nullable().optional().meta({
    description: "A Registry's id, for private images; null removes it.",
    defaultText: "none: public images only",
    onChange: "update",
  }),
  gpu: EndpointGpu.optional().meta({
    description: "A GPU endpoint. Exactly one of a GPU and a CPU.",
    defaultText: "none: a CPU endpoint",
    onChange: {
      kinds: ["update", "replace"],
      detail:
        "a switch between GPU and CPU replaces the endpoint; a change within the GPU settings updates it in place",
    },
  }),
  cpu: z
    .array(EndpointCpu)
    .min(1)
    .optional()
    .meta({
      description:
        "A CPU endpoint: the eligible flavor and vCPU count pairs. Exactly one of a GPU and a CPU.",
      defaultText: "none: a GPU endpoint",
      onChange: {
        kinds: ["update", "replace"],
        detail: "a switch between GPU and CPU replaces the endpoint; a new list updates it in place",
      },
    }),
  workers: EndpointWorkers.optional().meta({
    description: "How many workers run.",
    defaultText: "0 to 3",
    onChange: "update",
  }),
  scaling: EndpointScaling.optional().meta({
    description: "When workers are added. A load balancer scales on request count.",
    defaultText: "a queue delay of 4 seconds; for a load balancer, 4 requests per worker",
    onChange: "update",
  }),
  flashboot: Flashboot.optional().meta({
    description: "Faster cold starts.",
    defaultText: "`OFF` at create; left out later, what the endpoint has stays",
    onChange: "update",
  }),
  networkVolumes: z.array(z.string().min(1)).optional().meta({
    description: "NetworkVolume ids mounted on the workers.",
    defaultText: "none at create; left out later, what the endpoint has stays",
    onChange: "update",
  }),
  dataCenterIds: z.array(z.string().min(1)).optional().meta({
    description: "Data centers the workers may run in; empty for any.",
    defaultText: "any at create; left out later, what the endpoint has stays",
    onChange: "update",
  }),
  timeout: z
    .int()
    .min(5_000)
    .max(7 * 24 * 3_600_000)
    .optional()
    .meta({
      description: "Longest a single request may run, from 5 seconds to 7 days.",
      unit: "milliseconds",
      defaultText: "300000 at create; left out later, what the endpoint has stays",
      onChange: "update",
    }),
};

/** Sent in the create body only. */
export const ENDPOINT_CREATE_ONLY = {
  type: EndpointType.optional().meta({
    description: "How the endpoint takes requests.",
    default: "QUEUE",
    onChange: "replace",
  }),
};

export const ServerlessEndpointArgsSchema = z.strictObject({
  ...ENDPOINT_CREATE_ONLY,
  ...ENDPOINT_BODY,
  adoptId: adoptId("an endpoint"),
});

export const ServerlessEndpointGpu = z
  .object({
    pools: z.array(z.string()).meta({ description: "Serverless GPU pools, in order." }),
    excludedTypes: z.array(z.string()).meta({ description: "GPU types taken out of the pools." }),
    count: z.int().meta({ description: "GPUs per worker." }),
    allowedCudaVersions: z
      .array(z.string())
      .meta({ description: "Exact acceptable host CUDA versions; empty for any." }),
    minCudaVersion: z
      .string()
      .nullable()
      .meta({ description: "Lowest acceptable host CUDA version; null for any." }),
  })
  .meta({
    id: "ServerlessEndpointGpu",
    description: "A GPU endpoint's GPU settings as the API reports them.",
  });

export const ServerlessEndpointCpu = z
  .object({
    id: z.string().meta({ description: "CPU flavor id." }),
    vcpuCount: z.int().meta({ description: "vCPUs per worker." }),
    memory: z
      .number()
      .nullable()
      .meta({ description: "RAM per worker; null when the API does not say.", unit: "GB" }),
  })
  .meta({
    id: "ServerlessEndpointCpu",
    description: "One CPU configuration of a CPU endpoint, as the API reports it.",
  });

export const ServerlessEndpointWorkers = z
  .object({
    min: z.int().meta({ description: "Workers kept running when idle." }),
    max: z.int().meta({ description: "Most workers at once." }),
    idleTimeout: z.int().nullable().meta({
      description: "How long an idle worker stays up; null when the API does not say.",
      unit: "seconds",
    }),
  })
  .meta({
    id: "ServerlessEndpointWorkers",
    description: "An endpoint's worker counts as the API reports them.",
  });

export const ServerlessEndpointScaling = z
  .object({
    type: ScalerType.meta({ description: "What adds workers." }),
    queueDelay: z.number().nullable().meta({
      description: "The queue delay that adds a worker; null when scaling on request count.",
      unit: "seconds",
    }),
    requestCount: z.int().nullable().meta({
      description: "Requests per worker that add another; null when scaling on queue delay.",
    }),
  })
  .meta({ id: "ServerlessEndpointScaling", description: "An endpoint's scaler as the API reports it." });

const input = ServerlessEndpointArgsSchema.shape;

export const ServerlessEndpointStateSchema = z.object({
  endpointId: z.string().meta({
    description: "The endpoint id; also the resource id. Give it to a ServerlessJob's endpoint id.",
  }),
  name: mirror(input.name, "api"),
  type: mirror(input.type, "built"),
  templateId: mirror(input.templateId, "built", { internal: true }).nullable().meta({
    description: "The template the settings came from, as the program gave it (the API keeps no link).",
  }),
  image: mirror(input.image, "api", { internal: true }).nullable(),
  args: mirror(input.args, "api", { internal: true }).nullable(),
  disk: mirror(input.disk, "api", { internal: true }).nullable(),
  ports: mirror(input.ports, "built", { internal: true }),
  env: mirror(input.env, "built").meta({
    description: "The environment variables the program declared (secret).",
  }),
  registry: mirror(input.registry, "api", { internal: true }),
  gpu: ServerlessEndpointGpu.nullable().meta({
    description:
      "GPU pools, exclusions, count and CUDA constraints as the API reports them; null on a CPU endpoint.",
  }),
  cpu: z
    .array(ServerlessEndpointCpu)
    .nullable()
    .meta({ description: "CPU configurations as the API reports them; null on a GPU endpoint." }),
  workers: ServerlessEndpointWorkers.meta({
    description: "Worker counts and idle timeout as the API reports them.",
  }),
  scaling: ServerlessEndpointScaling.meta({ description: "The scaler as the API reports it." }),
  flashboot: mirror(input.flashboot, "api"),
  networkVolumes: mirror(input.networkVolumes, "built"),
  dataCenterIds: mirror(input.dataCenterIds, "built"),
  timeout: mirror(input.timeout, "api"),
  createdAt: z
    .string()
    .nullable()
    .meta({ description: "When the endpoint was created (ISO 8601); null when the API does not say." }),
  requestUrls: z.record(z.string(), z.string()).meta({
    description:
      "The addresses the API gives for this endpoint's type: run, runSync, status, stream, cancel, retry, purgeQueue and health for a queue; base and health for a load balancer.",
  }),
  jobUrl: z.string().meta({
    description:
      "A queue endpoint's job address, under the serverless address; a load balancer's base address.",
  }),
});

export const SERVERLESS_ENDPOINT = declareResource({
  kind: "ServerlessEndpoint",
  description: SERVERLESS_ENDPOINT_DESCRIPTION,
  get: SERVERLESS_ENDPOINT_GET,
  examples: SERVERLESS_ENDPOINT_EXAMPLES,
  inputs: ServerlessEndpointArgsSchema,
  outputs: ServerlessEndpointStateSchema,
});
