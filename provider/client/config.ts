/**
 * Provider configuration: Pulumi config keys first, then environment variables, then the real
 * service's addresses. `runpod:restUrl` / RUNPOD_REST_URL named the address of REST v1, which
 * RunPod retired on 2026-11-15: nothing reads them any more, so a stack that still sets them is
 * unaffected. The API key is read at run time (in the provider host's `configure`, or by the CLI),
 * never at program load time where the closure serializer could capture it.
 */
import { ERROR_CODES, RunpodApiError } from "./errors.js";
import { DEFAULT_SHARE_FOR_OTHERS } from "./rate-limit.js";

/**
 * Each setting, declared once: its field, what it is, its environment variable, whether it is a
 * secret (set it with `pulumi config set --secret`), its type and its default. The dynamic provider
 * reads it as `runpod:<field>`, the provider plugin as `runpod-dynamic:<field>` (`CONFIG_NAMESPACES`).
 */
export const SETTINGS = [
  {
    field: "apiKey",
    description:
      "The RunPod API key. Absent until a call needs it: preview, check and diff work without one.",
    env: "RUNPOD_API_KEY",
    secret: true,
    type: "string",
    default: undefined,
  },
  {
    field: "baseUrl",
    description: "Where the v2 API is: pods, catalog, account, templates, network volumes (paths `/v2/...`).",
    env: "RUNPOD_BASE_URL",
    secret: false,
    type: "string",
    default: "https://api.runpod.io",
  },
  {
    field: "serverlessUrl",
    description: "Where jobs on hosted model and serverless endpoints go (paths `/v2/{endpoint_id}/...`).",
    env: "RUNPOD_SERVERLESS_URL",
    secret: false,
    type: "string",
    default: "https://api.runpod.ai",
  },
  {
    field: "proxyUrl",
    description:
      "A pod's HTTP port as the outside reaches it (RunPod's HTTP proxy), a template with `{podId}` and `{port}`: where readiness probes go. No API key is ever sent there.",
    env: "RUNPOD_PROXY_URL",
    secret: false,
    type: "string",
    default: "https://{podId}-{port}.proxy.runpod.net",
  },
  {
    field: "teamId",
    description: "The team to act for, sent as `X-Team-Id` when set, and only then.",
    env: "RUNPOD_TEAM_ID",
    secret: false,
    type: "string",
    default: undefined,
  },
  {
    field: "allowInsecureHttp",
    description:
      "Allows plain http to hosts other than this machine. Off by default: the API key must not travel in clear.",
    env: "RUNPOD_ALLOW_INSECURE_HTTP",
    secret: false,
    type: "boolean",
    default: "false",
  },
  {
    field: "quotaShareForOthers",
    description:
      "The part of each rate-limit window (0 to 0.5) the provider never takes, so that the key's other callers (runpodctl, a notebook, another tool) find room: 0.1 leaves 6 of 60 requests a minute.",
    env: "RUNPOD_QUOTA_SHARE_FOR_OTHERS",
    secret: false,
    type: "number",
    default: String(DEFAULT_SHARE_FOR_OTHERS),
  },
] as const;

/** The config namespace of each door: the dynamic provider's, and the provider plugin's (its package name). */
export const CONFIG_NAMESPACES = { dynamic: "runpod", plugin: "runpod-dynamic" } as const;
export type ConfigNamespace = (typeof CONFIG_NAMESPACES)[keyof typeof CONFIG_NAMESPACES];

/** How a message names a setting: its config key in the door's namespace, and its environment variable. */
export function settingName(field: (typeof SETTINGS)[number]["field"], namespace: ConfigNamespace): string {
  const setting = SETTINGS.find((s) => s.field === field);
  return `${namespace}:${field}${setting ? ` / ${setting.env}` : ""}`;
}

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
  /** The part of each rate-limit window left to the key's other callers (0 to 0.5). */
  readonly quotaShareForOthers: number;
  /** The config namespace the settings were read from, which every message about a setting names. */
  readonly configNamespace: ConfigNamespace;
}

/** A config value by its key (`runpod:apiKey`): text, or a value (a boolean, a number) as it was set. */
export type SettingsLookup = (key: string) => unknown;

/**
 * Resolves settings from a Pulumi-style lookup (`runpod:apiKey`, ...) with environment fallbacks.
 * `namespace` is the door's (`CONFIG_NAMESPACES`): messages name its keys.
 * @example resolveSettings((k) => req.config.get(k))
 */
