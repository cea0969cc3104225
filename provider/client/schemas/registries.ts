/**
 * Private container registry credentials (`{base_url}/v2/registries`). The username and password
 * are write-only: an answer carries the id and the name, never the credentials.
 */
import { z } from "zod";
import { REGISTRY_BODY } from "../../resources/registry/fields.js";

/** The create body: a Registry's declared fields (provider/resources/registry/fields.ts). */
export const CreateRegistryRequest = z.strictObject(REGISTRY_BODY);
export type CreateRegistryRequest = z.infer<typeof CreateRegistryRequest>;

export const Registry = z.looseObject({ id: z.string().min(1), name: z.string() });
export type Registry = z.infer<typeof Registry>;
export const ListRegistriesResponse = z.looseObject({ registries: z.array(Registry) });

/**
 * ECR delegations (`{base_url}/v2/registries/delegations`): RunPod pulls from a private Amazon ECR
 * repository with its own AWS role instead of a stored password. `resource` is the repository's
 * ARN; the service splits it into the delegation's fields.
 */
export const CreateDelegationRequest = z.strictObject({
  resource: z.string().min(1),
  name: z.string().min(1).nullable().optional(),
});
export type CreateDelegationRequest = z.infer<typeof CreateDelegationRequest>;

export const EcrDelegation = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullable().optional(),
  delegatorUserId: z.string().optional(),
  awsUser: z.string().optional(),
  repository: z.string().optional(),
  tag: z.string().optional(),
  awsRegion: z.string().optional(),
  dockerRegistryUri: z.string().optional(),
  createdAt: z.string().optional(),
});
export type EcrDelegation = z.infer<typeof EcrDelegation>;
export const ListDelegationsResponse = z.looseObject({ delegations: z.array(EcrDelegation) });
