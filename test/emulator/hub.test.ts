/**
 * Hub listings over `POST {base_url}/graphql`, through the real client with runpodctl's queries.
 * The default seed holds 12 listings; by stars: hub-comfy 2310, hub-jupyter 1780, hub-comfy-pod
 * 1520, hub-vllm 1240, hub-ollama 990, hub-sdxl 860, hub-axolotl 670, hub-whisper 540,
 * hub-flux-lora 430, hub-embed 210, hub-cpu-tts 95, hub-draft 3 (the only one without a release).
 */
import { describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import {
  apiFor,
  frozenEmulator,
  frozenEmulatorForAllTests,
  lastStatus,
  rejection,
  type SharedEmulator,
} from "../support/emulator.js";
import { HUB_BY_STARS, HUB_SUMMARY_FIELDS, HUB_VLLM_CONFIG } from "../support/seed-facts.js";

const { LISTINGS_QUERY, LISTING_QUERY, LISTING_FROM_REPO_QUERY } = clientLib.schemas;

const h = frozenEmulatorForAllTests();

/** Listing ids, in order, from their names without the `hub-` prefix. */
const hubIds = (names: string) => names.split(" ").map((name) => `hub-${name}`);

type ListingsInput = Parameters<SharedEmulator["api"]["hub"]["listings"]>[0];
const ids = async (input: ListingsInput) => (await h.api.hub.listings(input)).map((l) => l.id);

/**
 * A GraphQL request the typed client would not send; answers the raw `{ data, errors }` body. An
 * undefined body sends none. `client` defaults to the shared emulator's.
 */
const graphql = (body: unknown, client: SharedEmulator["client"] = h.client) =>
  client.request<unknown>({
    method: "POST",
    base: "v2",
    path: "/graphql",
    ...(body === undefined ? {} : { body }),
    idempotent: true,
  });

describe("listings(input)", () => {
  it("answers runpodctl's default (top 10 by stars, descending) with summary fields only", async () => {
    const listings = await h.api.hub.listings({ limit: 10, orderBy: "stars", orderDirection: "desc" });
    expect(listings.map((l) => l.id)).toEqual(HUB_BY_STARS.slice(0, 10));
    expect(listings[0]).toEqual({
      id: "hub-comfy",
      title: "Comfyui Worker",
      repoName: "comfyui-worker",
      repoOwner: "comfy-org",
      description: "comfyui-worker by comfy-org",
      category: "Image",
      type: "SERVERLESS",
      tags: ["image", "serverless"],
      stars: 2310,
      views: 140000,
      deploys: 9100,
      language: "Python",
      createdAt: "2024-06-20T10:00:00Z",
      updatedAt: "2026-11-02T09:00:00Z",
    });
    for (const listing of listings) {
      expect(Object.keys(listing).sort()).toEqual([...HUB_SUMMARY_FIELDS].sort());
    }
    expect(lastStatus(h)).toBe(200);
  });

  it("answers every listing, by stars, when the input sets no limit", async () => {
    expect(await ids({})).toEqual(HUB_BY_STARS);
    expect(await ids({ offset: 9 })).toEqual(HUB_BY_STARS.slice(9));
  });

  it.each([
    ["offset 10", { offset: 10 }, ["hub-cpu-tts", "hub-draft"]],
    ["offset 4, limit 3", { offset: 4, limit: 3 }, ["hub-ollama", "hub-sdxl", "hub-axolotl"]],
    ["limit 0", { limit: 0 }, []],
    ["offset past the end", { offset: 12 }, []],
    ["limit above the count", { limit: 50 }, HUB_BY_STARS],
  ])("pages with %s", async (_name, input, expected) => {
    expect(await ids(input)).toEqual(expected);
  });

  // The seed's listings in each order asked for below, descending unless named _ASC.
  const BY_DEPLOYS = hubIds(
    "jupyter comfy-pod sdxl vllm ollama comfy whisper axolotl flux-lora embed cpu-tts draft",
  );
  const BY_VIEWS = hubIds(
    "jupyter comfy-pod comfy sdxl vllm ollama whisper axolotl flux-lora embed cpu-tts draft",
  );
  const BY_CREATED_ASC = hubIds(
    "jupyter sdxl whisper comfy-pod vllm ollama comfy axolotl embed flux-lora cpu-tts draft",
  );
  const BY_UPDATED = hubIds(
    "embed draft flux-lora comfy vllm axolotl comfy-pod sdxl ollama whisper cpu-tts jupyter",
  );
  const BY_RELEASED = hubIds(
    "embed flux-lora comfy vllm axolotl comfy-pod sdxl ollama whisper cpu-tts jupyter draft",
  );
  const BY_RELEASED_ASC = hubIds(
    "jupyter cpu-tts whisper ollama sdxl comfy-pod axolotl vllm comfy flux-lora embed draft",
  );

  it.each([
    ["stars asc", { orderBy: "stars", orderDirection: "asc" }, [...HUB_BY_STARS].reverse()],
    [
      "stars ASC (direction is case-insensitive)",
      { orderBy: "stars", orderDirection: "ASC" },
      [...HUB_BY_STARS].reverse(),
    ],
    ["deploys desc", { orderBy: "deploys" }, BY_DEPLOYS],
    ["views desc", { orderBy: "views", orderDirection: "Desc" }, BY_VIEWS],
    ["createdAt asc", { orderBy: "createdAt", orderDirection: "asc" }, BY_CREATED_ASC],
    ["updatedAt desc", { orderBy: "updatedAt" }, BY_UPDATED],
    [
      "releasedAt desc (no release sorts last)",
      { orderBy: "releasedAt", orderDirection: "desc" },
      BY_RELEASED,
    ],
    [
      "releasedAt asc (no release still sorts last)",
      { orderBy: "releasedAt", orderDirection: "asc" },
      BY_RELEASED_ASC,
    ],
  ])("orders by %s", async (_name, input, expected) => {
    expect(await ids({ ...input, limit: 12 })).toEqual(expected);
  });

  it.each([
    ["searchQuery in repoName or title, any case", { searchQuery: "COMFY" }, ["hub-comfy", "hub-comfy-pod"]],
    [
      "searchQuery in repoName or repoOwner",
      { searchQuery: "worker" },
      ["hub-comfy", "hub-vllm", "hub-sdxl", "hub-whisper", "hub-draft"],
    ],
    ["searchQuery in the description only", { searchQuery: "notebook by run" }, ["hub-jupyter"]],
    ["searchQuery in repoOwner only", { searchQuery: "tts-lab" }, ["hub-cpu-tts"]],
    ["searchQuery matching nothing", { searchQuery: "zzz" }, []],
    ["category, any case", { category: "image" }, ["hub-comfy", "hub-comfy-pod", "hub-sdxl"]],
    ["owner", { owner: "runpod-workers" }, ["hub-vllm", "hub-sdxl", "hub-whisper"]],
    ["owner by equality, not substring", { owner: "RUNPOD" }, ["hub-jupyter"]],
    [
      "search, category and owner together",
      { searchQuery: "worker", category: "LLM", owner: "runpod-workers" },
      ["hub-vllm"],
    ],
    [
      "search and category, then a page",
      { searchQuery: "worker", category: "llm", limit: 1, offset: 1 },
      ["hub-draft"],
    ],
  ])("filters by %s", async (_name, input, expected) => {
    expect(await ids(input)).toEqual(expected);
  });
});

describe("listing(id) and listingFromRepo(repoOwner, repoName)", () => {
  it("answers the full listing with its release; config stays a JSON string", async () => {
    const listing = await h.api.hub.listing({ id: "hub-sdxl" });
    expect(listing).toEqual({
      id: "hub-sdxl",
      title: "Worker Sdxl",
      repoName: "worker-sdxl",
      repoOwner: "runpod-workers",
      repoOwnerAvatarUrl: "https://avatars.example.invalid/runpod-workers.png",
      description: "worker-sdxl by runpod-workers",
      category: "Image",
      type: "SERVERLESS",
      tags: ["image", "serverless"],
      stars: 860,
      views: 120000,
      deploys: 22100,
      openIssues: 6,
      watchers: 86,
      language: "Python",
      createdAt: "2023-11-12T10:00:00Z",
      updatedAt: "2026-09-14T09:00:00Z",
      listedRelease: {
        id: "rel-hub-sdxl",
        name: "v1.0.0",
        tagName: "v1.0.0",
        config: '{"runsOn":"GPU","containerDiskInGb":15,"gpuIds":"ADA_24","gpuCount":1,"env":[]}',
        deploys: 22100,
        createdAt: "2026-09-14T09:00:00Z",
        releasedAt: "2026-09-14T09:00:00Z",
        updatedAt: "2026-09-14T09:00:00Z",
        build: { imageName: "runpod/worker-sdxl:3.1.0" },
      },
    });
  });

  it("answers null for a release or build the listing does not have", async () => {
    expect((await h.api.hub.listing({ id: "hub-draft" }))?.listedRelease).toBeNull();
    expect((await h.api.hub.listing({ id: "hub-embed" }))?.listedRelease?.build).toBeNull();
  });

  it("answers null for an unknown id", async () => {
    expect(await h.api.hub.listing({ id: "hub-nope" })).toBeNull();
    expect(lastStatus(h)).toBe(200);
  });

  it("finds a listing by owner/name, case-insensitively, and answers null otherwise", async () => {
    expect((await h.api.hub.listing({ owner: "runpod-workers", name: "worker-vllm" }))?.id).toBe("hub-vllm");
    expect((await h.api.hub.listing({ owner: "Runpod-Workers", name: "Worker-VLLM" }))?.id).toBe("hub-vllm");
    expect(await h.api.hub.listing({ owner: "runpod-workers", name: "worker-nope" })).toBeNull();
    expect(await h.api.hub.listing({ owner: "comfy-org", name: "worker-vllm" })).toBeNull();
  });

  it("answers the same listing for both lookups", async () => {
    expect(await h.api.hub.listing({ owner: "ostris", name: "flux-lora-trainer" })).toEqual(
      await h.api.hub.listing({ id: "hub-flux-lora" }),
    );
  });
});

describe("GraphQL over HTTP", () => {
  it("answers aliases, literal arguments, several root fields and only the selected fields", async () => {
    const query = `
      # runpodctl never sends this, a hand-written query might
      query Several($unknownId: String!) {
        one: listing(id: "hub-vllm") { id stars, listedRelease { tagName build { imageName } } }
        repo: listingFromRepo(repoOwner: "ostris", repoName: "flux-lora-trainer") { title }
        top: listings(input: { limit: 2, orderBy: "views", orderDirection: "asc", category: null }) { id views }
        missing: listing(id: $unknownId) { id }
      }`;
    await expect(graphql({ query, variables: { unknownId: "hub-nope" } })).resolves.toEqual({
      data: {
        one: {
          id: "hub-vllm",
          stars: 1240,
          listedRelease: { tagName: "v1.0.0", build: { imageName: "runpod/worker-v1-vllm:v2.4.0" } },
        },
        repo: { title: "Flux Lora Trainer" },
        top: [
          { id: "hub-draft", views: 40 },
          { id: "hub-cpu-tts", views: 5000 },
        ],
        missing: null,
      },
    });
  });

  it("answers fragments and runs the operation named by operationName", async () => {
    const query = `
      query Vllm { listing(id: "hub-vllm") { ...Counts } }
      query Sdxl { listing(id: "hub-sdxl") { ...Counts } }
      fragment Counts on Listing { id stars watchers }`;
    await expect(graphql({ query, operationName: "Sdxl" })).resolves.toEqual({
      data: { listing: { id: "hub-sdxl", stars: 860, watchers: 86 } },
    });
  });

  it("answers null for the release fields the seed does not hold (runpodctl's newer `tests`, `readme`, ...)", async () => {
    const query = LISTING_QUERY.replace(
      "build { imageName }",
      "build { imageName } body readme branch license iconUrl authorName tests",
    );
    const answer = (await graphql({ query, variables: { id: "hub-vllm" } })) as {
      data: { listing: { listedRelease: Record<string, unknown> } };
    };
    expect(answer.data.listing.listedRelease).toEqual({
      id: "rel-hub-vllm",
      name: "v1.0.0",
      tagName: "v1.0.0",
      config: HUB_VLLM_CONFIG,
      deploys: 15300,
      createdAt: "2026-10-30T12:00:00Z",
      releasedAt: "2026-10-30T12:00:00Z",
      updatedAt: "2026-10-30T12:00:00Z",
      build: { imageName: "runpod/worker-v1-vllm:v2.4.0" },
      body: null,
      readme: null,
      branch: null,
      license: null,
      iconUrl: null,
      authorName: null,
      tests: null,
    });
  });

  it("answers partial data with a located field error when a seed value does not fit the schema", async () => {
    const { emu } = await frozenEmulator({
      seed: { hubListings: [{ id: "hub-odd", repoOwner: "me", repoName: "odd", type: "POD", stars: 1.5 }] },
    });
    try {
      const call = graphql({ query: '{ listing(id: "hub-odd") { id title stars } }' }, apiFor(emu).client);
      await expect(call).resolves.toEqual({
        data: { listing: { id: "hub-odd", title: null, stars: null } },
        errors: [
          {
            message: "Int cannot represent non-integer value: 1.5",
            locations: [{ line: 1, column: 37 }],
            path: ["listing", "stars"],
          },
        ],
      });
    } finally {
      await emu.close();
    }
  });

  /** An error raised before execution: the answer carries no `data` (GraphQL spec, Response Format). */
  const requestError = (message: string, line?: number, column?: number) => ({
    errors: [{ message, ...(line === undefined ? {} : { locations: [{ line, column }] }) }],
  });
  /** A resolver's error on `listings`: its non-null type makes all of `data` null. */
  const listingsError = (message: string) => ({
    data: null,
    errors: [{ message, locations: [{ line: 2, column: 3 }], path: ["listings"] }],
  });
  const INVALID_INPUT = 'Argument "input" of field "Query.listings" has an invalid value:';

  it.each([
    ["no body", undefined, requestError("Must provide query string.")],
    ["no query", { variables: {} }, requestError("Must provide query string.")],
    ["a query that is not a string", { query: 42 }, requestError("Must provide query string.")],
    [
      "variables that are not an object",
      { query: LISTING_QUERY, variables: ["hub-vllm"] },
      requestError("Variables must be provided as an Object where each property is a variable value."),
    ],
    ["a blank query", { query: "  " }, requestError("Syntax Error: Unexpected <EOF>.", 1, 3)],
    [
      "unbalanced braces",
      { query: '{ listing(id: "hub-vllm") { id }' },
      requestError("Syntax Error: Expected Name, found <EOF>.", 1, 33),
    ],
    [
      "a stray character",
      { query: "{ listing(id: %) { id } }" },
      requestError('Syntax Error: Unexpected character: "%".', 1, 15),
    ],
    [
      "an unknown root field",
      { query: "{ listingz { id } }" },
      requestError(
        'Cannot query field "listingz" on type "Query". Did you mean "listing" or "listings"?',
        1,
        3,
      ),
    ],
    [
      "a listing field the schema does not have",
      { query: '{ listing(id: "hub-vllm") { id repoUrl } }' },
      requestError('Cannot query field "repoUrl" on type "Listing". Did you mean "repoId"?', 1, 32),
    ],
    [
      "runpodctl's saveEndpoint mutation (the emulator answers hub queries only)",
      { query: "mutation SaveEndpoint($input: EndpointInput!) { saveEndpoint(input: $input) { id } }" },
      requestError('Unknown type "EndpointInput".', 1, 31),
    ],
    [
      "listings without its input",
      { query: LISTINGS_QUERY },
      requestError('Variable "$input" of required type "ListingsInput!" was not provided.', 1, 16),
    ],
    [
      "a fractional offset",
      { query: LISTINGS_QUERY, variables: { input: { offset: 1.5 } } },
      requestError(
        'Variable "$input" got invalid value 1.5 at "input.offset"; Int cannot represent non-integer value: 1.5',
        1,
        16,
      ),
    ],
    [
      "a type filter (ListingsInput has none; runpodctl filters --type itself)",
      { query: LISTINGS_QUERY, variables: { input: { type: "POD" } } },
      requestError(
        'Variable "$input" got invalid value { type: "POD" }; Field "type" is not defined by type "ListingsInput".',
        1,
        16,
      ),
    ],
    [
      "listing without its id",
      { query: LISTING_QUERY, variables: {} },
      requestError('Variable "$id" of required type "String!" was not provided.', 1, 18),
    ],
    [
      "listing with a numeric id",
      { query: LISTING_QUERY, variables: { id: 7 } },
      requestError(
        'Variable "$id" got invalid value 7; String cannot represent a non string value: 7',
        1,
        18,
      ),
    ],
    [
      "listingFromRepo without repoName",
      { query: LISTING_FROM_REPO_QUERY, variables: { repoOwner: "ostris" } },
      requestError('Variable "$repoName" of required type "String!" was not provided.', 1, 47),
    ],
    [
      "an unknown argument",
      { query: '{ listing(id: "hub-vllm", version: 2) { id } }' },
      requestError('Unknown argument "version" on field "Query.listing".', 1, 27),
    ],
    [
      "a root field without a selection",
      { query: "{ listings(input: {}) }" },
      requestError(
        'Field "listings" of type "[Listing!]!" must have a selection of subfields. Did you mean "listings { ... }"?',
        1,
        3,
      ),
    ],
    [
      "an object field without a selection",
      { query: '{ listing(id: "hub-vllm") { listedRelease } }' },
      requestError(
        'Field "listedRelease" of type "HubRelease" must have a selection of subfields. Did you mean "listedRelease { ... }"?',
        1,
        29,
      ),
    ],
    [
      "a scalar field with a selection",
      { query: '{ listing(id: "hub-vllm") { stars { count } } }' },
      requestError('Field "stars" must not have a selection since type "Int" has no subfields.', 1, 35),
    ],
    [
      "several operations and no operationName",
      { query: 'query A { listing(id: "a") { id } } query B { listing(id: "b") { id } }' },
      requestError("Must provide operation name if query contains multiple operations."),
    ],
    [
      "an unknown orderBy",
      { query: LISTINGS_QUERY, variables: { input: { orderBy: "popularity" } } },
      listingsError(
        `${INVALID_INPUT} $.orderBy: expected one of "createdAt", "deploys", "releasedAt", "stars", "updatedAt", "views".`,
      ),
    ],
    [
      "an unknown orderDirection",
      { query: LISTINGS_QUERY, variables: { input: { orderDirection: "sideways" } } },
      listingsError(`${INVALID_INPUT} $.orderDirection: expected one of "asc", "desc".`),
    ],
    [
      "a negative limit and offset",
      { query: LISTINGS_QUERY, variables: { input: { limit: -1, offset: -2 } } },
      listingsError(`${INVALID_INPUT} $.limit: expected number >= 0; $.offset: expected number >= 0.`),
    ],
  ])("answers 200 with errors[] for %s", async (_name, body, expected) => {
    const call = graphql(body);
    await expect(call).resolves.toEqual(expected);
    expect(lastStatus(h)).toBe(200);
  });

  it("surfaces a GraphQL error from the typed client as a bad-request error with the message", async () => {
    const err = await rejection(h.api.hub.listings({ orderBy: "popularity" }));
    expect(err.code).toBe(clientLib.ERROR_CODES.BAD_REQUEST);
    expect(err.detail).toBe(
      'Argument "input" of field "Query.listings" has an invalid value: $.orderBy: expected one of "createdAt", "deploys", "releasedAt", "stars", "updatedAt", "views".',
    );
  });
});
