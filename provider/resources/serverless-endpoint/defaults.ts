/**
 * What the provider sends where the program leaves a field out: the declared defaults (fields.ts),
 * and the scaler per type, which the API requires on every create and no one default says.
 */
import { declaredDefaults } from "../../fields/derive.js";
import { EndpointWorkers, ServerlessEndpointArgsSchema } from "./fields.js";

const workers = declaredDefaults(EndpointWorkers) as { min: number; max: number };

export const ENDPOINT_API_DEFAULTS = {
  /** The API wants the type on every create; v1 endpoints were all queue-based. */
  type: (declaredDefaults(ServerlessEndpointArgsSchema) as { type: "QUEUE" }).type,
  workersMin: workers.min,
  workersMax: workers.max,
  /** Ours, per type: the API wants a scaler on every create. */
  scaling: {
    QUEUE: { type: "QUEUE_DELAY", queueDelay: 4 },
    LOAD_BALANCER: { type: "REQUEST_COUNT", requestCount: 4 },
  },
} as const;
