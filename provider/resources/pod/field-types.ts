/**
 * The types a Pod's fields have of their own: its closed sets of values and its objects, each
 * named as every SDK names it (fields.ts declares the fields that use them).
 */
import { z } from "zod";
import { CudaVersion } from "../../client/schemas/common.js";
import { POD_ACTIONS, POD_STATUSES, REGIONS } from "../../client/vocabulary.js";
import { choice } from "../../fields/meta.js";
import { AllowedCudaVersions, GlobalMount, NetworkMount, PersistentMount } from "../common-fields.js";

// ---------------------------------------------------------------- types of its own

export const Cloud = choice("Cloud", "Where a pod runs.", {
  SECURE: "RunPod's own data centers.",
  COMMUNITY: "Hosts of the community cloud, which has no network volumes.",
});

export const PodDesiredStatus = choice("PodDesiredStatus", "Whether a pod runs.", {
  RUNNING: "Running.",
  STOPPED: "Stopped: it keeps its volume and machine and its GPUs stop billing.",
});

export const PodStatus = choice(
  "PodStatus",
  "A pod's lifecycle status, as the API reports it.",
  POD_STATUSES,
);
export const PodAction = choice("PodAction", "A change of status the API allows on a pod now.", POD_ACTIONS);
export const Region = choice("Region", "A continent-level region of the data centers.", REGIONS);

export const PodGpu = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .meta({ description: "GPU type id, for example `NVIDIA A40` (the GPU catalog lists them)." }),
    count: z.int().min(1).optional().meta({ description: "GPUs in the pod.", default: 1 }),
    allowedCudaVersions: AllowedCudaVersions.optional().meta({
      description:
        "Exact acceptable host CUDA versions, each `major.minor`. Not together with a minimum CUDA version.",
      defaultText: "any version",
    }),
    minCudaVersion: CudaVersion.optional().meta({
      description:
        "Lowest acceptable host CUDA version, `major.minor`, compared numerically (12.11 is above 12.2). Not together with a list of allowed CUDA versions.",
      defaultText: "any version",
    }),
    minRamPerGpu: z.int().min(1).optional().meta({
      description: "Minimum host RAM per GPU: a placement filter, not a request.",
      unit: "GB",
      defaultText: "no minimum",
    }),
    minVcpuCountPerGpu: z.int().min(1).optional().meta({
      description: "Minimum host vCPUs per GPU: a placement filter, not a request.",
      defaultText: "no minimum",
    }),
  })
  .meta({
    id: "PodGpu",
    description:
      "A GPU pod's GPU type, count and host constraints. The constraints filter placement and are fixed at create.",
  });

export const PodCpu = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .meta({ description: "CPU flavor id, for example `cpu3c` (the CPU catalog lists them)." }),
    vcpuCount: z
      .int()
      .min(2)
      .meta({ description: "vCPUs: a power of two (2, 4, 8, ...) the flavor offers." }),
  })
  .meta({ id: "PodCpu", description: "A CPU pod's flavor and vCPU count." });

export const PodMounts = z
  .strictObject({
    persistent: PersistentMount.optional().meta({
      description: "Host-local disk that survives restarts, pinned to the pod's machine. Not on CPU pods.",
      defaultText: "none",
    }),
    network: z.array(NetworkMount).max(1).optional().meta({
      description:
        "One network volume: placement is then restricted to the volume's data center. Secure cloud only.",
      defaultText: "none",
    }),
    global: z.array(GlobalMount).max(1).optional().meta({
      description: "One existing global volume, by id only: the public API cannot manage them.",
      defaultText: "none",
    }),
  })
  .meta({
    id: "PodMounts",
    description:
      "A pod's storage: a persistent disk, or a network and a global volume. The kind and the volume are fixed at create; only paths change in place.",
  });

export const PlacementCandidate = z
  .strictObject({
    dataCenterId: z.string().min(1).meta({ description: "Data center id, for example `EU-RO-1`." }),
    gpuTypeId: z.string().min(1).optional().meta({
      description: "GPU type to ask for there. Not for CPU pods.",
      defaultText: "the pod's GPU type",
    }),
  })
  .meta({ id: "PlacementCandidate", description: "One place to try: a data center, and a GPU type there." });

export const MinAvailability = choice("MinAvailability", "The least stock a catalog candidate may have.", {
  LOW: "Low stock.",
  MEDIUM: "Medium stock.",
  HIGH: "High stock.",
});

export const PlacementOrder = choice("PlacementOrder", "How catalog-built candidates are ordered.", {
  availability: "The most stock first, then your GPU type and region order.",
  price: "The cheapest GPU type for the pod's cloud first, among those with stock.",
});

