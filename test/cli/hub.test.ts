/**
 * `runpod-dynamic hub list|search|get` against the emulator's seed. By stars: hub-comfy 2310,
 * hub-jupyter 1780 (POD), hub-comfy-pod 1520 (POD), hub-vllm 1240, hub-ollama 990 (POD), hub-sdxl
 * 860, hub-axolotl 670 (POD), hub-whisper 540, hub-flux-lora 430, hub-embed 210, hub-cpu-tts 95,
 * hub-draft 3 (no release).
 */
import { afterEach, describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { clientLib } from "../support/dist.js";
import { HUB_BY_STARS, HUB_SUMMARY_FIELDS, HUB_VLLM_CONFIG } from "../support/seed-facts.js";

const { LISTINGS_QUERY, LISTING_QUERY, LISTING_FROM_REPO_QUERY } = clientLib.schemas;

const h = cliHarnessForAllTests();

/** The one GraphQL request the command sent. */
function graphqlSent() {
  expect(h.recorder.requests).toHaveLength(1);
  const [req] = h.recorder.requests;
  expect([req?.base, req?.method, req?.url]).toEqual(["base", "POST", "/graphql"]);
  return req?.body as { query: string; variables: Record<string, unknown> };
}

type Summary = { id: string; type: string } & Record<string, unknown>;

describe("hub list and search", () => {
  it("hub list defaults to the top 10 by stars, as runpodctl asks for them", async () => {
    const listings = await h.json<Summary[]>(["hub", "list"]);
    expect(graphqlSent()).toEqual({
      query: LISTINGS_QUERY,
      variables: { input: { limit: 10, orderBy: "stars", orderDirection: "desc" } },
    });
    expect(listings.map((l) => l.id)).toEqual(HUB_BY_STARS.slice(0, 10));
    for (const l of listings) expect(Object.keys(l)).toEqual(HUB_SUMMARY_FIELDS);
    expect(listings[0]).toEqual({
      id: "hub-comfy",
      title: "Comfyui Worker",
      repoOwner: "comfy-org",
      repoName: "comfyui-worker",
      type: "SERVERLESS",
      category: "Image",
      description: "comfyui-worker by comfy-org",
      tags: ["image", "serverless"],
      stars: 2310,
      deploys: 9100,
      views: 140_000,
      language: "Python",
      createdAt: "2024-06-20T10:00:00Z",
      updatedAt: "2026-11-02T09:00:00Z",
    });
  });

  it("sends every flag as a ListingsInput field", async () => {
    const listings = await h.json<Summary[]>([
      "hub",
      "list",
      "--category",
      "Image",
      "--owner",
      "comfy-org",
      "--order-by",
      "deploys",
      "--order-dir",
      "asc",
      "--limit",
      "5",
      "--offset",
      "1",
    ]);
    expect(graphqlSent().variables).toEqual({
      input: {
        category: "Image",
        owner: "comfy-org",
        orderBy: "deploys",
        orderDirection: "asc",
        limit: 5,
        offset: 1,
      },
    });
    // comfy-org's Image listings by deploys ascending: hub-comfy (9100), hub-comfy-pod (31000)
    expect(listings.map((l) => l.id)).toEqual(["hub-comfy-pod"]);
  });

  it("hub search sends the name as searchQuery, with the list defaults", async () => {
    const listings = await h.json<Summary[]>(["hub", "search", "whisper"]);
    expect(graphqlSent()).toEqual({
      query: LISTINGS_QUERY,
      variables: { input: { searchQuery: "whisper", limit: 10, orderBy: "stars", orderDirection: "desc" } },
    });
    expect(listings.map((l) => l.id)).toEqual(["hub-whisper"]);
  });

  it("--type filters the fetched page client-side: the request has no type and --limit may return fewer", async () => {
    const serverless = await h.json<Summary[]>(["hub", "list", "--type", "SERVERLESS"]);
    expect(graphqlSent().variables).toEqual({
      input: { limit: 10, orderBy: "stars", orderDirection: "desc" },
    });
    expect(serverless.map((l) => l.id)).toEqual([
      "hub-comfy",
      "hub-vllm",
      "hub-sdxl",
      "hub-whisper",
      "hub-flux-lora",
      "hub-embed",
    ]);
    const pods = await h.json<Summary[]>(["hub", "search", "comfy", "--type", "pod", "--limit", "1"]);
    // the page holds hub-comfy only, which is SERVERLESS: nothing is left, and no second page is fetched
    expect([pods, h.recorder.requests.length]).toEqual([[], 1]);
  });

  it("the table says how many listings --type kept and where the next page starts", async () => {
    const res = await h.run(["hub", "list", "--type", "POD", "--limit", "4"]);
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout).toBe(
      [
        "ID             TYPE  REPO                     CATEGORY     STARS  DEPLOYS  UPDATED",
        "hub-jupyter    POD   runpod/pytorch-notebook  Development   1780    54000  2026-06-01 09:00 UTC",
        "hub-comfy-pod  POD   comfy-org/comfyui-pod    Image         1520    31000  2026-10-10 09:00 UTC",
        "",
        "2 of the 4 listings fetched are POD: --type filters client-side, so page on with --offset 4.",
        "",
      ].join("\n"),
    );
  });

  it("an empty result is [] in JSON and a sentence in the table", async () => {
    const json = await h.json<unknown[]>(["hub", "search", "no-such-repo"]);
    const table = await h.run(["hub", "search", "no-such-repo"]);
    expect([json, table.code, table.stdout]).toEqual([[], 0, "No hub listings match 'no-such-repo'.\n"]);
  });

  it.each([
    [
      ["hub", "list", "--type", "GPU"],
      "error: option '--type <type>' argument 'GPU' is invalid. --type must be one of POD, SERVERLESS.",
    ],
    [
      ["hub", "list", "--order-by", "popularity"],
      "error: option '--order-by <field>' argument 'popularity' is invalid. --order-by must be one of createdAt, deploys, releasedAt, stars, updatedAt, views.",
    ],
    [
      ["hub", "search", "x", "--order-dir", "up"],
      "error: option '--order-dir <dir>' argument 'up' is invalid. --order-dir must be one of asc, desc.",
    ],
    [
      ["hub", "list", "--limit", "0"],
      "error: option '--limit <n>' argument '0' is invalid. --limit must be between 1 and 1000.",
    ],
    [
      ["hub", "list", "--limit", "ten"],
      "error: option '--limit <n>' argument 'ten' is invalid. --limit must be an integer between 1 and 1000.",
    ],
    [
      ["hub", "list", "--offset", "-1"],
      "error: option '--offset <n>' argument '-1' is invalid. --offset must be between 0 and 1000000.",
    ],
    [["hub", "list", "vllm"], "error: too many arguments for 'list'. Expected 0 arguments but got 1."],
    [["hub", "search"], "error: missing required argument 'name'"],
    [["hub", "list", "--sort", "stars"], "error: unknown option '--sort'"],
  ])("%j exits 2", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });
});

