/** Create keys: how an unanswered create is told apart from every other pod of the account. */

import { randomBytes } from "node:crypto";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import { stackMark } from "../stack-identity/marks.js";

// ---------------------------------------------------------------- create keys

/**
 * Every pod this provider creates carries its resource's create key in this environment variable:
 * 32 hex digits, a hash that means nothing outside this provider. It is how an unanswered create
 * (a reset, a timeout, a provider process killed while the pod was starting) is told apart from
 * every other pod of the account, in this run and in the next one.
 */
export const CREATE_KEY_ENV = "RUNPOD_DYNAMIC_CREATE_KEY";
export const CREATE_KEY = /^[0-9a-f]{32}$/;

/**
 * The key of a resource's first create, from the stack instance's identity (a random value kept in
 * its state, provider/resources/stack-identity.ts) and where the resource lives in the stack
 * (parent and name). Another stack never computes it, whatever its organization, project, stack
 * and backend are called, nor does this stack once removed and initialised again; the same
 * resource gets the same key in the run after an interrupted one.
 */
export function createKeyOf(stackIdentity: string, parentUrn: string, name: string): string {
  return stackMark("Pod", stackIdentity, parentUrn, name);
}

/** A key for one create whose caller gave none: no later run computes it again. */
export function oneTimeCreateKey(): string {
  return randomBytes(16).toString("hex");
}

export function createKeyIn(props: unknown): string | undefined {
  const key = (props as { __createKey?: unknown } | undefined)?.__createKey;
  return typeof key === "string" && CREATE_KEY.test(key) ? key : undefined;
}

/** Whether a pod was created for the resource with this create key. */
export const carries = (key: string, pod: ApiPod) => pod.env[CREATE_KEY_ENV] === key;
