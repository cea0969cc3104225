/**
 * `runpod-dynamic serverless create --hub-id <listing> --name <name> [--gpu-id <id>]` (docs/api-model.md,
 * Command-line commands, Deploying from the hub).
 *
 * Reads the hub listing and its listed release, then creates a serverless endpoint running the
 * release's built image: `POST {base_url}/v2/serverless` takes the container settings directly, so
 * no template is made. The container disk and GPU ids come from the release config (a JSON-encoded
 * string): `gpuIds` is a comma-separated list of serverless pool ids (`ADA_24`) or GPU type ids;
 * `--gpu-id` overrides it. v2 places workers by pool: a pool id selects the whole pool, a GPU type id
 * selects its pool with the pool's other types excluded (`gpu.excludedTypes`). A listing whose
 * config says `runsOn: CPU` gets a CPU endpoint.
 *
 * runpodctl deploys through GraphQL `saveEndpoint` with the listing's `hubReleaseId`, which credits
 * the hub's deploy counter; the v2 body has no such field, so this CLI does not. The endpoint is
 * otherwise the same.
 *
 * JSON/YAML output: `id`, `name`, `type`, `computeType`, `gpuPools`, `excludedGpuTypes`,
 * `gpuTypeIds` (the types workers may run on), `gpuCount`, `cpuFlavorIds`, `vcpuCount`, `image`,
 * `containerDiskInGb`, `hubListingId`, `hubReleaseId`, `requestUrls`, `jobUrl`
 * (`{serverless_url}/v2/{id}/`).
 */

import { createOnce } from "../../provider/client/create-once.js";
import type { RunpodApi, schemas } from "../../provider/client/index.js";
import { connect } from "../connect.js";
import { CliError, UsageError } from "../errors.js";
import { listingRef, readReleaseConfig } from "../hub-listing.js";
import { hubSource } from "../hub-source.js";
import { fields, type Terminal } from "../output.js";
import type { FormatOptions } from "../parse.js";

/** runpodctl's defaults: a 10 GB container disk, and CPU workers of flavor cpu3g with 4 vCPUs. */
const DEFAULT_CONTAINER_DISK_GB = 10;
const DEFAULT_CPU_FLAVOR = "cpu3g";
const DEFAULT_VCPU_COUNT = 4;

export interface CreateOptions extends FormatOptions {
  hubId: string;
  name: string;
  gpuId?: string;
}

type GpuType = schemas.GpuType;
type HubReleaseConfig = schemas.HubReleaseConfig;

/**
 * The GPU selection for a comma-separated list of pool ids and GPU type ids, matched
 * case-insensitively, in the list's order: a pool id takes the whole pool; GPU type ids take their
 * pool minus its other types. Only GPU types that serverless offers (those in a pool) count.
 * `unknown` names the ids that match neither.
 */
export function resolveGpuIds(
  list: string,
  catalog: readonly GpuType[],
): { pools: string[]; excludedTypes: string[]; gpuTypeIds: string[]; unknown: string[] } {
  const serverless = catalog.filter((g): g is GpuType & { pool: string } => Boolean(g.pool));
  const wholePools = new Set<string>();
  const picked = new Map<string, Set<string>>();
  const pools: string[] = [];
  const unknown: string[] = [];
  for (const token of list
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const wanted = token.toLowerCase();
    const type = serverless.find((g) => g.id.toLowerCase() === wanted);
    const pool = type?.pool ?? serverless.find((g) => g.pool.toLowerCase() === wanted)?.pool;
    if (pool === undefined) {
      unknown.push(token);
      continue;
    }
    if (!pools.includes(pool)) pools.push(pool);
    if (type) picked.set(pool, (picked.get(pool) ?? new Set()).add(type.id));
    else wholePools.add(pool);
  }
  const inPool = (pool: string) => serverless.filter((g) => g.pool === pool).map((g) => g.id);
  const excludedTypes = pools.flatMap((pool) =>
    wholePools.has(pool) ? [] : inPool(pool).filter((id) => !picked.get(pool)?.has(id)),
  );
  const gpuTypeIds = pools.flatMap((pool) => inPool(pool).filter((id) => !excludedTypes.includes(id)));
  return { pools, excludedTypes, gpuTypeIds, unknown };
}

function knownGpuIds(catalog: readonly GpuType[]): string {
  const serverless = catalog.filter((g) => g.pool);
  const pools = [...new Set(serverless.map((g) => g.pool))].join(", ");
  return `a serverless pool id (${pools}) or a GPU type id (${serverless.map((g) => g.id).join(", ")})`;
}

function parseConfig(hubId: string, text: string | null | undefined): HubReleaseConfig {
  const read = readReleaseConfig(text);
  if ("problem" in read) {
    throw new CliError(`hub listing '${hubId}' has a release config this CLI cannot read: ${read.problem}.`);
  }
  return read.config;
}

/** Template env from the config's inputs: each key with its default as text, "" without one. */
function envFrom(config: HubReleaseConfig): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of config.env ?? []) {
    const value = entry.input?.default;
    env[entry.key] =
      value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  }
  return env;
}

