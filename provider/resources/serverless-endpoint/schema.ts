/**
 * The strict schema a ServerlessEndpoint's `check` validates against: the v2 create body with the
 * type and the scaler optional (the provider sends defaults), a tighter name and timeout, and the
 * provider's `adoptId`. Kept out of provider/resources/serverless-endpoint.ts so the declarations
 * programs compile against never import zod; `ServerlessEndpointInputs` (the arguments type resolved, types.ts) is proven equal to it.
 */
import { z } from "zod";
import { CreateEndpointRequest } from "../../client/schemas/endpoints.js";
import type { Same } from "../same-type.js";
import type { ServerlessEndpointInputs } from "./types.js";

export const ServerlessEndpointArgsSchema = CreateEndpointRequest.extend({
  name: z.string().min(1).max(191),
  type: CreateEndpointRequest.shape.type.optional(),
  scaling: CreateEndpointRequest.shape.scaling.optional(),
  /** Requests run from 5 s up to 7 days. */
  timeout: z
    .int()
    .min(5_000)
    .max(7 * 24 * 3_600_000)
    .optional(),
  adoptId: z.string().min(1).optional(),
});

// Fails the build as soon as `ServerlessEndpointInputs` and the schema stop describing the same object.
true satisfies Same<ServerlessEndpointInputs, z.infer<typeof ServerlessEndpointArgsSchema>>;
