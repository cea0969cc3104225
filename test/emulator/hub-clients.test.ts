/**
 * The hub queries RunPod's own clients send (test/support/hub-queries.ts), sent as they send them:
 * runpodctl's with its variables, runpod-mcp's anonymously with no variables. Each must be
 * answered with data and no error, every field they select served from the seed, `Listing.repoId`
 * and `GitBuild.id` included.
 */
import { describe, expect, it } from "vitest";
import { emulatorLib, frozenEmulatorForAllTests } from "../support/emulator.js";
import { raw } from "../support/http.js";
import {
  RUNPODCTL_LISTING,
  RUNPODCTL_LISTING_FROM_REPO,
  RUNPODCTL_LISTINGS,
  runpodMcpListings,
} from "../support/hub-queries.js";
import { HUB_BY_STARS, HUB_VLLM_CONFIG } from "../support/seed-facts.js";

const h = frozenEmulatorForAllTests();

/** What `POST /graphql` answers, with the key (runpodctl) or without one (runpod-mcp). */
async function graphql(body: Record<string, unknown>, key?: null) {
  const answer = await raw(`${h.emu.baseUrl}/graphql`, {
    method: "POST",
    body: JSON.stringify(body),
    ...(key === null ? { key: null } : {}),
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** hub-vllm's release as runpodctl's full selection answers it. */
const VLLM_RELEASE = {
  id: "rel-hub-vllm",
  name: "v1.0.0",
  tagName: "v1.0.0",
  body: null,
  readme: null,
  branch: null,
  license: null,
  config: HUB_VLLM_CONFIG,
  deploys: 15300,
  iconUrl: null,
  authorName: null,
  createdAt: "2026-10-30T12:00:00Z",
  releasedAt: "2026-10-30T12:00:00Z",
  updatedAt: "2026-10-30T12:00:00Z",
  build: { imageName: "runpod/worker-v1-vllm:v2.4.0" },
  tests: null,
};

const VLLM = {
  id: "hub-vllm",
  title: "Worker Vllm",
  repoName: "worker-vllm",
  repoOwner: "runpod-workers",
  repoOwnerAvatarUrl: "https://avatars.example.invalid/runpod-workers.png",
  description: "worker-vllm by runpod-workers",
  category: "LLM",
  type: "SERVERLESS",
  tags: ["llm", "serverless"],
  stars: 1240,
  views: 98000,
  deploys: 15300,
  openIssues: 1240 % 7,
  watchers: 124,
  language: "Python",
  createdAt: "2024-03-02T10:00:00Z",
  updatedAt: "2026-10-30T12:00:00Z",
  listedRelease: VLLM_RELEASE,
};

/** hub-vllm's ids in the default seed: opaque, but fixed. */
const VLLM_REPO_ID = "8uu9igxcnucjk612ya7hi9f46";
const VLLM_BUILD_ID = "b2n7zvl62ren4j8zp7cmqo2ud";

describe("runpodctl's queries", () => {
  it("hub list: listings(input) with runpodctl's default input", async () => {
    const answer = await graphql({
      query: RUNPODCTL_LISTINGS,
      variables: { input: { limit: 10, orderBy: "stars", orderDirection: "desc" } },
    });
    const listings = (answer.data as { listings: { id: string }[] }).listings;
    expect([Object.keys(answer), listings.map((l) => l.id)]).toEqual([["data"], HUB_BY_STARS.slice(0, 10)]);
    expect(listings.find((l) => l.id === "hub-vllm")).toEqual({
      id: "hub-vllm",
      title: "Worker Vllm",
      repoName: "worker-vllm",
      repoOwner: "runpod-workers",
      description: "worker-vllm by runpod-workers",
      category: "LLM",
      type: "SERVERLESS",
      tags: ["llm", "serverless"],
      stars: 1240,
      views: 98000,
      deploys: 15300,
      language: "Python",
      createdAt: "2024-03-02T10:00:00Z",
      updatedAt: "2026-10-30T12:00:00Z",
    });
  });

  it("hub get: listing(id) and listingFromRepo(repoOwner, repoName) with the full selection", async () => {
    const byId = await graphql({ query: RUNPODCTL_LISTING, variables: { id: "hub-vllm" } });
    const byRepo = await graphql({
      query: RUNPODCTL_LISTING_FROM_REPO,
      variables: { repoOwner: "runpod-workers", repoName: "worker-vllm" },
    });
    expect([byId, byRepo]).toEqual([{ data: { listing: VLLM } }, { data: { listingFromRepo: VLLM } }]);
  });
});

describe("runpod-mcp's query", () => {
  it("answers the whole catalog to listings(input: {}), anonymously, with repoId and the build's id", async () => {
    const answer = await graphql({ query: runpodMcpListings(false) }, null);
    const listings = (answer.data as { listings: Record<string, unknown>[] }).listings;
    expect([Object.keys(answer), listings.map((l) => l.id)]).toEqual([["data"], HUB_BY_STARS]);
    expect(listings.find((l) => l.id === "hub-vllm")).toEqual({
      id: "hub-vllm",
      repoId: VLLM_REPO_ID,
      title: "Worker Vllm",
      description: "worker-vllm by runpod-workers",
      repoName: "worker-vllm",
      repoOwner: "runpod-workers",
      createdAt: "2024-03-02T10:00:00Z",
      updatedAt: "2026-10-30T12:00:00Z",
      views: 98000,
      stars: 1240,
      deploys: 15300,
      language: "Python",
      category: "LLM",
      tags: ["llm", "serverless"],
      type: "SERVERLESS",
      listedRelease: {
        id: "rel-hub-vllm",
        name: "v1.0.0",
        tagName: "v1.0.0",
        createdAt: "2026-10-30T12:00:00Z",
        build: { id: VLLM_BUILD_ID, imageName: "runpod/worker-v1-vllm:v2.4.0" },
      },
    });
  });

  it("serves every listing's repoId and build id from the seed: distinct, and null only without a build", async () => {
    const answer = await graphql({ query: runpodMcpListings(false) }, null);
    type Listing = { id: string; repoId: string; listedRelease: { build: { id: string } | null } | null };
    const listings = (answer.data as { listings: Listing[] }).listings;
    const seed = new Map(emulatorLib.defaultSeed().hubListings.map((l) => [l.id, l]));
    expect(listings.map((l) => l.repoId)).toEqual(listings.map((l) => seed.get(l.id)?.repoId));
    expect(new Set(listings.map((l) => l.repoId)).size).toBe(12);
    expect(
      listings.filter((l) => !l.listedRelease?.build).map((l) => [l.id, l.listedRelease?.build ?? null]),
    ).toEqual([
      ["hub-embed", null],
      ["hub-draft", null],
    ]);
    const buildIds = listings.flatMap((l) => (l.listedRelease?.build ? [l.listedRelease.build.id] : []));
    expect([
      buildIds.length,
      new Set(buildIds).size,
      buildIds.every((id) => /^[a-z0-9]{25}$/.test(id)),
    ]).toEqual([10, 10, true]);
  });

  it("adds each release's config when asked for it (deploy-hub-repo)", async () => {
    const answer = await graphql({ query: runpodMcpListings(true) }, null);
    const listings = (answer.data as { listings: { id: string; listedRelease: { config: string } | null }[] })
      .listings;
    expect(listings.find((l) => l.id === "hub-vllm")?.listedRelease?.config).toBe(HUB_VLLM_CONFIG);
    expect(listings.filter((l) => l.listedRelease !== null)).toHaveLength(11);
  });
});
