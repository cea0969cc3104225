/**
 * A ServerlessEndpoint's defaults, apart from the code that uses them so the declarations programs
 * compile against (runpod-dynamic/review exports them) never reach the zod-typed request bodies.
 */

/** What the provider sends where the program leaves a field out (the API's own defaults, and ours). */
export const ENDPOINT_API_DEFAULTS = {
  /** Ours: the API wants the type on every create; v1 endpoints were all queue-based. */
  type: "QUEUE",
  workersMin: 0,
  workersMax: 3,
  /** Ours, per type: the API wants a scaler on every create. */
  scaling: {
    QUEUE: { type: "QUEUE_DELAY", queueDelay: 4 },
    LOAD_BALANCER: { type: "REQUEST_COUNT", requestCount: 4 },
  },
} as const;