describe("hub get", () => {
  const VLLM = {
    id: "hub-vllm",
    title: "Worker Vllm",
    repoOwner: "runpod-workers",
    repoName: "worker-vllm",
    type: "SERVERLESS",
    category: "LLM",
    description: "worker-vllm by runpod-workers",
    tags: ["llm", "serverless"],
    stars: 1240,
    deploys: 15_300,
    views: 98_000,
    language: "Python",
    createdAt: "2024-03-02T10:00:00Z",
    updatedAt: "2026-10-30T12:00:00Z",
    repoOwnerAvatarUrl: "https://avatars.example.invalid/runpod-workers.png",
    openIssues: 1240 % 7,
    watchers: 124,
    listedRelease: {
      id: "rel-hub-vllm",
      name: "v1.0.0",
      tagName: "v1.0.0",
      releasedAt: "2026-10-30T12:00:00Z",
      imageName: "runpod/worker-v1-vllm:v2.4.0",
      config: HUB_VLLM_CONFIG,
    },
  };

  it("by listing id sends the listing(id) query and prints every field", async () => {
    const listing = await h.json(["hub", "get", "hub-vllm"]);
    expect(graphqlSent()).toEqual({ query: LISTING_QUERY, variables: { id: "hub-vllm" } });
    expect(listing).toEqual(VLLM);
    expect(Object.keys(listing as object)).toEqual(Object.keys(VLLM));
  });

  it("by owner/name sends the listingFromRepo query", async () => {
    const listing = await h.json(["hub", "get", "runpod-workers/worker-vllm"]);
    expect(graphqlSent()).toEqual({
      query: LISTING_FROM_REPO_QUERY,
      variables: { repoOwner: "runpod-workers", repoName: "worker-vllm" },
    });
    expect(listing).toEqual(VLLM);
  });

  it("a listing without a release has listedRelease null; one without an image, imageName null", async () => {
    const draft = await h.json<{ listedRelease: unknown }>(["hub", "get", "hub-draft"]);
    const embed = await h.json<{ listedRelease: { imageName: unknown } }>(["hub", "get", "hub-embed"]);
    expect([draft.listedRelease, embed.listedRelease.imageName]).toEqual([null, null]);
  });

  it("the table shows the release config for people", async () => {
    const res = await h.run(["hub", "get", "hub-vllm"], { TZ: "America/New_York" });
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout.split("\n").slice(12)).toEqual([
      "Release         v1.0.0 (rel-hub-vllm)",
      "Released        2026-10-30 08:00 EDT",
      "Image           runpod/worker-v1-vllm:v2.4.0",
      "Runs on         GPU",
      "GPU ids         AMPERE_80,ADA_80_PRO",
      "GPU count       1",
      "Container disk  30 GB",
      "Env             MODEL_NAME, MAX_MODEL_LEN",
      "",
    ]);
  });

  it.each([
    [
      ["hub", "get", "hub-nope"],
      1,
      "Error: hub listing not found: hub-nope. Find listings with `runpod-dynamic hub search <name>`.",
    ],
    [
      ["hub", "get", "nobody/nothing"],
      1,
      "Error: hub listing not found: nobody/nothing. Find listings with `runpod-dynamic hub search <name>`.",
    ],
    [
      ["hub", "get", "/worker-vllm"],
      2,
      "Error: invalid listing reference '/worker-vllm': use owner/name or a listing id.",
    ],
    [
      ["hub", "get", "runpod-workers/"],
      2,
      "Error: invalid listing reference 'runpod-workers/': use owner/name or a listing id.",
    ],
    [["hub", "get"], 2, "error: missing required argument 'ref'"],
    [["hub", "get", "a", "b"], 2, "error: too many arguments for 'get'. Expected 1 argument but got 2."],
  ])("%j exits %i", async (args, code, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), res.stdout]).toEqual([code, message, ""]);
  });
});

