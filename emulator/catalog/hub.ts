/**
 * Hub listings, answered the way the service answers RunPod's own clients (docs/api-model.md,
 * Command-line commands): `POST {base_url}/graphql` with the queries
 * `listings(input)`, `listing(id)` and `listingFromRepo(repoOwner, repoName)`. runpodctl sends all
 * three (provider/client/schemas/hub.ts holds their texts); runpod-mcp reads the whole catalog with
 * `listings(input: {})` and also selects each listing's `repoId` and its release build's `id`.
 *
 * graphql-js parses, validates and executes the request against the schema below, so the answer is
 * what a GraphQL server sends: HTTP 200 with `{ data }`, or with `errors[]` (`message`,
 * `locations`, `path`) next to null or partial data; a request that fails before execution
 * (syntax, validation, variable coercion) carries no `data` key (GraphQL spec, "Response Format").
 * runpodctl reads `errors[0].message` either way.
 */
import { buildSchema, type ExecutionResult, GraphQLError, graphql } from "graphql";
import { z } from "zod";
import { json, type RouteContext, type RouteTable } from "../http/routing.js";
import { issueMessage } from "../http/validation.js";
import type { Store } from "../store/store.js";

/** `--order-by` and `--order-dir` values runpodctl passes through (docs/api-model.md, Command-line commands). */
const HUB_ORDER_BY = ["createdAt", "deploys", "releasedAt", "stars", "updatedAt", "views"] as const;
const HUB_ORDER_DIR = ["asc", "desc"] as const;

/**
 * The part of the hub schema RunPod's clients query. Only the listing fields the seed schema
 * guarantees (id, repoOwner, repoName, type) are non-null: any other field a seed lacks answers null
 * rather than failing the listing (runpodctl's newer queries select release fields such as `readme`
 * and `tests` that the emulator does not model). `repoId` names the hub's record of the GitHub
 * repository and `GitBuild.id` the build that made the release's image: opaque ids. `config` and `tests` are JSON-encoded strings, as the
 * service sends them. `orderBy` and `orderDirection` are strings, checked by the resolver, because
 * runpodctl passes the user's flag values through unchanged and the direction is case-insensitive.
 */
const schema = buildSchema(`
  type Query {
    listings(input: ListingsInput!): [Listing!]!
    listing(id: String!): Listing
    listingFromRepo(repoOwner: String!, repoName: String!): Listing
  }

  input ListingsInput {
    searchQuery: String
    category: String
    owner: String
    orderBy: String
    orderDirection: String
    limit: Int
    offset: Int
  }

  type Listing {
    id: String!
    repoId: String
    title: String
    repoName: String!
    repoOwner: String!
    repoOwnerAvatarUrl: String
    description: String
    category: String
    type: String!
    tags: [String!]
    stars: Int
    views: Int
    deploys: Int
    openIssues: Int
    watchers: Int
    language: String
    createdAt: String
    updatedAt: String
    listedRelease: HubRelease
  }

  type HubRelease {
    id: String
    name: String
    tagName: String
    body: String
    readme: String
    branch: String
    license: String
    config: String
    deploys: Int
    iconUrl: String
    authorName: String
    createdAt: String
    releasedAt: String
    updatedAt: String
    build: GitBuild
    tests: String
  }

  type GitBuild {
    id: String
    imageName: String
  }
`);

type Listing = Store["seed"]["hubListings"][number];

/**
 * The constraints on `ListingsInput` the schema's types cannot state (the schema already rejects
 * unknown fields and non-integer limits). `orderDirection` is matched case-insensitively; every
 * other value exactly. Null counts as absent, as for any nullable GraphQL input field.
 */
const ListingsInput = z.object({
  searchQuery: z.string().nullish(),
  category: z.string().nullish(),
  owner: z.string().nullish(),
  orderBy: z.enum(HUB_ORDER_BY).nullish(),
  orderDirection: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(HUB_ORDER_DIR))
    .nullish(),
  limit: z.int().min(0).nullish(),
  offset: z.int().min(0).nullish(),
});

const lower = (v: unknown) => (typeof v === "string" ? v.toLowerCase() : "");

