/** Route table types shared by the API-area modules and the HTTP wiring. */
import type { IncomingHttpHeaders } from "node:http";
import type { Store } from "../store/store.js";

export type Surface = "v2" | "rest" | "serverless";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteContext {
  readonly state: Store;
  readonly method: Method;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
  /** The authenticated API key; "" for an anonymous request to a route with `auth: "optional"`. */
  readonly apiKey: string;
  /**
   * The account the request acts for (account/accounts.ts): the key's user, its team, or the team its
   * `X-Team-Id` names; "" for an anonymous request. It sees and changes only that account's resources.
   */
  readonly account: string;
  /** Emulator time when the request arrived. */
  readonly now: number;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A streamed answer: the wiring sends the status and headers (with `body` ignored), then hands
   * the open response to `stream`, which writes and ends it.
   */
  readonly stream?: (out: StreamSink) => void;
}

/** The open response of a streamed answer. */
export interface StreamSink {
  write(text: string): void;
  end(): void;
  /** True once the client went away or the answer ended. */
  readonly closed: boolean;
  /** Called once when the client goes away or the answer ends (also when the emulator closes). */
  onClose(listener: () => void): void;
}

export interface Route {
  readonly method: Method;
  /** Path with `:name` parameters, e.g. `/v2/pods/:id`. */
  readonly pattern: string;
  readonly handler: (ctx: RouteContext) => Reply | Promise<Reply>;
  /**
   * Largest body accepted. Bodies over it answer 413, before authentication when `sizeBeforeAuth`
   * (docs/api-model.md, Authentication 6). @default 1 MiB
   */
  readonly maxBodyBytes?: number;
  readonly sizeBeforeAuth?: boolean;
  /**
   * `optional`: a request without an Authorization header is served anonymously (`apiKey` ""),
   * counted against one shared anonymous quota; a header with a bad key is still a 401.
   * @default "required"
   */
  readonly auth?: "required" | "optional";
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
    const params = decodeParams(route.names, m);
    // A parameter that is not valid percent-encoding matches no route: auth, then 404, as usual.
    if (!params) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    return { route, params };
  }
  return allowed.length > 0 ? { allowed } : undefined;
}

/** The named path parameters, percent-decoded; undefined when one is malformed (`%E0%A4%A`). */
function decodeParams(names: readonly string[], m: RegExpExecArray): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const value = safeDecode(m[i + 1] ?? "");
    if (value === undefined) return undefined;
    params[name] = value;
  }
  return params;
}

/** `decodeURIComponent`, or undefined for malformed percent-encoding instead of a URIError. */
export function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** `include=A,B` and repeated `include=A&include=B` both give a list (form style, explode false or true). */
export function queryList(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "");
}
