/**
 * `runpod-dynamic serverless create --hub-id <listing> --name <name> [--gpu-id <id>]` (contract:
 * "Command-line commands", Deploying from the hub; issue 7).
 *
 * Reads the hub listing and its listed release, then creates a serverless template from the
 * release's built image and an endpoint on it. GPU ids and the container disk come from the
 * release config (a JSON-encoded string): `gpuIds` is a comma-separated list of serverless pool ids
 * (`ADA_24`) or GPU type ids, resolved to GPU type ids through the GPU catalog's `pool` field;
 * `--gpu-id` overrides it. A listing whose config says `runsOn: CPU` gets a CPU endpoint.
 *
 * Why REST and two calls, not runpodctl's single GraphQL `saveEndpoint` with an inline template and
 * `hubReleaseId`: the contract specifies serverless endpoint management as
 * `POST {rest_url}/v1/endpoints` with a `templateId`, and that is the route the provider's client,
 * the emulator and the provider's ServerlessEndpoint resource share. The v1 body has no
 * `hubReleaseId`, so the hub's deploy counter is not credited; the endpoint is otherwise the same.
 *
 * JSON/YAML output: `id`, `name`, `templateId`, `computeType`, `gpuTypeIds`, `gpuCount`,
 * `cpuFlavorIds`, `vcpuCount`, `image`, `containerDiskInGb`, `hubListingId`, `hubReleaseId`,
 * `jobUrl` (`{serverless_url}/v2/{id}/`).
 */
import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import { isRunpodApiError, type RunpodApi, type schemas } from "../provider/client/index.js";
import { createOnce, mayHaveLanded } from "../provider/create-once.js";
import { connect } from "./connect.js";
import { CliError, UsageError } from "./errors.js";
import { listingRef, readReleaseConfig } from "./hub.js";
import { fields, type Terminal } from "./output.js";
import { addOutputOptions, type FormatOptions, textOption } from "./parse.js";

/** runpodctl's defaults: a 10 GB container disk, and CPU workers of flavor cpu3g with 4 vCPUs. */
const DEFAULT_CONTAINER_DISK_GB = 10;
const DEFAULT_CPU_FLAVOR = "cpu3g";
const DEFAULT_VCPU_COUNT = 4;

interface CreateOptions extends FormatOptions {
  hubId: string;
  name: string;
  gpuId?: string;
}

type GpuType = schemas.GpuType;
type HubReleaseConfig = schemas.HubReleaseConfig;

/**
 * GPU type ids for a comma-separated list of pool ids and GPU type ids, matched case-insensitively,
 * in the list's order (a pool expands to its GPU types in catalog order), without repeats. Only
 * GPU types that serverless offers (those in a pool) count. Undefined entries name the unknown ids.
 */
function resolveGpuIds(
  list: string,
  catalog: readonly GpuType[],
): { gpuTypeIds: string[]; unknown: string[] } {
  const serverless = catalog.filter((g) => g.pool);
  const gpuTypeIds: string[] = [];
  const unknown: string[] = [];
  for (const token of list
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const wanted = token.toLowerCase();
    const byType = serverless.filter((g) => g.id.toLowerCase() === wanted);
    const matches = byType.length > 0 ? byType : serverless.filter((g) => g.pool?.toLowerCase() === wanted);
    if (matches.length === 0) unknown.push(token);
    for (const g of matches) if (!gpuTypeIds.includes(g.id)) gpuTypeIds.push(g.id);
  }
  return { gpuTypeIds, unknown };
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

/** What the endpoint runs on: GPU types (from `--gpu-id` or the config) or the default CPU flavor. */
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
    return {
      computeType: "CPU" as const,
      cpuFlavorIds: [DEFAULT_CPU_FLAVOR],
      vcpuCount: DEFAULT_VCPU_COUNT,
    };
  }
  if (gpuIdFlag === undefined && !config.gpuIds) {
    throw new UsageError(`hub listing '${hubId}' names no GPU ids in its release config; pass --gpu-id.`);
  }
  const catalog = await spin("Reading the GPU catalog", () => api.listGpuTypes());
  if (gpuIdFlag !== undefined) {
    const { gpuTypeIds, unknown } = resolveGpuIds(gpuIdFlag, catalog);
    if (unknown.length > 0 || gpuTypeIds.length === 0) {
      throw new UsageError(`--gpu-id '${gpuIdFlag}' is not ${knownGpuIds(catalog)}.`);
    }
    return { computeType: "GPU" as const, gpuTypeIds, gpuCount: config.gpuCount ?? 1 };
  }
  const { gpuTypeIds, unknown } = resolveGpuIds(config.gpuIds ?? "", catalog);
  if (unknown.length > 0 || gpuTypeIds.length === 0) {
    throw new CliError(
      `hub listing '${hubId}' asks for GPU ids that serverless does not offer (${unknown.join(", ") || config.gpuIds}); pass --gpu-id with ${knownGpuIds(catalog)}.`,
    );
  }
  return { computeType: "GPU" as const, gpuTypeIds, gpuCount: config.gpuCount ?? 1 };
}

