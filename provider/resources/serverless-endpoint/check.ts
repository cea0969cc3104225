/**
 * A ServerlessEndpoint's `check`: the strict schema, then the contract's cross-field rules, each
 * failure naming the property. What preview cannot know yet is left for the next check.
 */
import type { CheckFailure } from "../../validation/check-failure.js";
import { schemaFailures } from "../../validation/failures.js";
import { isUnknown } from "../../validation/unknown.js";
import { isKnown, withoutInternal } from "../common.js";
import { ENDPOINT_API_DEFAULTS } from "./defaults.js";
import { ServerlessEndpointArgsSchema } from "./fields.js";

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0;

/** The cross-field rules, skipping what preview cannot know yet. */
export function serverlessEndpointRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string, ...rules: string[]) =>
    failures.push(rules.length > 0 ? { property, reason, rules } : { property, reason });
  const gpu = inputs.gpu as Record<string, unknown> | undefined;
  const cpu = inputs.cpu as unknown[] | undefined;
  const workers = inputs.workers as Record<string, unknown> | undefined;
  const scaling = inputs.scaling as Record<string, unknown> | undefined;
  const type = inputs.type ?? ENDPOINT_API_DEFAULTS.type;

  if (gpu === undefined && cpu === undefined) {
    fail(
      "gpu",
      "an endpoint needs compute: gpu.pools (serverless GPU pools, in order) or cpu (flavor and vCPU pairs)",
      "serverless-gpu-types",
    );
  }
  if (gpu !== undefined && cpu !== undefined) fail("cpu", "exactly one of gpu and cpu may be set (both are)");
  if (inputs.image === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
    fail("image", "is required unless templateId is set");
  }
  if (isKnown(gpu) && gpu) {
    const allowed = gpu.allowedCudaVersions;
    if (Array.isArray(allowed) && allowed.length > 0 && isKnown(gpu.minCudaVersion)) {
      fail(
        "gpu.minCudaVersion",
        "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
      );
    }
  }
  if (isKnown(cpu) && Array.isArray(cpu)) {
    const seen = new Set<string>();
    cpu.forEach((c, i) => {
      // The schema reports an entry that is not an object; the rules read only well-formed ones.
      if (c === null || typeof c !== "object") return;
      const entry = c as Record<string, unknown>;
      if (typeof entry.vcpuCount === "number" && !isPowerOfTwo(entry.vcpuCount)) {
        fail(`cpu[${i}].vcpuCount`, `must be a power of two (2, 4, 8, ...); got ${entry.vcpuCount}`);
      }
      const key = `${String(entry.id)}/${String(entry.vcpuCount)}`;
      if (seen.has(key)) fail(`cpu[${i}]`, `repeats ${key}; each configuration may appear once`);
      seen.add(key);
    });
  }
  const min = workers?.min ?? ENDPOINT_API_DEFAULTS.workersMin;
  const max = workers?.max ?? ENDPOINT_API_DEFAULTS.workersMax;
  if (typeof min === "number" && typeof max === "number" && min > max) {
    fail(
      "workers.min",
      `must not exceed workers.max (${min} > ${max}${workers?.max === undefined ? ", the default" : ""}); raise workers.max or lower workers.min`,
      "serverless-workers-range",
    );
  }
  if (!isUnknown(type) && isKnown(scaling) && scaling && !isUnknown(scaling.type)) {
    if (type === "LOAD_BALANCER" && scaling.type === "QUEUE_DELAY") {
      fail("scaling", "a LOAD_BALANCER endpoint scales on REQUEST_COUNT; QUEUE_DELAY needs a queue");
    }
    if (type === "QUEUE" && scaling.type === "REQUEST_COUNT" && isKnown(workers?.idleTimeout)) {
      fail(
        "workers.idleTimeout",
        "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT (the API answers 400)",
      );
    }
  }
  return failures;
}

/** Every check failure for a ServerlessEndpoint's inputs: the strict schema, then the cross-field rules. */
export function checkServerlessEndpoint(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(ServerlessEndpointArgsSchema, inputs), ...serverlessEndpointRuleFailures(inputs)];
}
