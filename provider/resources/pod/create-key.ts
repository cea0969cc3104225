/** Create keys: how an unanswered create is told apart from every other pod of the account. */

import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";

// ---------------------------------------------------------------- create keys

/**
 * Every pod this provider creates carries its resource's create key in this environment variable:
 * 32 hex digits, a hash that means nothing outside this provider. It is how an unanswered create
 * (a reset, a timeout, a provider process killed while the pod was starting) is told apart from
 * every other pod of the account, in this run and in the next one.
 */
export const CREATE_KEY_ENV = "RUNPOD_DYNAMIC_CREATE_KEY";
export const CREATE_KEY = /^[0-9a-f]{32}$/;

export function keyHash(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\0")).digest("hex").slice(0, 32);
}

/**
 * Program side: the key of a resource's first create, from where the resource lives (organization,
 * project, stack, parent, name). Two stacks with a pod of the same name get different keys; the
 * same resource gets the same key in the run after an interrupted one.
 */
export function createKeyOf(name: string, parentUrn: string): string {
  let organization = "";
  try {
    organization = pulumi.getOrganization();
  } catch {
    // Engines older than organizations, and test engines, do not pass one.
  }
  return keyHash("runpod-dynamic:Pod", organization, pulumi.getProject(), pulumi.getStack(), parentUrn, name);
}

export function createKeyIn(props: unknown): string | undefined {
  const key = (props as { __createKey?: unknown } | undefined)?.__createKey;
  return typeof key === "string" && CREATE_KEY.test(key) ? key : undefined;
}

/** Whether a pod was created for the resource with this create key. */
export const carries = (key: string, pod: ApiPod) => pod.env[CREATE_KEY_ENV] === key;
