/** Every API area's routes, by surface. */

import { networkVolumeRoutes } from "../account/network-volumes.js";
import { registryRoutes } from "../account/registries.js";
import { secretRoutes } from "../account/secrets.js";
import { accountRoutes } from "../account/ssh-keys.js";
import { templateRoutes } from "../account/templates.js";
import { billingRoutes } from "../billing/routes.js";
import { hubRoutes } from "../catalog/hub.js";
import { catalogRoutes } from "../catalog/routes.js";
import { clusterRoutes } from "../clusters/routes.js";
import type { Route, RouteTable, Surface } from "../http/routing.js";
import { logRoutes } from "../logs/routes.js";
import { podRoutes } from "../pods/routes.js";
import { jobRoutes } from "../serverless/jobs.js";
import { serverlessRoutes } from "../serverless/routes.js";

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
  jobRoutes,
  billingRoutes,
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
