/** Every API area's routes, by surface. */
import { accountRoutes } from "./account.js";
import { billingRoutes } from "./billing.js";
import { billingV2Routes } from "./billing-v2.js";
import { catalogRoutes } from "./catalog.js";
import { clusterRoutes } from "./clusters.js";
import { endpointRoutes } from "./endpoints.js";
import { hubRoutes } from "./hub.js";
import { jobRoutes } from "./jobs.js";
import { logRoutes } from "./logs.js";
import { networkVolumeRoutes } from "./network-volumes.js";
import { podRoutes } from "./pods.js";
import { registryRoutes } from "./registries.js";
import type { Route, RouteTable, Surface } from "./routing.js";
import { secretRoutes } from "./secrets.js";
import { serverlessRoutes } from "./serverless.js";
import { templateRoutes } from "./templates.js";

const AREAS: readonly RouteTable[] = [
  podRoutes,
  logRoutes,
  clusterRoutes,
  catalogRoutes,
  accountRoutes,
  secretRoutes,
  templateRoutes,
  networkVolumeRoutes,
  registryRoutes,
  serverlessRoutes,
  endpointRoutes,
  jobRoutes,
  billingRoutes,
  billingV2Routes,
  hubRoutes,
];

export function allRoutes(): RouteTable {
  const table: Record<Surface, Route[]> = { v2: [], rest: [], serverless: [] };
  for (const area of AREAS) {
    for (const surface of ["v2", "rest", "serverless"] as const)
      table[surface].push(...(area[surface] ?? []));
  }
  return table;
}
