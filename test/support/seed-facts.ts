/** Request bodies the suites send, and what the default seed holds, as the suites expect it. */

/**
 * Seed keys leaving out the pods and serverless endpoints the default seed's billing history
 * bills: for suites whose account starts with none of its own, so that "stores nothing" is an
 * empty list.
 */
export const WITHOUT_HISTORY_RESOURCES = { pods: [], endpoints: [] };

/** The pods and endpoints the default seed's billing history bills, as `GET /v2/pods` lists them. */
export const HISTORY_PODS = ["pod-hist-trainer", "pod-hist-notebook", "pod-hist-cpu"];
export const HISTORY_ENDPOINTS = ["ep-hist-sdxl", "ep-hist-vllm"];

/** A pod body: one A40 in US-KS-2 running acme/app:1, whose container starts and stays up. */
export const APP_POD = {
  name: "p",
  image: "acme/app:1",
  gpu: { id: "NVIDIA A40" },
  dataCenterIds: ["US-KS-2"],
};

/** A v2 endpoint body: QUEUE, scaled by queue delay, on the ADA_24 pool, with `fields` (name, image...). */
export function queueEndpoint(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    type: "QUEUE",
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    gpu: { pools: ["ADA_24"] },
    ...fields,
  };
}

/**
 * A typed client's endpoint body: queue-based acme/app:1 on the ADA_24 pool, scaled to zero unless
 * `over.workers` says otherwise.
 */
export function appEndpoint(
  name: string,
  over: { workers?: { min: number; max: number; idleTimeout?: number }; env?: Record<string, string> } = {},
) {
  return {
    name,
    image: "acme/app:1",
    type: "QUEUE" as const,
    scaling: { type: "QUEUE_DELAY" as const, queueDelay: 4 },
    gpu: { pools: ["ADA_24"] },
    ...over,
  };
}

/** The default seed's hub listings by stars, descending (hub-draft, the last, has no release). */
export const HUB_BY_STARS = [
  "hub-comfy",
  "hub-jupyter",
  "hub-comfy-pod",
  "hub-vllm",
  "hub-ollama",
  "hub-sdxl",
  "hub-axolotl",
  "hub-whisper",
  "hub-flux-lora",
  "hub-embed",
  "hub-cpu-tts",
  "hub-draft",
];

/** A hub listing summary's fields (what LISTINGS_QUERY selects), in the order the CLI prints them. */
export const HUB_SUMMARY_FIELDS = [
  "id",
  "title",
  "repoOwner",
  "repoName",
  "type",
  "category",
  "description",
  "tags",
  "stars",
  "deploys",
  "views",
  "language",
  "createdAt",
  "updatedAt",
];

/** hub-vllm's release config, the JSON string as the seed holds it and the hub answers it. */
export const HUB_VLLM_CONFIG =
  '{"runsOn":"GPU","containerDiskInGb":30,"gpuIds":"AMPERE_80,ADA_80_PRO","gpuCount":1,"allowedCudaVersions":["12.4"],"env":[{"key":"MODEL_NAME","input":{"default":"Qwen/Qwen2.5-7B-Instruct"}},{"key":"MAX_MODEL_LEN","input":{"default":8192}}]}';

/** The job routes the emulator gives a queue endpoint, under its serverless address `serverlessUrl`. */
export function queueUrls(serverlessUrl: string, id: string) {
  const at = `${serverlessUrl}/v2/${id}`;
  return {
    run: `${at}/run`,
    runSync: `${at}/runsync`,
    status: `${at}/status/{job_id}`,
    stream: `${at}/stream/{job_id}`,
    cancel: `${at}/cancel/{job_id}`,
    retry: `${at}/retry/{job_id}`,
    purgeQueue: `${at}/purge-queue`,
    health: `${at}/health`,
  };
}

/**
 * The pods' request-size limit as the contract states it (docs/api-model.md, Limits): written out
 * here, never read from the code under test.
 */
export const POD_REQUEST_LIMIT = 102_400;

/** The bytes of `value` as compact JSON in UTF-8: what the limit counts. */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/**
 * `build(pad)` with `pad` a run of "x" (one byte each, in JSON too) just long enough that `measure`
 * of the result is exactly `bytes`. Callers assert the size again, so a change of what is measured
 * fails their test instead of moving the padding.
 */
export function paddedTo<T>(
  bytes: number,
  build: (pad: string) => T,
  measure: (value: T) => number = jsonBytes,
): T {
  const missing = bytes - measure(build(""));
  if (missing < 0) throw new Error(`already ${bytes - missing} bytes without padding, over ${bytes}`);
  return build("x".repeat(missing));
}
