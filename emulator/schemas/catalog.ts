/** Catalog vocabulary (v2 description: AvailabilityLevel, DataCenterRegion). */
import { z } from "zod";

/** How much stock the catalog reports for a GPU type or CPU flavor. */
export const AVAILABILITY_LEVELS = ["NONE", "LOW", "MEDIUM", "HIGH"] as const;
export const Availability = z.enum(AVAILABILITY_LEVELS);
export type Availability = z.infer<typeof Availability>;

/** The continent-level region a data center is in. */
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
