/** Registry credential and ECR delegation bodies (v2 description: CreateRegistryRequest, CreateDelegationRequest). */
import { z } from "zod";

export const CreateRegistryRequest = z.strictObject({
  name: z.string().min(1),
  username: z.string().min(1),
  password: z.string().min(1),
});

export const CreateDelegationRequest = z.strictObject({
  resource: z.string(),
  name: z.string().nullable().optional(),
});