describe("once RunPod has retired GraphQL", () => {
  afterEach(() => {
    h.emu.control.clearFaults();
  });

  it.each([
    [["hub", "list"], 410, "RUNPOD_HTTP_ERROR"],
    [["hub", "get", "hub-vllm"], 404, "RUNPOD_NOT_FOUND"],
    [["serverless", "create", "--hub-id", "hub-vllm", "--name", "x"], 410, "RUNPOD_HTTP_ERROR"],
  ])(
    "%j says the hub is read over GraphQL, which is gone (%i: exit 1, the status kept)",
    async (args, status, code) => {
      h.emu.control.addFault({ method: "POST", path: "^/graphql$", status });
      const res = await h.run(args);
      const json = await h.run([...args, "--json"]);
      expect([res.code, res.stdout, errorText(res)]).toEqual([
        1,
        "",
        expect.stringMatching(
          new RegExp(
            `^Error: the hub is read through RunPod's GraphQL API \\(POST /graphql\\), which answered ${status}: RunPod retires GraphQL in early 2027\\. A runpod-dynamic release that reads the hub another way is needed\\. \\(POST /graphql: ${status} `,
          ),
        ),
      ]);
      expect(JSON.parse(json.stderr)).toMatchObject({ code, status });
      expect(h.recorder.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /graphql"]);
    },
  );
});
