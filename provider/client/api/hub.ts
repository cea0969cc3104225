/** The hub: `{base_url}/graphql`, with the queries runpodctl sends. */
import { z } from "zod";
import { ERROR_CODES, RunpodApiError } from "../errors.js";
import type { RunpodClient } from "../request.js";
import {
  GraphqlResponse,
  HubListing,
  HubListingSummary,
  LISTING_FROM_REPO_QUERY,
  LISTING_QUERY,
  LISTINGS_QUERY,
} from "../schemas/index.js";
import type { CallOptions } from "./call-options.js";

export type HubListingsInput = {
  searchQuery?: string;
  category?: string;
  owner?: string;
  orderBy?: string;
  orderDirection?: string;
  limit?: number;
  offset?: number;
};

/** A listing named by its id, or by its repository (`owner/name`). */
export type HubListingRef = { id: string } | { owner: string; name: string };

/** The hub's listings, through `{base_url}/graphql` (`api.hub`). */
export class HubApi {
  constructor(private readonly client: RunpodClient) {}

  async listings(input: HubListingsInput, opts: CallOptions = {}) {
    const data = await graphql(
      this.client,
      LISTINGS_QUERY,
      { input },
      z.looseObject({ listings: z.array(HubListingSummary) }),
      opts,
    );
    return data.listings;
  }

  /** One listing by id, or by `owner/name`. Null when the hub has no such listing. */
  async listing(ref: HubListingRef, opts: CallOptions = {}) {
    if ("id" in ref) {
      const data = await graphql(
        this.client,
        LISTING_QUERY,
        { id: ref.id },
        z.looseObject({ listing: HubListing.nullable() }),
        opts,
      );
      return data.listing;
    }
    const data = await graphql(
      this.client,
      LISTING_FROM_REPO_QUERY,
      { repoOwner: ref.owner, repoName: ref.name },
      z.looseObject({ listingFromRepo: HubListing.nullable() }),
      opts,
    );
    return data.listingFromRepo;
  }
}

async function graphql<T extends z.ZodType>(
  client: RunpodClient,
  query: string,
  variables: Record<string, unknown>,
  data: T,
  opts: CallOptions,
): Promise<z.infer<T>> {
  const res = await client.request({
    method: "POST",
    base: "v2",
    path: "/graphql",
    body: { query, variables },
    responseSchema: GraphqlResponse(data),
    idempotent: true, // these are queries
    ...opts,
  });
  const first = res.errors?.[0];
  if (first || res.data === undefined || res.data === null) {
    throw new RunpodApiError({
      code: ERROR_CODES.BAD_REQUEST,
      message: `POST /graphql: the hub query failed: ${first?.message ?? "no data in the response"}.`,
      detail: first?.message,
      method: "POST",
      url: "/graphql",
    });
  }
  return res.data as z.infer<T>;
}