export const PodPlacement = z
  .strictObject({
    candidates: z.array(PlacementCandidate).min(1).optional().meta({
      description: "Explicit places to try, in order. Not together with regions or fallback GPU types.",
      defaultText:
        "built from the catalog when regions, fallback GPU types, a minimum availability, countries or price order are set",
    }),
    regions: z.array(Region).min(1).optional().meta({
      description: "Build candidates from the catalog in these regions, in order.",
      defaultText: "every region",
    }),
    gpuTypeIds: z.array(z.string().min(1)).min(1).optional().meta({
      description:
        "Fallback GPU types after the pod's own, in order, for catalog-built candidates. GPU pods only.",
      defaultText: "the pod's GPU type alone",
    }),
    minAvailability: MinAvailability.optional().meta({
      description: "Skip catalog candidates whose stock is rated below this.",
      defaultText: "any stock but none",
    }),
    maxCandidates: z
      .int()
      .min(1)
      .max(50)
      .optional()
      .meta({ description: "At most this many catalog-built candidates, 1 to 50.", default: 12 }),
    order: PlacementOrder.optional().meta({
      description:
        "How catalog-built candidates are ordered. Ordering by price builds candidates from the catalog even without regions or fallback GPU types. Not with explicit candidates.",
      default: "availability",
    }),
    countryCodes: z
      .array(
        z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code in capitals, e.g. US"),
      )
      .min(1)
      .optional()
      .meta({
        description:
          "Catalog-built candidates only in these countries: ISO 3166-1 alpha-2 codes, for example US and CA.",
        defaultText: "any country",
      }),
    anyDataCenter: z.boolean().optional().meta({
      description:
        "After every candidate, one create with no data center pin, where the service picks any data center with capacity: what succeeds when the catalog says a GPU is available in data centers that then refuse the create. Not for pods with a network volume (the volume pins them).",
      default: false,
    }),
    retryFor: z.int().min(0).max(86_400).optional().meta({
      description:
        "When every candidate is out of capacity, walk the list again, backing off, for up to this long. Zero fails at once, listing every attempt.",
      unit: "seconds",
      default: 0,
    }),
  })
  .meta({
    id: "PodPlacement",
    description:
      "Where a pod's create tries, in order: explicit candidates, or regions and fallback GPU types (and the filters) to build them from the catalog, not both.",
  });

export const ReadinessCheck = choice("ReadinessCheck", "What a pod's readiness waits for.", {
  RUNNING: "The status RUNNING.",
  PORTS: "Every `<port>/tcp` port has its public address.",
  HTTP: "The path on the `<port>/http` port answers 2xx through the pod's proxy address.",
  TCP: "The `<port>/tcp` port accepts a connection (22 for SSH, for example).",
});

export const PodReadiness = z
  .strictObject({
    check: ReadinessCheck.optional().meta({ description: "What the wait checks.", default: "RUNNING" }),
    port: z.int().min(1).max(65_535).optional().meta({
      description: "The port the HTTP and TCP checks probe; it must be exposed with that protocol.",
      defaultText: "none: required for the HTTP and TCP checks",
    }),
    path: z
      .string()
      .startsWith("/", "must start with /")
      .optional()
      .meta({ description: "The path the HTTP check requests, starting with `/`.", default: "/" }),
    timeout: z.int().min(1).max(86_400).optional().meta({
      description: "How long the check may take once the pod is RUNNING, within the create timeout.",
      unit: "seconds",
      defaultText: "the create timeout",
    }),
    settle: z.int().min(0).max(3600).optional().meta({
      description:
        "How long the container must then stay up with no restart; zero turns the crash-loop watch off.",
      unit: "seconds",
      default: 30,
    }),
  })
  .meta({
    id: "PodReadiness",
    description:
      "What done means for a create (and for an update that restarts the container), past the status. After the check passes the container must stay up for the settle time: a restart then fails the create as a crash loop, quoting the log. Probes go to the pod, not the API, and cost no API quota.",
  });

export const PodFailFast = z
  .strictObject({
    logs: z.boolean().optional().meta({
      description: "Read the pod's log while waiting; false waits on the status alone.",
      default: true,
    }),
    afterSeconds: z.int().min(0).max(86_400).optional().meta({
      description: "Time after placement before a pod that is not up has its log read.",
      unit: "seconds",
      default: 15,
    }),
    crashLoopRestarts: z.int().min(1).max(1000).optional().meta({
      description: "Container exits within the crash-loop window that make a crash loop.",
      default: 3,
    }),
    crashLoopWindow: z.int().min(1).max(86_400).optional().meta({
      description: "The time within which that many exits make a crash loop.",
      unit: "seconds",
      default: 300,
    }),
  })
  .meta({
    id: "PodFailFast",
    description:
      "Failing fast while a create waits: when a pod is not up some seconds after it was placed, or restarts, its log is read, and an image that cannot be pulled (unknown, private without a registry credential, larger than the disk) or a crash loop fails the create at once, quoting the log, instead of waiting out the timeout.",
  });

