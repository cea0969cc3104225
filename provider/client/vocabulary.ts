/**
 * The API's closed vocabularies: the enum values of the contract, as `as const` arrays with their
 * union types. The schemas build their `z.enum`s from these, and the program-facing types
 * (resource inputs and outputs, catalog results) use the unions. This module imports nothing: the
 * declarations a Pulumi program compiles against reach it, and they must not reach zod, whose
 * declaration files fail to compile without `esModuleInterop`.
 */

/** How much stock the catalog reports for a GPU type or CPU flavor. */
export const AVAILABILITY_LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;
export type Availability = (typeof AVAILABILITY_LEVELS)[number];

/** Continent-level regions of the data centers. */
export const REGIONS = [
  "NORTH_AMERICA",
  "SOUTH_AMERICA",
  "EUROPE",
  "ASIA",
  "MIDDLE_EAST",
  "AFRICA",
  "OCEANIA",
  "ANTARCTICA",
  "UNKNOWN",
] as const;
export type Region = (typeof REGIONS)[number];

/** A pod's lifecycle (docs/api-model.md, States and transitions). */
export const POD_STATUSES = ["PROVISIONING", "STARTING", "RUNNING", "EXITED", "ERROR", "TERMINATED"] as const;
export type PodStatus = (typeof POD_STATUSES)[number];

export const POD_ACTIONS = ["start", "stop", "restart", "terminate"] as const;
export type PodAction = (typeof POD_ACTIONS)[number];

export const CLOUDS = ["SECURE", "COMMUNITY"] as const;
export type Cloud = (typeof CLOUDS)[number];

/** Console grouping of a template; no effect on scheduling. */
export const TEMPLATE_CATEGORIES = ["CPU", "NVIDIA", "AMD"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Network volume storage tiers. */
export const VOLUME_TYPES = ["STANDARD", "HIGH_PERFORMANCE"] as const;
export type VolumeType = (typeof VOLUME_TYPES)[number];

/** How a serverless endpoint takes requests: a managed job queue, or HTTP straight to its workers. */
export const ENDPOINT_TYPES = ["QUEUE", "LOAD_BALANCER"] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** FlashBoot cold-start acceleration of a serverless endpoint. */
export const FLASHBOOT_MODES = ["OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"] as const;
export type FlashbootMode = (typeof FLASHBOOT_MODES)[number];

/** The topology of an instant cluster. */
export const CLUSTER_TYPES = ["APPLICATION", "TRAINING", "SLURM", "RAY"] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];

/** How a serverless endpoint scales its workers. */
export const SCALER_TYPES = ["QUEUE_DELAY", "REQUEST_COUNT"] as const;
export type ScalerType = (typeof SCALER_TYPES)[number];