/** The value a listing sorts by, or undefined when it has none (those sort last either way). */
function sortValue(listing: Listing, orderBy: (typeof HUB_ORDER_BY)[number]): number | undefined {
  let value: unknown;
  if (orderBy === "releasedAt") {
    const release = listing.listedRelease;
    value =
      release && typeof release === "object" ? (release as Record<string, unknown>).releasedAt : undefined;
  } else {
    value = listing[orderBy];
  }
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/**
 * `listings(input)`: search (case-insensitive substring of title, repoName, repoOwner or
 * description), category and owner (case-insensitive equality), order (by stars, descending, unless
 * asked otherwise; ties by id), then offset and limit. Without a limit every listing from the offset
 * on is answered: runpod-mcp reads the whole catalog with `listings(input: {})` and pages it itself
 * (runpodctl always sends a limit, 10 by default). No `type` filter: both clients filter by type
 * themselves after the answer.
 */
function listings(state: Store, input: unknown): Listing[] {
  const parsed = ListingsInput.safeParse(input);
  if (!parsed.success) {
    throw new GraphQLError(
      `Argument "input" of field "Query.listings" has an invalid value: ${parsed.error.issues.flatMap((issue) => issueMessage(issue)).join("; ")}.`,
    );
  }
  const { searchQuery, category, owner, orderBy, orderDirection, offset, limit } = parsed.data;
  const search = searchQuery?.toLowerCase();
  const by = orderBy ?? "stars";
  const direction = orderDirection === "asc" ? 1 : -1;
  const start = offset ?? 0;
  return state.seed.hubListings
    .filter(
      (l) =>
        search === undefined ||
        [l.title, l.repoName, l.repoOwner, l.description].some((text) => lower(text).includes(search)),
    )
    .filter((l) => category == null || lower(l.category) === category.toLowerCase())
    .filter((l) => owner == null || l.repoOwner.toLowerCase() === owner.toLowerCase())
    .map((l) => ({ l, key: sortValue(l, by) }))
    .sort((a, b) => {
      if (a.key === undefined || b.key === undefined) {
        if (a.key !== b.key) return a.key === undefined ? 1 : -1;
      } else if (a.key !== b.key) {
        return (a.key - b.key) * direction;
      }
      return a.l.id < b.l.id ? -1 : a.l.id > b.l.id ? 1 : 0;
    })
    .slice(start, limit == null ? undefined : start + limit)
    .map(({ l }) => l);
}

/**
 * The root resolvers over one state. graphql-js has already coerced the arguments to the schema's
 * types (`String!` arrives as a string), and resolves each listing's fields by property name.
 */
function rootResolvers(state: Store) {
  return {
    listings: (args: { input: unknown }) => listings(state, args.input),
    /** `listing(id)`: the listing, or null when the hub has none with that id. */
    listing: (args: { id: string }) => state.seed.hubListings.find((l) => l.id === args.id) ?? null,
    /** `listingFromRepo(repoOwner, repoName)`: matched case-insensitively, as GitHub names are. */
    listingFromRepo: (args: { repoOwner: string; repoName: string }) =>
      state.seed.hubListings.find(
        (l) =>
          l.repoOwner.toLowerCase() === args.repoOwner.toLowerCase() &&
          l.repoName.toLowerCase() === args.repoName.toLowerCase(),
      ) ?? null,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A request error raised before graphql-js runs, in the shape of its own. */
const requestError = (message: string): ExecutionResult => ({ errors: [new GraphQLError(message)] });

/**
 * Executes the request body. The two request checks are the ones GraphQL-over-HTTP servers make
 * before calling graphql-js (express-graphql's wording): a `query` string, and `variables`, when
 * present, an object.
 */
function execute(state: Store, body: unknown): ExecutionResult | Promise<ExecutionResult> {
  if (!isObject(body) || typeof body.query !== "string") return requestError("Must provide query string.");
  const variables = body.variables ?? null;
  if (variables !== null && !isObject(variables)) {
    return requestError("Variables must be provided as an Object where each property is a variable value.");
  }
  return graphql({
    schema,
    source: body.query,
    variableValues: variables,
    operationName: typeof body.operationName === "string" ? body.operationName : null,
    rootValue: rootResolvers(state),
  });
}

/** Always HTTP 200: GraphQL reports a bad query in the body, which runpodctl reads as `errors[0].message`. */
async function graphqlRoute(ctx: RouteContext) {
  const { errors, ...result } = await execute(ctx.state, ctx.body);
  return json(200, errors ? { ...result, errors: errors.map((e) => e.toJSON()) } : result);
}

/**
 * The hub is public: its listing queries answer without a bearer token, as the service's public
 * hub does (a bad token is still a 401). Every field of this schema is such a listing query; an
 * authenticated query added here must check `ctx.apiKey` ("" when anonymous).
 */
export const hubRoutes: RouteTable = {
  v2: [{ method: "POST", pattern: "/graphql", handler: graphqlRoute, auth: "optional" }],
};