export const PodTimeouts = z
  .strictObject({
    create: z.int().min(1).max(86_400).optional().meta({
      description: "How long to wait for the pod after it was created.",
      unit: "seconds",
      default: 600,
    }),
    update: z.int().min(1).max(86_400).optional().meta({
      description: "How long to wait after a change that restarts the container.",
      unit: "seconds",
      default: 600,
    }),
    delete: z.int().min(1).max(86_400).optional().meta({
      description: "How long to wait until a deleted pod is gone.",
      unit: "seconds",
      default: 300,
    }),
  })
  .meta({
    id: "PodTimeouts",
    description: "How long a pod's create, update and delete may wait, 1 to 86400 seconds each.",
  });

export const PodWaitFor = choice("PodWaitFor", "What a pod's create waits for.", {
  RUNNING: "The pod runs (and passes its readiness check).",
  PLACED: "The pod is on a machine.",
  NONE: "Nothing: the create returns once the API accepted it.",
});

// ---------------------------------------------------------------- outputs

export const PodGpuAllocation = z
  .object({
    id: z.string().meta({
      description: "The GPU type placement ended on (a fallback's, not necessarily the one asked for).",
    }),
    count: z.int().meta({ description: "GPUs in the pod." }),
    vcpuCount: z
      .number()
      .nullable()
      .meta({ description: "vCPUs allocated across the pod's GPUs; null when the API does not say." }),
    memory: z.number().nullable().meta({
      description: "RAM allocated across the pod's GPUs; null when the API does not say.",
      unit: "GB",
    }),
    allowedCudaVersions: z
      .array(z.string())
      .nullable()
      .meta({ description: "As the program gave them; null when not given." }),
    minCudaVersion: z
      .string()
      .nullable()
      .meta({ description: "As the program gave it; null when not given." }),
    minRamPerGpu: z
      .int()
      .nullable()
      .meta({ description: "As the program gave it; null when not given.", unit: "GB" }),
    minVcpuCountPerGpu: z
      .int()
      .nullable()
      .meta({ description: "As the program gave it; null when not given." }),
  })
  .meta({
    id: "PodGpuAllocation",
    description:
      "The GPUs a pod has: the type placement ended on, the count, the vCPUs and RAM they come with, and the constraints.",
  });

export const PodCpuAllocation = z
  .object({
    id: z.string().meta({ description: "CPU flavor id." }),
    vcpuCount: z.int().meta({ description: "vCPUs." }),
    memory: z.number().nullable().meta({ description: "RAM; null when the API does not say.", unit: "GB" }),
  })
  .meta({ id: "PodCpuAllocation", description: "The CPU flavor, vCPUs and RAM a CPU pod has." });

export const SshEndpoint = z
  .object({
    host: z.string().meta({ description: "Host to connect to." }),
    port: z.int().meta({ description: "Port to connect to." }),
    username: z.string().meta({ description: "User name; for the proxy an opaque routing token." }),
    command: z.string().meta({ description: "A ready-to-run ssh command line." }),
  })
  .meta({ id: "SshEndpoint", description: "One way to reach a pod over SSH." });

export const PodSsh = z
  .object({
    proxy: SshEndpoint.nullable().meta({
      description:
        "Through RunPod's SSH proxy: an interactive shell only, no exposed port needed; null until placed.",
    }),
    direct: SshEndpoint.nullable().meta({
      description: "Over the pod's public `22/tcp` mapping, the full SSH feature set; null without one.",
    }),
  })
  .meta({ id: "PodSsh", description: "How to reach a pod over SSH." });

export const PodCluster = z
  .object({
    id: z.string().meta({ description: "The cluster's id." }),
    rank: z.int().nullable().meta({ description: "Node rank, 0 for the entry node; null until assigned." }),
    role: z.string().nullable().meta({
      description:
        "`SLURM_CONTROLLER`, `SLURM_COMPUTE`, `RAY_HEAD` or `RAY_WORKER`; null for other cluster types.",
    }),
    ip: z
      .string()
      .nullable()
      .meta({ description: "Address on the cluster's private network; null until assigned." }),
  })
  .meta({ id: "PodCluster", description: "The cluster a member pod belongs to." });

export const PodGlobalNetworking = z
  .object({
    enabled: z.boolean().meta({ description: "Whether the pod has private networking now." }),
    ip: z.string().nullable().meta({ description: "The pod's private address; null without one." }),
    internalDns: z.string().nullable().meta({ description: "The pod's private DNS name; null without one." }),
  })
  .meta({ id: "PodGlobalNetworking", description: "A pod's private networking as it has it now." });
