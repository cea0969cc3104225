/**
 * The hub queries RunPod's own clients send to `POST {base_url}/graphql`, as GraphQL documents
 * (same operations, variables and selections; the layout is this file's). This repository's client
 * sends runpodctl's (provider/client/schemas/hub.ts); these are what the emulator must also answer.
 */

/** runpodctl `hub list` and `hub search`: `listings(input)` with a summary of each listing. */
export const RUNPODCTL_LISTINGS = `query Listings($input: ListingsInput!) {
  listings(input: $input) {
    id title repoName repoOwner description category type tags stars views deploys language createdAt updatedAt
  }
}`;

/** runpodctl's full listing selection (`hub get`, `serverless create --hub-id`), newest form. */
const RUNPODCTL_LISTING_FIELDS = `
    id title repoName repoOwner repoOwnerAvatarUrl description category type tags
    stars views deploys openIssues watchers language createdAt updatedAt
    listedRelease {
      id name tagName body readme branch license config deploys iconUrl authorName
      createdAt releasedAt updatedAt
      build { imageName }
      tests
    }`;

export const RUNPODCTL_LISTING = `query GetListing($id: String!) {
  listing(id: $id) {${RUNPODCTL_LISTING_FIELDS}
  }
}`;

export const RUNPODCTL_LISTING_FROM_REPO = `query GetListingFromRepo($repoOwner: String!, $repoName: String!) {
  listingFromRepo(repoOwner: $repoOwner, repoName: $repoName) {${RUNPODCTL_LISTING_FIELDS}
  }
}`;

/**
 * runpod-mcp `list-hub-repos` and `deploy-hub-repo`: the whole catalog in one anonymous query,
 * with each listing's `repoId` and its release build's `id`; the release `config` only when asked.
 */
export function runpodMcpListings(withConfig: boolean): string {
  return `query {
  listings(input: {}) {
    id repoId title description repoName repoOwner createdAt updatedAt views stars deploys
    language category tags type
    listedRelease {
      id name tagName createdAt${withConfig ? " config" : ""}
      build { id imageName }
    }
  }
}`;
}
