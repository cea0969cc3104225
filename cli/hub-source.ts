/**
 * Where the CLI reads the RunPod hub from: the one module that knows the hub is served over
 * GraphQL. `hub list|search|get` and `serverless create --hub-id` go through `hubSource` and
 * nothing else, so when RunPod gives the hub a v2 route, a v2 source replaces the GraphQL one here
 * and no command changes (docs/api-retirements.md).
 *
 * RunPod retires its GraphQL API in early 2027, and the v2 description has no hub route yet. Until
 * then the GraphQL source sends exactly the queries runpodctl sends (provider/client/api/hub.ts).
 * Once `POST /graphql` is gone (404 or 410), a hub command says so instead of a bare "not found".
 */
import type { HubListingRef, HubListingsInput } from "../provider/client/api/hub.js";
import { isRunpodApiError, type RunpodApi, type schemas } from "../provider/client/index.js";

export interface HubSource {
  /** What the hub is read from, for messages. */
  readonly name: string;
  /** One page of listings, in the order asked for. */
  listings(input: HubListingsInput): Promise<schemas.HubListingSummary[]>;
  /** One listing with its listed release, or null when the hub has none by that reference. */
  listing(ref: HubListingRef): Promise<schemas.HubListing | null>;
}

/** The hub source the commands read. */
export function hubSource(api: RunpodApi): HubSource {
  return graphqlHubSource(api);
}

/** The hub over `POST {base_url}/graphql`, with runpodctl's queries. */
export function graphqlHubSource(api: RunpodApi): HubSource {
  const name = "RunPod's GraphQL API (POST /graphql)";
  const explained = async <T>(call: Promise<T>): Promise<T> => {
    try {
      return await call;
    } catch (err) {
      // The route itself missing means GraphQL is gone, not that a listing is: no query of the
      // hub answers 404 for an unknown listing (it answers null).
      if (isRunpodApiError(err) && (err.status === 404 || err.status === 410)) {
        err.message = `the hub is read through ${name}, which answered ${err.status}: RunPod retires GraphQL in early 2027. A runpod-dynamic release that reads the hub another way is needed. (${err.message})`;
      }
      throw err;
    }
  };
  return {
    name,
    listings: (input) => explained(api.hub.listings(input)),
    listing: (ref) => explained(api.hub.listing(ref)),
  };
}
