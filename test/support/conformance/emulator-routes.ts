/** The emulator's own route tables (compiled, from dist/), to name the routes it serves and compare them with the description. */
import { loadDist } from "../dist.js";

const routesLib = loadDist<typeof import("../../../emulator/platform/routes.js")>(
  "emulator/platform/routes.js",
);
const routingLib = loadDist<typeof import("../../../emulator/http/routing.js")>("emulator/http/routing.js");

/** The proxy's names for the emulator's three listeners. */
export type Surface = "base" | "rest" | "serverless";

const SURFACE_OF = { base: "v2", rest: "rest", serverless: "serverless" } as const;

/** Every route the emulator serves on `surface`: method and pattern (`/v2/pods/:id`). */
export function emulatorRoutes(surface: Surface): { method: string; pattern: string }[] {
  return (routesLib.allRoutes()[SURFACE_OF[surface]] ?? []).map((r) => ({
    method: r.method,
    pattern: r.pattern,
  }));
}

const compiled = new Map<Surface, ReturnType<typeof routingLib.compile>[]>();

/** The emulator's name for a request (`PATCH /v2/pods/:id`), or undefined when no route matches. */
export function emulatorRouteName(surface: Surface, method: string, path: string): string | undefined {
  let routes = compiled.get(surface);
  if (!routes) {
    routes = (routesLib.allRoutes()[SURFACE_OF[surface]] ?? []).map(routingLib.compile);
    compiled.set(surface, routes);
  }
  const match = routingLib.matchRoute(routes, method, path);
  return match && "route" in match ? `${method} ${match.route.pattern}` : undefined;
}

/**
 * A path with its parameters blanked, by position: the OpenAPI template `/v2/pods/{id}` and the
 * emulator's pattern `/v2/pods/:podId` both give `/v2/pods/:`, whatever either names them.
 */
export function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}|:[^/]+/g, ":");
}

/** Whether the emulator serves `method` on an OpenAPI path template of base_url. */
export function emulatorServes(method: string, template: string): boolean {
  const wanted = pathShape(template);
  return emulatorRoutes("base").some((r) => r.method === method && pathShape(r.pattern) === wanted);
}