export function registerServerless(program: Command, out: Terminal): void {
  const serverless = program.command("serverless").description("Serverless endpoints.");
  addOutputOptions(
    serverless
      .command("create")
      .description(
        "Deploy a hub repository as a serverless endpoint: a template from its release's image, then the endpoint.",
      )
      .requiredOption(
        "--hub-id <listing_id>",
        "hub listing to deploy (see `hub search`)",
        textOption("--hub-id"),
      )
      .requiredOption("--name <name>", "endpoint name", textOption("--name"))
      .option(
        "--gpu-id <id>",
        "GPU type id (e.g. 'NVIDIA L40S') or serverless pool id (e.g. ADA_24) instead of the release config's",
        textOption("--gpu-id"),
      ),
  )
    .addHelpText(
      "after",
      "\nGPU ids and the container disk come from the listing's release config. Jobs go to {serverless_url}/v2/<endpoint id>/ (see `jobs run`).\n\nJSON fields: id, name, templateId, computeType, gpuTypeIds, gpuCount, cpuFlavorIds, vcpuCount, image, containerDiskInGb, hubListingId, hubReleaseId, jobUrl.",
    )
    .action(async (opts: CreateOptions) => {
      if (opts.gpuId?.includes(",")) {
        throw new UsageError("--gpu-id takes one GPU type or pool id.");
      }
      const ref = listingRef(opts.hubId);
      const { api, settings } = connect(out);
      const spin = <T>(text: string, work: () => Promise<T>) => out.spin(text, work);

      const listing = await spin("Reading the hub listing", () => api.hubListing(ref));
      if (!listing) {
        throw new CliError(
          `hub listing not found: ${opts.hubId}. Find listings with \`runpod-dynamic hub search <name>\`.`,
          "NOT_FOUND",
        );
      }
      if (listing.type.toUpperCase() === "POD") {
        throw new CliError(
          `hub listing '${opts.hubId}' is a POD listing; only SERVERLESS listings deploy here.`,
        );
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

      // runpodctl's template naming: unique per create, traceable to the endpoint. The name also
      // tells the template an unanswered create made from any other (createOnce).
      const suffix = randomBytes(8).toString("hex").slice(0, 7);
      const templateName = `${opts.name}__template__${suffix}`;
      const claimed = new Set<string>();
      const template = await spin("Creating the template", () =>
        createOnce({
          what: `a template named ${templateName}`,
          create: () =>
            api.createTemplate({
              name: templateName,
              image,
              disk,
              env: envFrom(config),
              serverless: true,
              category: placement.computeType === "CPU" ? "CPU" : "NVIDIA",
            }),
          list: () => api.listTemplates(),
          matches: (t) => t.name === templateName && t.image === image,
          claimed,
        }),
      );
      let endpoint: schemas.Endpoint;
      try {
        endpoint = await spin("Creating the endpoint", () =>
          createOnce({
            what: `an endpoint named ${opts.name} on template ${template.id}`,
            create: () =>
              api.createEndpoint({
                name: opts.name,
                templateId: template.id,
                ...placement,
                ...(placement.computeType === "GPU" && config.allowedCudaVersions?.length
                  ? { allowedCudaVersions: config.allowedCudaVersions }
                  : {}),
              }),
            list: () => api.listEndpoints(),
            matches: (e) => e.name === opts.name && e.templateId === template.id,
            claimed,
          }),
        );
      } catch (err) {
        throw await withTemplateCleanup(api, template.id, err);
      }

      const jobUrl = `${settings.serverlessUrl}/v2/${endpoint.id}/`;
      const view = {
        id: endpoint.id,
        name: endpoint.name ?? opts.name,
        templateId: template.id,
        computeType: placement.computeType,
        gpuTypeIds: endpoint.gpuTypeIds ?? ("gpuTypeIds" in placement ? placement.gpuTypeIds : []),
        gpuCount: placement.computeType === "GPU" ? (endpoint.gpuCount ?? placement.gpuCount) : null,
        cpuFlavorIds: endpoint.cpuFlavorIds ?? ("cpuFlavorIds" in placement ? placement.cpuFlavorIds : []),
        vcpuCount: placement.computeType === "CPU" ? (endpoint.vcpuCount ?? placement.vcpuCount) : null,
        image,
        containerDiskInGb: template.disk,
        hubListingId: listing.id,
        hubReleaseId: release.id,
        jobUrl,
      };
      out.data(view, () => [
        `Created serverless endpoint ${view.id} from hub listing ${listing.id} (release ${release.name ?? release.id}).`,
        "",
        ...fields([
          ["Endpoint", `${view.id} (${view.name})`],
          ["Template", template.id],
          ["Image", image],
          ["Container disk", `${view.containerDiskInGb} GB`],
          view.computeType === "GPU"
            ? ["GPU types", `${view.gpuTypeIds.join(", ")} (x${view.gpuCount})`]
            : ["CPU", `${view.cpuFlavorIds.join(", ")}, ${view.vcpuCount} vCPUs per worker`],
          ["Jobs", jobUrl],
        ]),
        "",
        `Run a job: runpod-dynamic jobs run --endpoint-id ${view.id} --input '{"prompt": "..."}' --wait`,
      ]);
    });
}

/**
 * The template was made only for this endpoint: when the endpoint create was rejected, delete it
 * rather than leave an orphan. When it may still have landed (no answer even after createOnce sent
 * it again, or the look-up for it failed), the endpoint may exist and hold the template, so the
 * template is kept and named in the error.
 */
async function withTemplateCleanup(api: RunpodApi, templateId: string, err: unknown): Promise<unknown> {
  if (!(err instanceof Error)) return err;
  const unanswered: boolean = mayHaveLanded(err);
  if (unanswered || !isRunpodApiError(err)) {
    err.message += ` The endpoint may have been created; template ${templateId} was kept.`;
    return err;
  }
  try {
    await api.deleteTemplate(templateId);
  } catch {
    err.message += ` Template ${templateId} was created for it and could not be deleted; delete it yourself.`;
  }
  return err;
}
