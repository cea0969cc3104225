/**
 * Provider configuration: Pulumi config keys first, then environment variables, then the real
 * service's addresses. `runpod:restUrl` / RUNPOD_REST_URL named the address of REST v1, which RunPod
 * retired on 2026-11-15: nothing reads them any more, so a stack that still sets them is unaffected. The API key is read at run time (in the provider host's `configure`, or by
 * the CLI), never at program load time where the closure serializer could capture it.
 */
import { ERROR_CODES, RunpodApiError } from "./errors.js";

/** Where each setting comes from. `secret` settings must be set with `pulumi config set --secret`. */
export const SETTINGS = [
  { field: "apiKey", key: "runpod:apiKey", env: "RUNPOD_API_KEY", secret: true, default: undefined },
  {
    field: "baseUrl",
    key: "runpod:baseUrl",
    env: "RUNPOD_BASE_URL",
    secret: false,
    default: "https://api.runpod.io",
  },
  {
    field: "serverlessUrl",
    key: "runpod:serverlessUrl",
    env: "RUNPOD_SERVERLESS_URL",
    secret: false,
    default: "https://api.runpod.ai",
  },
  {
    field: "proxyUrl",
    key: "runpod:proxyUrl",
    env: "RUNPOD_PROXY_URL",
    secret: false,
    default: "https://{podId}-{port}.proxy.runpod.net",
  },
  { field: "teamId", key: "runpod:teamId", env: "RUNPOD_TEAM_ID", secret: false, default: undefined },
  {
    field: "allowInsecureHttp",
    key: "runpod:allowInsecureHttp",
    env: "RUNPOD_ALLOW_INSECURE_HTTP",
    secret: false,
    default: "false",
  },
] as const;

export interface RunpodSettings {
  /** Absent until a call needs it: preview, check and diff work without a key. */
  readonly apiKey: string | undefined;
  /** `{base_url}`: pods, catalog, account, templates, network volumes (paths `/v2/...`). */
  readonly baseUrl: string;
  /** `{serverless_url}`: jobs on hosted model and serverless endpoints (paths `/v2/{endpoint_id}/...`). */
  readonly serverlessUrl: string;
  /**
   * A pod's HTTP port as the outside reaches it (RunPod's HTTP proxy), a template with `{podId}`
   * and `{port}`: where readiness probes go. No API key is ever sent there.
   */
  readonly proxyUrl: string;
  /** Sent as `X-Team-Id` when set, and only then. */
  readonly teamId: string | undefined;
  /** Allows plain http to non-loopback hosts. Off by default: the bearer token must not travel in clear. */
  readonly allowInsecureHttp: boolean;
}

export type SettingsLookup = (key: string) => string | undefined;

/**
 * Resolves settings from a Pulumi-style lookup (`runpod:apiKey`, ...) with environment fallbacks.
 * @example resolveSettings((k) => req.config.get(k))
 */
export function resolveSettings(lookup: SettingsLookup = () => undefined, env = process.env): RunpodSettings {
  const pick = (s: (typeof SETTINGS)[number]): string | undefined => {
    const v = lookup(s.key) ?? env[s.env];
    return v === undefined || v.trim() === "" ? s.default : v.trim();
  };
  const values = Object.fromEntries(SETTINGS.map((s) => [s.field, pick(s)])) as Record<
    (typeof SETTINGS)[number]["field"],
    string | undefined
  >;
  const allowInsecureHttp = /^(1|true|yes)$/i.test(values.allowInsecureHttp ?? "");
  const url = (field: "baseUrl" | "serverlessUrl"): string =>
    checkBaseUrl(field, values[field] ?? "", allowInsecureHttp);
  return {
    apiKey: values.apiKey,
    baseUrl: url("baseUrl"),
    serverlessUrl: url("serverlessUrl"),
    proxyUrl: checkProxyUrl(values.proxyUrl ?? ""),
    teamId: values.teamId,
    allowInsecureHttp,
  };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** A base URL is http(s), has no query or fragment, and uses TLS unless it is loopback or allowed. */
export function checkBaseUrl(field: string, value: string, allowInsecureHttp: boolean): string {
  const setting = SETTINGS.find((s) => s.field === field);
  const where = setting ? `${setting.key} / ${setting.env}` : field;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw configError(`${where} is not a URL: ${JSON.stringify(value)}.`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw configError(`${where} must be an http(s) URL, got ${u.protocol}.`);
  }
  if (u.search || u.hash || u.username || u.password) {
    throw configError(`${where} must not carry credentials, a query or a fragment.`);
  }
  if (u.protocol === "http:" && !LOOPBACK.has(u.hostname) && !allowInsecureHttp) {
    throw configError(
      `${where} uses plain http to ${u.hostname}; the API key would travel unencrypted. Use https, or set runpod:allowInsecureHttp / RUNPOD_ALLOW_INSECURE_HTTP=true if you really mean it.`,
    );
  }
  return u.toString().replace(/\/+$/, "");
}

/** The proxy template names both placeholders and is an http(s) URL once they are filled in. */
function checkProxyUrl(value: string): string {
  const where = "runpod:proxyUrl / RUNPOD_PROXY_URL";
  if (!value.includes("{podId}") || !value.includes("{port}")) {
    throw configError(`${where} must contain {podId} and {port}, got ${JSON.stringify(value)}.`);
  }
  let u: URL;
  try {
    u = new URL(value.replace("{podId}", "pod").replace("{port}", "80"));
  } catch {
    throw configError(
      `${where} is not a URL once {podId} and {port} are filled in: ${JSON.stringify(value)}.`,
    );
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") {
    throw configError(`${where} must be an http(s) URL, got ${u.protocol}.`);
  }
  return value.replace(/\/+$/, "");
}

export function requireApiKey(settings: RunpodSettings): string {
  if (!settings.apiKey) {
    throw configError(
      "No RunPod API key. Set it with `pulumi config set --secret runpod:apiKey <key>` or the RUNPOD_API_KEY environment variable.",
    );
  }
  return settings.apiKey;
}

function configError(message: string): RunpodApiError {
  return new RunpodApiError({ code: ERROR_CODES.INVALID_CONFIG, message, outcome: "not-sent" });
}
