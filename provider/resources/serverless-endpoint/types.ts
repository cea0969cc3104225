/** A ServerlessEndpoint's inputs and outputs as the provider sees them (the declaration's, fields.ts). */
import type { z } from "zod";
import type {
  EndpointScaling,
  ServerlessEndpointArgsSchema,
  ServerlessEndpointStateSchema,
} from "./fields.js";

/** A scaler as a program writes it: on queue delay or on request count. */
export type EndpointScalingInput = z.infer<typeof EndpointScaling>;

/** Checked inputs of a ServerlessEndpoint, as `check` accepts them and the provider sees them. */
export type ServerlessEndpointInputs = z.infer<typeof ServerlessEndpointArgsSchema>;

/** What state keeps of a ServerlessEndpoint. */
export type ServerlessEndpointOutputs = z.infer<typeof ServerlessEndpointStateSchema>;
