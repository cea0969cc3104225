/** Route table types shared by the API-area modules and the HTTP wiring. */
import type { IncomingHttpHeaders } from "node:http";
import type { EmulatorState } from "./state.js";

export type Surface = "v2" | "rest" | "serverless";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext {
  readonly state: EmulatorState;
  readonly method: Method;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  /** The authenticated API key. */
  readonly apiKey: string;
  /** Emulator time when the request arrived. */
  readonly now: number;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Route {
  readonly method: Method;
  /** Path with `:name` parameters, e.g. `/v2/pods/:id`. */
  readonly pattern: string;
  readonly handler: (ctx: RouteContext) => Reply | Promise<Reply>;
  /**
   * Largest body accepted. Bodies over it answer 413, before authentication when `sizeBeforeAuth`
   * (contract: "Request-size rejection (413) happens before authentication"). @default 1 MiB
   */
  readonly maxBodyBytes?: number;
  readonly sizeBeforeAuth?: boolean;
}

export type RouteTable = Partial<Record<Surface, readonly Route[]>>;

export const json = (status: number, body: unknown): Reply => ({ status, body });
export const noContent: Reply = { status: 204 };

export interface CompiledRoute extends Route {
  readonly regex: RegExp;
  readonly names: readonly string[];
}

export function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split("/")
    .map((part) => {
      if (!part.startsWith(":")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(part.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { ...route, regex: new RegExp(`^${source}$`), names };
}

export function matchRoute(
  routes: readonly CompiledRoute[],
  method: string,
  path: string,
): { route: CompiledRoute; params: Record<string, string> } | { allowed: string[] } | undefined {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.regex.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1] ?? "");
    });
    return { route, params };
  }
  return allowed.length > 0 ? { allowed } : undefined;
}
