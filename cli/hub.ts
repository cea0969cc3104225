/**
 * `runpod-dynamic hub list|search|get` (docs/api-model.md, Command-line commands), read
 * through the hub source (hub-source.ts): today the GraphQL queries runpodctl sends to
 * `{base_url}/graphql` (provider/client/schemas/hub.ts), which RunPod retires in early 2027.
 *
 * `listings(input)` has no type field, so `--type` is applied here to the page the hub answered,
 * exactly as runpodctl does: `--limit` may then return fewer. Like runpodctl, `limit` is always
 * sent, `offset` only when above 0, the search term, category and owner only when given.
 *
 * JSON/YAML output:
 * - list, search: an array of listings with `id`, `title`, `repoOwner`, `repoName`, `type`,
 *   `category`, `description`, `tags`, `stars`, `deploys`, `views`, `language`, `createdAt`,
 *   `updatedAt` (null when the hub has no value; `tags` is always an array).
 * - get: one listing with those fields plus `repoOwnerAvatarUrl`, `openIssues`, `watchers` and
 *   `listedRelease` (null, or `id`, `name`, `tagName`, `releasedAt`, `imageName`, and `config`: the
 *   release config as the hub stores it, a JSON-encoded string).
 */
import type { Command } from "commander";
import type { schemas } from "../provider/client/index.js";
import { HUB_ORDER_BY, HUB_ORDER_DIR, HUB_TYPES } from "../provider/client/schemas/hub.js";
import { connect } from "./connect.js";
import { CliError } from "./errors.js";
import { listingRef, readReleaseConfig } from "./hub-listing.js";
import { hubSource } from "./hub-source.js";
import { count, fields, type Terminal, table } from "./output.js";
import { addOutputOptions, choice, type FormatOptions, intOption, textOption } from "./parse.js";

type HubListingSummary = schemas.HubListingSummary;
type HubListing = schemas.HubListing;
type HubType = (typeof HUB_TYPES)[number];

