/**
 * Hub listings, as the service answers runpodctl's GraphQL queries (`POST {base_url}/graphql`).
 * `listedRelease.config` is a JSON-encoded string, not an object, exactly as the service sends it.
 */
import { z } from "zod";

export const HUB_ORDER_BY = ["createdAt", "deploys", "releasedAt", "stars", "updatedAt", "views"] as const;
export const HUB_ORDER_DIR = ["asc", "desc"] as const;
export const HUB_TYPES = ["POD", "SERVERLESS"] as const;

export const HubListingSummary = z.looseObject({
  id: z.string(),
  title: z.string().nullable().optional(),
  repoName: z.string(),
  repoOwner: z.string(),
  description: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  type: z.string(),
  tags: z.array(z.string()).nullable().optional(),
  stars: z.number().nullable().optional(),
  views: z.number().nullable().optional(),
  deploys: z.number().nullable().optional(),
  language: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HubListingSummary = z.infer<typeof HubListingSummary>;

export const HubRelease = z.looseObject({
  id: z.string(),
  name: z.string().nullable().optional(),
  tagName: z.string().nullable().optional(),
  config: z.string().nullable().optional(),
  deploys: z.number().nullable().optional(),
  createdAt: z.string().nullable().optional(),
  releasedAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
  build: z.looseObject({ imageName: z.string().nullable().optional() }).nullable().optional(),
});
export type HubRelease = z.infer<typeof HubRelease>;

export const HubListing = HubListingSummary.extend({
  repoOwnerAvatarUrl: z.string().nullable().optional(),
  openIssues: z.number().nullable().optional(),
  watchers: z.number().nullable().optional(),
  listedRelease: HubRelease.nullable().optional(),
});
export type HubListing = z.infer<typeof HubListing>;

/** The part of a release's `config` string a serverless create reads. */
export const HubReleaseConfig = z.looseObject({
  runsOn: z.string().optional(),
  containerDiskInGb: z.number().optional(),
  gpuIds: z.string().optional(),
  gpuCount: z.number().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  env: z
    .array(
      z.looseObject({
        key: z.string(),
        input: z.looseObject({ default: z.unknown() }).nullable().optional(),
      }),
    )
    .optional(),
});
export type HubReleaseConfig = z.infer<typeof HubReleaseConfig>;

export const GraphqlResponse = <T extends z.ZodType>(data: T) =>
  z.looseObject({
    data: data.nullable().optional(),
    errors: z.array(z.looseObject({ message: z.string() })).optional(),
  });

export const LISTINGS_QUERY = `query Listings($input: ListingsInput!) {
  listings(input: $input) { id title repoName repoOwner description category type tags stars views deploys language createdAt updatedAt }
}`;

const LISTING_FULL_FIELDS = `id title repoName repoOwner repoOwnerAvatarUrl description category type tags stars views deploys
  openIssues watchers language createdAt updatedAt
  listedRelease { id name tagName config deploys createdAt releasedAt updatedAt build { imageName } }`;

export const LISTING_QUERY = `query GetListing($id: String!) { listing(id: $id) { ${LISTING_FULL_FIELDS} } }`;
export const LISTING_FROM_REPO_QUERY = `query GetListingFromRepo($repoOwner: String!, $repoName: String!) {
  listingFromRepo(repoOwner: $repoOwner, repoName: $repoName) { ${LISTING_FULL_FIELDS} }
}`;
