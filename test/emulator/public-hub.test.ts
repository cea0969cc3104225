/**
 * The hub's GraphQL listing queries answer without a bearer token, as the public hub does; every
 * other route still requires one, and a bad token is still refused.
 */
import { describe, expect, it } from "vitest";
import { frozenEmulatorForAllTests } from "../support/emulator.js";
import { raw } from "../support/http.js";

const h = frozenEmulatorForAllTests();

const graphql = (query: string, key?: string | null) =>
  raw(`${h.emu.baseUrl}/graphql`, {
    method: "POST",
    body: JSON.stringify({ query }),
    ...(key === undefined ? {} : { key }),
  });

describe("anonymous hub queries", () => {
  it("answers listings, listing and listingFromRepo without an Authorization header", async () => {
    h.emu.control.clearRequests();
    const listings = await graphql('{ listings(input: { limit: 2, orderBy: "stars" }) { id stars } }', null);
    const one = await graphql('{ listing(id: "hub-sdxl") { id repoName } }', null);
    const byRepo = await graphql(
      '{ listingFromRepo(repoOwner: "Runpod-Workers", repoName: "worker-vllm") { id } }',
      null,
    );
    expect([listings.status, listings.body]).toEqual([
      200,
      {
        data: {
          listings: [
            { id: "hub-comfy", stars: 2310 },
            { id: "hub-jupyter", stars: 1780 },
          ],
        },
      },
    ]);
    expect([one.body, byRepo.body]).toEqual([
      { data: { listing: { id: "hub-sdxl", repoName: "worker-sdxl" } } },
      { data: { listingFromRepo: { id: "hub-vllm" } } },
    ]);
    // Anonymous callers share one quota, and see its headers.
    expect(listings.headers.get("ratelimit")).toMatch(/^"minute";r=\d+;t=\d+$/);
    expect(h.emu.control.requests().entries.map((e) => [e.route, e.status])).toEqual([
      ["POST /graphql", 200],
      ["POST /graphql", 200],
      ["POST /graphql", 200],
    ]);
  });

  it("answers the same with a valid key, and 401 with an invalid one", async () => {
    const query = '{ listing(id: "hub-sdxl") { id } }';
    const withKey = await graphql(query);
    const badKey = await graphql(query, "rpa_not_a_key_at_all");
    expect([withKey.status, withKey.body, badKey.status, badKey.body.detail]).toEqual([
      200,
      { data: { listing: { id: "hub-sdxl" } } },
      401,
      "The API key is invalid or expired.",
    ]);
  });

  it.each([
    ["GET", "/v2/pods"],
    ["GET", "/v2/catalog/gpus"],
    ["GET", "/v2/serverless"],
    ["GET", "/v2/registries"],
    ["GET", "/v2/billing"],
  ])("keeps %s %s authenticated", async (method, path) => {
    const res = await raw(`${h.emu.baseUrl}${path}`, { method, key: null });
    expect([res.status, res.body.detail]).toEqual([401, "Missing bearer token in the Authorization header."]);
  });
});
