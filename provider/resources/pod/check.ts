/** Check: the contract's cross-field rules and limits on a Pod's inputs, before any API call. */

import { encodeBody } from "../../client/request-body.js";
import { MAX_REQUEST_BYTES } from "../../client/schemas/common.js";
import type { CheckFailure } from "../../validation/check-failure.js";
import { commandFailure, largestField, schemaFailures } from "../../validation/failures.js";
import { containsUnknown, isUnknown } from "../../validation/unknown.js";
import { withoutInternal } from "../common.js";
import { PodArgsSchema } from "./fields.js";
import { createBody } from "./translate.js";
import type { PodInputs } from "./types.js";
import { DEFAULT_TIMEOUTS } from "./types.js";

// ---------------------------------------------------------------- check

/** The contract's cross-field rules and limits, skipping what preview cannot know yet. */
export function podRuleFailures(inputs: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string, ...rules: string[]) =>
    failures.push(rules.length > 0 ? { property, reason, rules } : { property, reason });
  const known = (v: unknown) => !isUnknown(v);
  const gpu = inputs.gpu as Record<string, unknown> | undefined;
  const cpu = inputs.cpu as Record<string, unknown> | undefined;
  const mounts = inputs.mounts as Record<string, unknown> | undefined;

  if (gpu === undefined && cpu === undefined)
    fail("gpu", "exactly one of gpu or cpu must be set (neither is)", "pod-gpu-or-cpu");
  if (gpu !== undefined && cpu !== undefined)
    fail("cpu", "exactly one of gpu or cpu must be set (both are)", "pod-gpu-or-cpu");
  if (inputs.image === undefined && inputs.templateId === undefined && inputs.adoptId === undefined) {
    fail("image", "is required unless templateId is set");
  }
  if (gpu && known(gpu)) {
    const allowed = gpu.allowedCudaVersions;
    if (
      Array.isArray(allowed) &&
      allowed.length > 0 &&
      gpu.minCudaVersion !== undefined &&
      known(gpu.minCudaVersion)
    ) {
      fail(
        "gpu.minCudaVersion",
        "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
        "pod-cuda-constraint-conflict",
      );
    }
  }
  if (cpu && known(cpu) && typeof cpu.vcpuCount === "number") {
    const n = cpu.vcpuCount;
    if (Number.isInteger(n) && n >= 2 && (n & (n - 1)) !== 0) {
      fail("cpu.vcpuCount", `must be a power of two (2, 4, 8, ...); got ${n}`, "pod-cpu-vcpu-count");
    }
  }
  if (mounts && known(mounts)) {
    const persistent = mounts.persistent;
    const network = mounts.network;
    const global = mounts.global;
    const nonEmpty = (v: unknown) => isUnknown(v) || (Array.isArray(v) && v.length > 0);
    if (persistent !== undefined && (nonEmpty(network) || nonEmpty(global))) {
      fail(
        "mounts.persistent",
        "cannot be combined with mounts.network or mounts.global; use a network volume alone",
        ...(nonEmpty(network) ? ["pod-persistent-with-network"] : []),
        ...(nonEmpty(global) ? ["pod-persistent-with-global"] : []),
      );
    }
    if (persistent !== undefined && cpu !== undefined) {
      fail(
        "mounts.persistent",
        "is not supported on CPU pods; mount a network volume instead",
        "pod-persistent-on-cpu",
      );
    }
    // Network volumes are Secure Cloud storage (RunPod's storage documentation); the API answers 400.
    if (Array.isArray(network) && network.length > 0 && inputs.cloud === "COMMUNITY") {
      fail(
        "mounts.network",
        "network volumes are available on Secure Cloud only, so a pod with cloud COMMUNITY cannot mount one (the API answers 400)",
        "pod-network-volume-community",
      );
    }
  }
  if (inputs.autostop != null && inputs.locked === true) {
    fail(
      "autostop",
      "cannot be set while locked is true: the API never stops a locked pod",
      "pod-autostop-locked",
    );
  }
  if (inputs.desiredStatus === "STOPPED" && inputs.locked === true) {
    fail("desiredStatus", "cannot be STOPPED while locked is true: the API refuses to stop a locked pod");
  }
  const command = commandFailure(inputs);
  if (command) fail("args", command);
  const placement = inputs.placement as Record<string, unknown> | undefined;
  if (placement && known(placement)) {
    if (
      placement.candidates !== undefined &&
      (placement.regions !== undefined || placement.gpuTypeIds !== undefined)
    ) {
      fail(
        "placement",
        "give either explicit candidates, or regions/gpuTypeIds to build them from the catalog, not both",
      );
    }
    if (cpu !== undefined && placement.gpuTypeIds !== undefined)
      fail("placement.gpuTypeIds", "is for GPU pods; a CPU pod has no GPU type");
    if (placement.candidates !== undefined && placement.order !== undefined)
      fail(
        "placement.order",
        "orders the candidates built from the catalog; explicit candidates are tried in the order given",
      );
    if (
      cpu !== undefined &&
      Array.isArray(placement.candidates) &&
      placement.candidates.some((c) => (c as { gpuTypeId?: unknown })?.gpuTypeId !== undefined)
    ) {
      fail("placement.candidates", "a CPU pod's candidates name data centers only");
    }
    if (placement.anyDataCenter === true && mounts && known(mounts) && mounts.network !== undefined) {
      fail(
        "placement.anyDataCenter",
        "cannot be used with mounts.network: a network volume pins the pod to the volume's data center",
      );
    }
  }
  checkReadiness(inputs, fail);
  if (!containsUnknown(inputs)) {
    // The body as sent (docs/api-model.md, Limits): built as create builds it, with a create key
    // of a real one's length in env, and measured as the client measures what it sends. A
    // template's share is for the service to judge: it cannot be read here.
    const { bytes } = encodeBody(createBody(inputs as unknown as PodInputs, "0".repeat(32)));
    if (bytes > MAX_REQUEST_BYTES) {
      fail(
        largestField(inputs),
        `the create body would be ${bytes} bytes as sent (the create key in env included), over the API's ${MAX_REQUEST_BYTES}-byte limit; reduce env, args or other large values`,
        "pod-request-size",
      );
    }
  }
  return failures;
}