interface ListOptions extends FormatOptions {
  type?: HubType;
  category?: string;
  owner?: string;
  orderBy: (typeof HUB_ORDER_BY)[number];
  orderDir: (typeof HUB_ORDER_DIR)[number];
  limit: number;
  offset: number;
}

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** A listing as list and search print it (stable field names; see the module comment). */
function summaryView(l: HubListingSummary) {
  return {
    id: l.id,
    title: orNull(l.title),
    repoOwner: l.repoOwner,
    repoName: l.repoName,
    type: l.type,
    category: orNull(l.category),
    description: orNull(l.description),
    tags: l.tags ?? [],
    stars: orNull(l.stars),
    deploys: orNull(l.deploys),
    views: orNull(l.views),
    language: orNull(l.language),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

/** A listing as get prints it. */
function listingView(l: HubListing) {
  const release = l.listedRelease;
  return {
    ...summaryView(l),
    repoOwnerAvatarUrl: orNull(l.repoOwnerAvatarUrl),
    openIssues: orNull(l.openIssues),
    watchers: orNull(l.watchers),
    listedRelease: release
      ? {
          id: release.id,
          name: orNull(release.name),
          tagName: orNull(release.tagName),
          releasedAt: orNull(release.releasedAt),
          imageName: orNull(release.build?.imageName),
          config: orNull(release.config),
        }
      : null,
  };
}

function addListOptions(command: Command): Command {
  command
    .addOption(
      choice(
        "--type <type>",
        "only listings of this type; applied client-side to the fetched page, so --limit may return fewer",
        HUB_TYPES,
      ),
    )
    .option("--category <category>", "only listings in this category, e.g. LLM, Image, Audio")
    .option("--owner <owner>", "only listings of this repository owner")
    .addOption(choice("--order-by <field>", "sort field", HUB_ORDER_BY, "stars"))
    .addOption(choice("--order-dir <dir>", "sort direction", HUB_ORDER_DIR, "desc"))
    .option("--limit <n>", "listings to fetch", intOption("--limit", 1, 1000), 10)
    .option("--offset <n>", "listings to skip (pagination)", intOption("--offset", 0, 1_000_000), 0);
  return addOutputOptions(command).addHelpText(
    "after",
    "\nJSON fields (one object per listing): id, title, repoOwner, repoName, type, category, description, tags, stars, deploys, views, language, createdAt, updatedAt.",
  );
}

async function listListings(out: Terminal, opts: ListOptions, searchQuery?: string): Promise<void> {
  const { api } = connect(out);
  const input = {
    ...(searchQuery ? { searchQuery } : {}),
    ...(opts.category ? { category: opts.category } : {}),
    limit: opts.limit,
    ...(opts.offset > 0 ? { offset: opts.offset } : {}),
    orderBy: opts.orderBy,
    orderDirection: opts.orderDir,
    ...(opts.owner ? { owner: opts.owner } : {}),
  };
  const page = await out.spin("Searching the hub", () => hubSource(api).listings(input));
  const wanted = opts.type;
  const listings = wanted ? page.filter((l) => l.type.toUpperCase() === wanted) : page;
  out.data(listings.map(summaryView), () => {
    const lines =
      listings.length === 0
        ? [searchQuery ? `No hub listings match '${searchQuery}'.` : "No hub listings found."]
        : table(
            [
              { header: "id" },
              { header: "type" },
              { header: "repo" },
              { header: "category" },
              { header: "stars", align: "right" },
              { header: "deploys", align: "right" },
              { header: "updated" },
            ],
            listings.map((l) => [
              l.id,
              l.type,
              `${l.repoOwner}/${l.repoName}`,
              l.category ?? "",
              count(l.stars),
              count(l.deploys),
              out.localTime(l.updatedAt),
            ]),
          );
    if (wanted && listings.length < page.length) {
      lines.push(
        "",
        `${listings.length} of the ${page.length} listings fetched are ${wanted}: --type filters client-side, so page on with --offset ${opts.offset + opts.limit}.`,
      );
    }
    return lines;
  });
}

/** What a release config says, for people (the JSON output keeps the hub's string). */
function configLines(text: string | null | undefined): [string, string][] {
  const read = readReleaseConfig(text);
  if ("problem" in read) return [["Config", `unreadable: ${read.problem}`]];
  const { config } = read;
  const lines: [string, string][] = [];
  if (config.runsOn !== undefined) lines.push(["Runs on", config.runsOn]);
  if (config.gpuIds !== undefined) lines.push(["GPU ids", config.gpuIds]);
  if (config.gpuCount !== undefined) lines.push(["GPU count", String(config.gpuCount)]);
  if (config.containerDiskInGb !== undefined)
    lines.push(["Container disk", `${config.containerDiskInGb} GB`]);
  if (config.env?.length) lines.push(["Env", config.env.map((e) => e.key).join(", ")]);
  return lines;
}

function listingLines(out: Terminal, l: HubListing): string[] {
  const release = l.listedRelease;
  const pairs: [string, string][] = [
    ["ID", l.id],
    ["Repo", `${l.repoOwner}/${l.repoName}`],
    ["Title", l.title ?? ""],
    ["Type", l.type],
    ["Category", l.category ?? ""],
    ["Description", l.description ?? ""],
    ["Tags", (l.tags ?? []).join(", ")],
    ["Stars", count(l.stars)],
    ["Deploys", count(l.deploys)],
    ["Views", count(l.views)],
    ["Created", out.localTime(l.createdAt)],
    ["Updated", out.localTime(l.updatedAt)],
  ];
  if (!release) {
    pairs.push(["Release", "none published"]);
  } else {
    pairs.push(
      ["Release", `${release.name ?? release.tagName ?? release.id} (${release.id})`],
      ["Released", out.localTime(release.releasedAt)],
      ["Image", release.build?.imageName ?? "not built yet"],
      ...configLines(release.config),
    );
  }
  return fields(pairs);
}

export function registerHub(program: Command, out: Terminal): void {
  const hub = program
    .command("hub")
    .description("Browse the RunPod hub of deployable repositories.")
    .addHelpText(
      "after",
      "\nThe hub is read over RunPod's GraphQL API, which RunPod retires in early 2027 (the v2 API has no hub route yet).",
    );

  addListOptions(
    hub.command("list").description("List hub repositories; by default the top 10 by stars."),
  ).action((opts: ListOptions) => listListings(out, opts));

  addListOptions(
    hub
      .command("search")
      .description("Search hub repositories by name, owner or description.")
      .argument("<name>", "text to search for", textOption("<name>", 200)),
  ).action((name: string, opts: ListOptions) => listListings(out, opts, name));

  addOutputOptions(
    hub
      .command("get")
      .description("Show one hub repository and its listed release.")
      .argument("<ref>", "listing id (e.g. hub-vllm) or owner/name"),
  )
    .addHelpText(
      "after",
      "\nJSON fields: the list fields plus repoOwnerAvatarUrl, openIssues, watchers and listedRelease (null, or id, name, tagName, releasedAt, imageName, config: the release config as a JSON-encoded string).",
    )
    .action(async (ref: string) => {
      const parsed = listingRef(ref.trim());
      const { api } = connect(out);
      const listing = await out.spin("Fetching the listing", () => hubSource(api).listing(parsed));
      if (!listing) {
        throw new CliError(
          `hub listing not found: ${ref}. Find listings with \`runpod-dynamic hub search <name>\`.`,
          "NOT_FOUND",
        );
      }
      out.data(listingView(listing), () => listingLines(out, listing));
    });
}
