/** Creates that were never answered: the pod an interrupted run left, taken over, and duplicates removed. */

import { waitUntil } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError, messageOf } from "../../client/errors.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import type { HostContext } from "../../host/context.js";
import type { PlacementAttempt } from "../../host/placement.js";
import { updateBody } from "./body.js";
import { CREATE_KEY_ENV, carries } from "./create-key.js";
import { diffPod } from "./diff.js";
import { label } from "./label.js";
import { podOutputs } from "./outputs.js";
import type { PodInputs } from "./types.js";
import { terminateAndWait } from "./wait.js";

/*
 * The host's claims on pods (`ctx.claims.pods`) are the pods known to belong to a resource in
 * state: the ones this host created or adopted, and every pod id the engine showed it (diff, read,
 * update; the ids `diff` is asked about are recorded by the host, provider/host/bind.ts
 * `diffClaimingShown`). A create takes over only a pod with its create key that is none of these. The engine
 * checks a replacement again without its old inputs, so the replacement carries the same key as
 * the pod it replaces; the diff that decided the replacement has claimed that pod first.
 */

/**
 * How an existing pod compares with the inputs: the replace-only properties it differs in, and its
 * outputs as if it had been created from them (what the PATCH that takes it over starts from).
 */
export function compareWithInputs(pod: ApiPod, inputs: PodInputs, requestedGpuId: string | null) {
  // The pod does not show templateId, startSsh or startJupyter: the outputs take the inputs' values.
  const adopted = { ...podOutputs(pod, inputs), requestedGpuId };
  return { blocking: diffPod(adopted, inputs).replaces, adopted };
}

/**
 * A pod carrying this resource's create key that no resource of this process owns was made by an
 * interrupted run of this resource (the provider process was killed, or the run was cancelled,
 * after the API accepted the create): the engine dropped that pending create, so this create takes
 * the pod over instead of making a second one. One that failed, or that differs in
 * something that cannot change in place, is terminated instead and a new pod is created.
 */
export async function resumeInterrupted(
  ctx: HostContext,
  inputs: PodInputs,
  key: string,
  deleteTimeout: number,
): Promise<ApiPod | undefined> {
  let pods: ApiPod[];
  try {
    pods = await ctx.podsAtStart();
  } catch (err) {
    // A rejected or missing key is the news, and running again would meet it again.
    if (isRunpodApiError(err, ERROR_CODES.UNAUTHORIZED, ERROR_CODES.FORBIDDEN, ERROR_CODES.INVALID_CONFIG))
      throw err;
    throw new Error(
      `could not check for a pod an interrupted run may have left (${messageOf(err)}); nothing was created. Run again.`,
    );
  }
  const left = pods
    .filter((p) => carries(key, p) && !ctx.claims.pods.has(p.id) && p.status !== "TERMINATED")
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  for (const orphan of left) {
    ctx.claims.pods.add(orphan.id);
    const gpus = [
      inputs.gpu?.id,
      ...(inputs.placement?.gpuTypeIds ?? []),
      ...(inputs.placement?.candidates ?? []).map((c) => c.gpuTypeId),
    ];
    // A fallback GPU type placement could have chosen is not a difference.
    const requested =
      orphan.gpu && gpus.includes(orphan.gpu.id) ? (inputs.gpu?.id ?? null) : (orphan.gpu?.id ?? null);
    const { blocking, adopted } = compareWithInputs(orphan, inputs, requested);
    const unusable =
      orphan.status === "ERROR" || orphan.status === "EXITED"
        ? `it is ${orphan.status}`
        : blocking.length > 0
          ? `it differs from the inputs in ${blocking.join(", ")}`
          : undefined;
    if (unusable) {
      ctx.progress(
        label(inputs),
        `pod ${orphan.id} was left by an interrupted run but ${unusable}; terminating it`,
      );
      await terminateAndWait(ctx, orphan.id, deleteTimeout);
      ctx.claims.pods.delete(orphan.id);
      continue;
    }
    ctx.progress(
      label(inputs),
      `taking over pod ${orphan.id} (${orphan.status}), created by an interrupted run`,
    );
    const body = updateBody(adopted, inputs, orphan.env);
    return Object.keys(body).length > 0 ? await ctx.api.updatePod(orphan.id, body) : orphan;
  }
  return undefined;
}

/** Waits until every unanswered create of these attempts has landed or died (wall-clock time). */
export async function untilUnansweredCreatesSettle(attempts: readonly PlacementAttempt[]): Promise<void> {
  await waitUntil(Math.max(0, ...attempts.map((a) => a.settlesAt ?? 0)));
}

/**
 * After a create that went unanswered at least once: a late request may have made a second pod
 * with this resource's create key. It is ours and nobody else's, so it is terminated. Looked for
 * once the unanswered requests have settled (usually long before the pod is RUNNING).
 */
export async function terminateDuplicates(
  ctx: HostContext,
  inputs: PodInputs,
  key: string,
  keep: string,
  attempts: readonly PlacementAttempt[],
  deleteTimeout: number,
) {
  await untilUnansweredCreatesSettle(attempts);
  let pods: ApiPod[];
  try {
    pods = await ctx.api.listPods();
  } catch (err) {
    ctx.progress(
      label(inputs),
      `could not check for a duplicate made by an unanswered create (${messageOf(err)}); look for pods with ${CREATE_KEY_ENV}=${key} in their environment`,
    );
    return;
  }
  for (const dup of pods.filter((p) => carries(key, p) && p.id !== keep && !ctx.claims.pods.has(p.id))) {
    try {
      await terminateAndWait(ctx, dup.id, deleteTimeout);
      ctx.progress(label(inputs), `terminated pod ${dup.id}, a duplicate made by an unanswered create`);
    } catch (err) {
      ctx.progress(
        label(inputs),
        `pod ${dup.id}, a duplicate made by an unanswered create, could not be terminated (${messageOf(err)}); delete it in the RunPod console, it bills`,
      );
    }
  }
}