/** What the endpoint runs on: GPU pools (from `--gpu-id` or the config) or the default CPU flavor. */
async function placementFor(
  api: RunpodApi,
  hubId: string,
  config: HubReleaseConfig,
  gpuIdFlag: string | undefined,
  spin: <T>(text: string, work: () => Promise<T>) => Promise<T>,
) {
  const runsOn = (config.runsOn ?? "GPU").toUpperCase();
  if (runsOn !== "GPU" && runsOn !== "CPU") {
    throw new CliError(`hub listing '${hubId}' has an unsupported runsOn value '${config.runsOn}'.`);
  }
  if (runsOn === "CPU") {
    if (gpuIdFlag !== undefined) {
      throw new UsageError(`--gpu-id cannot be used: hub listing '${hubId}' runs on CPU.`);
    }
    return { kind: "CPU" as const, cpu: [{ id: DEFAULT_CPU_FLAVOR, vcpuCount: DEFAULT_VCPU_COUNT }] };
  }
  if (gpuIdFlag === undefined && !config.gpuIds) {
    throw new UsageError(`hub listing '${hubId}' names no GPU ids in its release config; pass --gpu-id.`);
  }
  const catalog = await spin("Reading the GPU catalog", () => api.catalog.gpuTypes());
  const selection = resolveGpuIds(gpuIdFlag ?? config.gpuIds ?? "", catalog);
  if (selection.unknown.length > 0 || selection.pools.length === 0) {
    if (gpuIdFlag !== undefined)
      throw new UsageError(`--gpu-id '${gpuIdFlag}' is not ${knownGpuIds(catalog)}.`);
    throw new CliError(
      `hub listing '${hubId}' asks for GPU ids that serverless does not offer (${selection.unknown.join(", ") || config.gpuIds}); pass --gpu-id with ${knownGpuIds(catalog)}.`,
    );
  }
  return { kind: "GPU" as const, ...selection, count: config.gpuCount ?? 1 };
}

/** `serverless create --hub-id`: the endpoint, printed. */
export async function createFromHub(out: Terminal, opts: CreateOptions): Promise<void> {
  if (opts.gpuId?.includes(",")) {
    throw new UsageError("--gpu-id takes one GPU type or pool id.");
  }
  const ref = listingRef(opts.hubId);
  const { api, settings } = connect(out);
  const spin = <T>(text: string, work: () => Promise<T>) => out.spin(text, work);

  const listing = await spin("Reading the hub listing", () => hubSource(api).listing(ref));
  if (!listing) {
    throw new CliError(
      `hub listing not found: ${opts.hubId}. Find listings with \`runpod-dynamic hub search <name>\`.`,
      "NOT_FOUND",
    );
  }
  if (listing.type.toUpperCase() === "POD") {
    throw new CliError(`hub listing '${opts.hubId}' is a POD listing; only SERVERLESS listings deploy here.`);
  }
  const release = listing.listedRelease;
  if (!release) throw new CliError(`hub listing '${opts.hubId}' has no published release.`, "NO_RELEASE");
  const image = release.build?.imageName;
  if (!image) {
    throw new CliError(
      `hub listing '${opts.hubId}' has no built image; the release may still be building.`,
      "NO_IMAGE",
    );
  }
  const config = parseConfig(opts.hubId, release.config);
  const placement = await placementFor(api, opts.hubId, config, opts.gpuId, spin);
  const disk =
    config.containerDiskInGb !== undefined && config.containerDiskInGb > 0
      ? config.containerDiskInGb
      : DEFAULT_CONTAINER_DISK_GB;

  const gpu =
    placement.kind === "GPU"
      ? {
          pools: placement.pools,
          ...(placement.excludedTypes.length > 0 ? { excludedTypes: placement.excludedTypes } : {}),
          count: placement.count,
          ...(config.allowedCudaVersions?.length ? { allowedCudaVersions: config.allowedCudaVersions } : {}),
        }
      : undefined;
  const claimed = new Set<string>();
  const endpoint = await spin("Creating the endpoint", () =>
    createOnce({
      what: `an endpoint named ${opts.name}`,
      create: () =>
        api.endpoints.create({
          name: opts.name,
          type: "QUEUE",
          scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
          image,
          disk,
          env: envFrom(config),
          ...(gpu ? { gpu } : { cpu: placement.kind === "CPU" ? placement.cpu : [] }),
        }),
      list: () => api.endpoints.list(),
      matches: (e) => e.name === opts.name && e.image === image,
      claimed,
      clock: api.client.clock,
    }),
  );

  const jobUrl = `${settings.serverlessUrl}/v2/${endpoint.id}/`;
  const view = {
    id: endpoint.id,
    name: endpoint.name,
    type: endpoint.type ?? "QUEUE",
    computeType: placement.kind,
    gpuPools: endpoint.gpu?.pools ?? [],
    excludedGpuTypes: endpoint.gpu?.excludedTypes ?? [],
    gpuTypeIds: placement.kind === "GPU" ? placement.gpuTypeIds : [],
    gpuCount: endpoint.gpu ? (endpoint.gpu.count ?? 1) : null,
    cpuFlavorIds: (endpoint.cpu ?? []).map((c) => c.id),
    vcpuCount: endpoint.cpu?.[0]?.vcpuCount ?? null,
    image,
    containerDiskInGb: endpoint.disk ?? disk,
    hubListingId: listing.id,
    hubReleaseId: release.id,
    requestUrls: endpoint.requestUrls ?? {},
    jobUrl,
  };
  out.data(view, () => [
    `Created serverless endpoint ${view.id} from hub listing ${listing.id} (release ${release.name ?? release.id}).`,
    "",
    ...fields([
      ["Endpoint", `${view.id} (${view.name}, ${view.type})`],
      ["Image", image],
      ["Container disk", `${view.containerDiskInGb} GB`],
      view.computeType === "GPU"
        ? [
            "GPU pools",
            `${view.gpuPools.join(", ")}${view.excludedGpuTypes.length > 0 ? ` without ${view.excludedGpuTypes.join(", ")}` : ""} (x${view.gpuCount})`,
          ]
        : ["CPU", `${view.cpuFlavorIds.join(", ")}, ${view.vcpuCount} vCPUs per worker`],
      ["Jobs", jobUrl],
    ]),
    "",
    `Run a job: runpod-dynamic jobs run --endpoint-id ${view.id} --input '{"prompt": "..."}' --wait`,
  ]);
}
