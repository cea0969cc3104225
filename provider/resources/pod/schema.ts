/**
 * The strict schema a Pod's `check` validates against: the contract's CreatePodRequest plus the
 * provider's own options. Kept out of provider/resources/pod.ts so the declarations programs compile
 * against never import zod; `PodInputs` (`PodArgs` resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreatePodRequest } from "../../client/schemas/pods.js";
import { REGIONS } from "../../client/vocabulary.js";
import type { Same } from "../same-type.js";
import type { PodInputs } from "./types.js";

const PlacementSchema = z.strictObject({
  /** Explicit ordered (data center, GPU type) pairs; `gpuTypeId` defaults to `gpu.id`. */
  candidates: z
    .array(z.strictObject({ dataCenterId: z.string().min(1), gpuTypeId: z.string().min(1).optional() }))
    .min(1)
    .optional(),
  /** Build candidates from the catalog in these regions, in order. */
  regions: z.array(z.enum(REGIONS)).min(1).optional(),
  /** Fallback GPU types after `gpu.id`, in order, for catalog-built candidates. */
  gpuTypeIds: z.array(z.string().min(1)).min(1).optional(),
  /** Skip catalog candidates rated below this. */
  minAvailability: z.enum(["LOW", "MEDIUM", "HIGH"]).optional(),
  maxCandidates: z.int().min(1).max(50).optional(),
  /** Catalog candidates by stock (the default) or cheapest first. */
  order: z.enum(["availability", "price"]).optional(),
  /** Catalog-built candidates only in these countries. */
  countryCodes: z
    .array(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code in capitals, e.g. US"))
    .min(1)
    .optional(),
  /** A last candidate with no data center pin. */
  anyDataCenter: z.boolean().optional(),
  /** Seconds to keep walking the list again while every candidate is out of capacity. */
  retryFor: z.int().min(0).max(86_400).optional(),
});

const ReadinessSchema = z.strictObject({
  check: z.enum(["RUNNING", "PORTS", "HTTP", "TCP"]).optional(),
  port: z.int().min(1).max(65_535).optional(),
  path: z.string().startsWith("/", "must start with /").optional(),
  timeout: z.int().min(1).max(86_400).optional(),
  /** Seconds the container must stay up once RUNNING. @default 30 */
  settle: z.int().min(0).max(3600).optional(),
});

const FailFastSchema = z.strictObject({
  logs: z.boolean().optional(),
  afterSeconds: z.int().min(0).max(86_400).optional(),
  crashLoopRestarts: z.int().min(1).max(1000).optional(),
  crashLoopWindow: z.int().min(1).max(86_400).optional(),
});

const TimeoutsSchema = z.strictObject({
  /** Seconds to wait for the pod after it was created. @default 600 */
  create: z.int().min(1).max(86_400).optional(),
  /** Seconds to wait after a change that restarts the container. @default 600 */
  update: z.int().min(1).max(86_400).optional(),
  /** Seconds to wait until a deleted pod is gone. @default 300 */
  delete: z.int().min(1).max(86_400).optional(),
});

export const PodArgsSchema = CreatePodRequest.extend({
  locked: z.boolean().optional(),
  desiredStatus: z.enum(["RUNNING", "STOPPED"]).optional(),
  placement: PlacementSchema.optional(),
  waitFor: z.enum(["RUNNING", "PLACED", "NONE"]).optional(),
  readiness: ReadinessSchema.optional(),
  failFast: FailFastSchema.optional(),
  timeouts: TimeoutsSchema.optional(),
  onCreateFailure: z.enum(["terminate", "keep"]).optional(),
  adoptId: z.string().min(1).optional(),
});

// Fails the build as soon as `PodInputs` and the schema stop describing the same object.
true satisfies Same<PodInputs, z.infer<typeof PodArgsSchema>>;