export function resolveSettings(
  lookup: SettingsLookup = () => undefined,
  env = process.env,
  namespace: ConfigNamespace = CONFIG_NAMESPACES.dynamic,
): RunpodSettings {
  const pick = (s: (typeof SETTINGS)[number]): string | undefined => {
    const given = lookup(`${namespace}:${s.field}`);
    const v = given === undefined || given === null ? env[s.env] : String(given);
    return v === undefined || v.trim() === "" ? s.default : v.trim();
  };
  const values = Object.fromEntries(SETTINGS.map((s) => [s.field, pick(s)])) as Record<
    (typeof SETTINGS)[number]["field"],
    string | undefined
  >;
  const allowInsecureHttp = /^(1|true|yes)$/i.test(values.allowInsecureHttp ?? "");
  const url = (field: "baseUrl" | "serverlessUrl"): string =>
    checkBaseUrl(field, values[field] ?? "", allowInsecureHttp, namespace);
  const baseUrl = url("baseUrl");
  if (namespace === CONFIG_NAMESPACES.dynamic) checkOfficialApiUrl(lookup(OFFICIAL_API_URL), baseUrl);
  return {
    apiKey: values.apiKey,
    baseUrl,
    serverlessUrl: url("serverlessUrl"),
    proxyUrl: checkProxyUrl(values.proxyUrl ?? "", namespace),
    teamId: values.teamId,
    allowInsecureHttp,
    quotaShareForOthers: checkShareForOthers(values.quotaShareForOthers ?? "", namespace),
    configNamespace: namespace,
  };
}

/** The most of each window a process may leave to others: past half, a fleet would mostly wait. */
const MOST_SHARE_FOR_OTHERS = 0.5;

/** A share for others is a number from 0 to 0.5. */
function checkShareForOthers(value: string, namespace: ConfigNamespace): number {
  const share = Number(value);
  if (value === "" || !Number.isFinite(share) || share < 0 || share > MOST_SHARE_FOR_OTHERS) {
    throw configError(
      `${settingName("quotaShareForOthers", namespace)} must be a number from 0 to ${MOST_SHARE_FOR_OTHERS}, got ${JSON.stringify(value)}.`,
    );
  }
  return share;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** A base URL is http(s), has no query or fragment, and uses TLS unless it is loopback or allowed. */
export function checkBaseUrl(
  field: "baseUrl" | "serverlessUrl",
  value: string,
  allowInsecureHttp: boolean,
  namespace: ConfigNamespace = CONFIG_NAMESPACES.dynamic,
): string {
  const where = settingName(field, namespace);
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
      `${where} uses plain http to ${u.hostname}; the API key would travel unencrypted. Use https, or set ${settingName("allowInsecureHttp", namespace)}=true if you really mean it.`,
    );
  }
  return u.toString().replace(/\/+$/, "");
}

/** The proxy template names both placeholders and is an http(s) URL once they are filled in. */
function checkProxyUrl(value: string, namespace: ConfigNamespace): string {
  const where = settingName("proxyUrl", namespace);
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

/** RunPod's official Pulumi provider's address setting, in the namespace the dynamic provider reads. */
const OFFICIAL_API_URL = `${CONFIG_NAMESPACES.dynamic}:apiUrl`;

/**
 * A stack moving from RunPod's official provider holds its `runpod:apiUrl` (a GraphQL address) in
 * the namespace the dynamic provider reads too. runpod-dynamic does not read it; one that sends the
 * official provider to another host than runpod-dynamic's `baseUrl` is refused, rather than
 * followed by requests to the other service (docs/from-pulumi-runpod.md, "The runpod: namespace").
 * A value that is not a URL is the official provider's to refuse.
 */
function checkOfficialApiUrl(given: unknown, baseUrl: string): void {
  if (given === undefined || given === null || String(given).trim() === "") return;
  let host: string;
  try {
    host = new URL(String(given).trim()).host;
  } catch {
    return;
  }
  if (host === new URL(baseUrl).host) return;
  throw configError(
    `${OFFICIAL_API_URL} is ${JSON.stringify(given)}: that is RunPod's official Pulumi provider's (GraphQL) address, which runpod-dynamic does not read, and runpod-dynamic's requests would go to ${baseUrl} (${settingName("baseUrl", CONFIG_NAMESPACES.dynamic)}), another host. Set ${CONFIG_NAMESPACES.dynamic}:baseUrl to the v2 address of the same service, or remove ${OFFICIAL_API_URL} once the official provider's resources have left the stack.`,
  );
}

export function requireApiKey(settings: RunpodSettings): string {
  if (!settings.apiKey) {
    throw configError(
      `No RunPod API key. Set it with \`pulumi config set --secret ${settings.configNamespace}:apiKey <key>\` or the RUNPOD_API_KEY environment variable.`,
    );
  }
  return settings.apiKey;
}

function configError(message: string): RunpodApiError {
  return new RunpodApiError({ code: ERROR_CODES.INVALID_CONFIG, message, outcome: "not-sent" });
}
