/**
 * Private container registry credentials (`{base_url}/v2/registries`). The username and password
 * are write-only: an answer carries the id and the name, never the credentials.
 */
import { z } from "zod";

export const CreateRegistryRequest = z.strictObject({
  name: z.string().min(1),
  username: z.string().min(1),
  password: z.string().min(1),
});
export type CreateRegistryRequest = z.infer<typeof CreateRegistryRequest>;

export const Registry = z.looseObject({ id: z.string().min(1), name: z.string() });
export type Registry = z.infer<typeof Registry>;
export const ListRegistriesResponse = z.looseObject({ registries: z.array(Registry) });