/** readiness: the port it checks is exposed with the right type, and it fits the create timeout. */
export function checkReadiness(
  inputs: Record<string, unknown>,
  fail: (property: string, reason: string) => void,
): void {
  const known = (v: unknown) => !isUnknown(v);
  const r = inputs.readiness as Record<string, unknown> | undefined;
  if (!r || !known(r)) return;
  const { port } = r;
  const check = r.check ?? "RUNNING";
  if (inputs.waitFor !== undefined && inputs.waitFor !== "RUNNING" && (check !== "RUNNING" || r.settle)) {
    fail(
      "readiness",
      `needs waitFor "RUNNING" (it checks the pod once it runs); waitFor is ${String(inputs.waitFor)}`,
    );
  }
  const ports = inputs.ports;
  const exposed = (type: string) =>
    !Array.isArray(ports) ||
    isUnknown(ports) ||
    ports.some((p) => isUnknown(p) || p === `${String(port)}/${type}`);
  if (check === "HTTP" || check === "TCP") {
    const type = check === "HTTP" ? "http" : "tcp";
    if (port === undefined)
      fail("readiness.port", `is required for check ${check} (e.g. ${check === "HTTP" ? 8888 : 22})`);
    else if (known(port) && !exposed(type))
      fail("readiness.port", `${String(port)}/${type} must be in ports for check ${check}`);
  } else if (port !== undefined) {
    fail("readiness.port", `is only for checks HTTP and TCP, not ${String(check)}`);
  }
  if (r.path !== undefined && check !== "HTTP") fail("readiness.path", "is only for check HTTP");
  if (
    check === "PORTS" &&
    Array.isArray(ports) &&
    known(ports) &&
    !ports.some((p) => String(p).endsWith("/tcp"))
  ) {
    fail("readiness.check", "PORTS waits for public <port>/tcp addresses, but ports exposes none");
  }
  const create = (inputs.timeouts as { create?: unknown } | undefined)?.create ?? DEFAULT_TIMEOUTS.create;
  if (typeof r.timeout === "number" && typeof create === "number" && r.timeout > create) {
    fail("readiness.timeout", `(${r.timeout} s) must fit within timeouts.create (${create} s)`);
  }
}

/** Every check failure for a Pod's inputs: the strict schema, then the cross-field rules. */
export function checkPod(news: Record<string, unknown>): CheckFailure[] {
  const inputs = withoutInternal(news);
  return [...schemaFailures(PodArgsSchema, inputs), ...podRuleFailures(inputs)];
}
