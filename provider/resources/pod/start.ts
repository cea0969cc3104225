/**
 * Where a create starts: a pod an interrupted run left, taken over, or a new one placed on the
 * candidates; and, once the pod is accepted, the duplicates an unanswered create made, removed.
 */

import { distance } from "fastest-levenshtein";
import { catalogCandidates, type PlacementCandidate, placementSource } from "../../catalog/candidates.js";
import { waitUntil } from "../../client/create-once.js";
import { ERROR_CODES, isRunpodApiError, messageOf } from "../../client/errors.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import type { HostContext } from "../../host/context.js";
import { elapsed } from "../../host/context.js";
import {
  describeCandidate,
  findUnacknowledged,
  isPlacementError,
  outOfCapacity,
  type PlacementAttempt,
  placePod,
  placePodRetrying,
  wasAmbiguous,
} from "../../host/placement.js";
import { diffPod } from "./diff.js";
import { CREATE_KEY_ENV, carries, createBody, podOutputs, updateBody } from "./translate.js";
import { label, type PodInputs } from "./types.js";
import { terminateAndWait } from "./wait.js";

/**
 * The pod a create starts from: one an interrupted run left (only with a key a later run computes
 * again, `resumes`), or a new one placed by the candidates.
 */
export async function startPod(
  host: HostContext,
  inputs: PodInputs,
  key: { readonly value: string; readonly resumes: boolean },
  deleteTimeout: number,
): Promise<{ pod: ApiPod; unanswered: readonly PlacementAttempt[] }> {
  if (key.resumes) {
    const resumed = await resumeInterrupted(host, inputs, key.value, deleteTimeout);
    if (resumed) return { pod: resumed, unanswered: [] };
  }
  const body = createBody(inputs, key.value);
  const ctx = {
    api: host.api,
    clock: host.clock,
    claimed: host.claims.pods,
    onAttempt: (a: PlacementAttempt) =>
      host.progress(
        label(inputs),
        `${describeCandidate(a.candidate)} answered ${a.status}: ${a.detail}${a.next ? `; ${a.next}` : ""}`,
      ),
    onFound: (a: PlacementAttempt, found: ApiPod) =>
      host.progress(
        label(inputs),
        `the create in ${describeCandidate(a.candidate)} went unanswered (${a.status}); found the pod it made, ${found.id}`,
      ),
    isOwnPod: (p: ApiPod) => carries(key.value, p),
  };
  const candidates = await buildCandidates(host, inputs);
  const retryFor = inputs.placement?.retryFor ?? 0;
  try {
    const { pod, attempts, candidate } =
      retryFor > 0
        ? await placePodRetrying(ctx, body, candidates, retryFor * 1000, (round, waitMs, leftMs) =>
            host.progress(
              label(inputs),
              `every candidate is out of capacity (round ${round}); walking the list again in ${elapsed(waitMs)} (placement.retryFor: ${elapsed(leftMs)} left)`,
            ),
          )
        : await placePod(ctx, body, candidates);
    const where = describeCandidate({
      dataCenterId: pod.dataCenterId ?? candidate.dataCenterId,
      gpuTypeId: pod.gpu?.id,
    });
    host.progress(
      label(inputs),
      `created ${pod.id} in ${where}${attempts.length > 0 ? ` after ${attempts.length} rejected attempt(s)` : ""}`,
    );
    return { pod, unanswered: attempts.filter(wasAmbiguous) };
  } catch (err) {
    forgetWhatFailureProvesStale(host, inputs, err);
    // An unanswered create may land after every later attempt failed: one last look for it, once
    // it has settled.
    const unanswered = isPlacementError(err) ? err.tried.filter(wasAmbiguous) : [];
    if (unanswered.length > 0) {
      await untilUnansweredCreatesSettle(unanswered);
      const found = await findUnacknowledged(ctx).catch(() => undefined);
      if (found) {
        host.claims.pods.add(found.id);
        host.progress(label(inputs), `found ${found.id}, made by a create that went unanswered`);
        return { pod: found, unanswered: [] };
      }
    }
    throw err;
  }
}

/**
 * What a failed walk proves about the shared reads the candidates came from: every candidate out
 * of capacity means the catalog's stock ratings are stale; any other refusal may be about the
 * network volume (deleted, or not where it was), which is read again.
 */
function forgetWhatFailureProvesStale(host: HostContext, inputs: PodInputs, err: unknown): void {
  if (!isPlacementError(err)) return;
  if (outOfCapacity(err.tried)) host.reads.forgetCatalog();
  const volumeId = inputs.mounts?.network?.[0]?.volumeId;
  if (volumeId && !outOfCapacity(err.tried)) host.reads.forgetVolume(volumeId);
}

/**
 * The GPU types asked for (`gpu.id`, `placement.gpuTypeIds`) that no catalog candidate uses and the
 * GPU catalog does not know: most likely misspelled, so each is named with the nearest known ids
 * rather than dropped without a word. One more catalog read, only when some type found no
 * candidate (it may just have no stock where asked), and shared with every pod of the host.
 */
async function unknownGpuTypes(
  host: HostContext,
  inputs: PodInputs,
  list: readonly PlacementCandidate[],
): Promise<string[]> {
  if (!inputs.gpu) return [];
  const asked: [string, string][] = [
    ["gpu.id", inputs.gpu.id],
    ...(inputs.placement?.gpuTypeIds ?? []).map((id, i): [string, string] => [
      `placement.gpuTypeIds[${i}]`,
      id,
    ]),
  ];
  const unused = asked.filter(([, id]) => !list.some((c) => c.gpuTypeId === id));
  if (unused.length === 0) return [];
  const known = (await host.reads.catalog.gpuTypes()).map((g) => g.id);
  return unused
    .filter(([, id]) => !known.includes(id))
    .map(
      ([field, id]) =>
        `${field} "${id}" is not a GPU type the catalog knows (nearest: ${nearest(id, known)
          .map((k) => `"${k}"`)
          .join(", ")})`,
    );
}

/** The candidates to walk, then the unpinned one when `placement.anyDataCenter` asks for it. */
export async function buildCandidates(host: HostContext, inputs: PodInputs): Promise<PlacementCandidate[]> {
  const list = await pinnedCandidates(host, inputs);
  if (inputs.placement?.anyDataCenter !== true || list.some((c) => c.dataCenterId === undefined)) return list;
  return [...list, inputs.gpu ? { gpuTypeId: inputs.gpu.id } : {}];
}

export async function pinnedCandidates(host: HostContext, inputs: PodInputs): Promise<PlacementCandidate[]> {
  const p = inputs.placement;
  // A network volume pins the pod to the volume's data center (docs/api-model.md, Mounts).
  const volumeId = inputs.mounts?.network?.[0]?.volumeId;
  const volumeDc = volumeId ? (await host.reads.volume(volumeId)).dataCenter : undefined;
  const allowDc = (dc: string | undefined) => volumeDc === undefined || dc === undefined || dc === volumeDc;

  const source = placementSource(p);
  if (source === "candidates" && p?.candidates) {
    const list = p.candidates
      .filter((c) => allowDc(c.dataCenterId))
      .map((c) => ({
        dataCenterId: c.dataCenterId,
        gpuTypeId: inputs.gpu ? (c.gpuTypeId ?? inputs.gpu.id) : undefined,
      }));
    if (list.length === 0) {
      throw new Error(
        `${label(inputs)}: no placement candidate is in ${volumeDc}, where network volume ${volumeId} lives.`,
      );
    }
    return list;
  }
  if (source === "catalog" && p) {
    const list = await catalogCandidates(host.reads.catalog, {
      ...(inputs.gpu ? { gpuTypeIds: [inputs.gpu.id, ...(p.gpuTypeIds ?? [])] } : {}),
      ...(inputs.cpu ? { cpuFlavorId: inputs.cpu.id } : {}),
      ...(p.regions ? { regions: p.regions } : {}),
      ...(p.minAvailability ? { minAvailability: p.minAvailability } : {}),
      ...(p.maxCandidates ? { maxCandidates: p.maxCandidates } : {}),
      ...(p.order ? { order: p.order } : {}),
      ...(inputs.cloud ? { cloud: inputs.cloud } : {}),
      ...(volumeDc
        ? { dataCenterIds: [volumeDc] }
        : inputs.dataCenterIds?.length
          ? { dataCenterIds: inputs.dataCenterIds }
          : {}),
      ...(inputs.globalNetworking ? { globalNetworking: true } : {}),
      ...(inputs.gpu?.allowedCudaVersions?.length
        ? { allowedCudaVersions: inputs.gpu.allowedCudaVersions }
        : {}),
      ...(inputs.gpu?.minCudaVersion ? { minCudaVersion: inputs.gpu.minCudaVersion } : {}),
      ...(inputs.gpu?.count !== undefined && inputs.gpu.count > 1 ? { gpuCount: inputs.gpu.count } : {}),
      ...(p.countryCodes?.length ? { countryCodes: p.countryCodes } : {}),
    });
    const unknown = await unknownGpuTypes(host, inputs, list);
    for (const u of unknown) host.progress(label(inputs), `${u}; no candidate can use it`);
    if (list.length === 0 && p.anyDataCenter !== true) {
      throw new Error(
        `${label(inputs)}: the catalog lists no data center with ${inputs.gpu ? [inputs.gpu.id, ...(p.gpuTypeIds ?? [])].join(" or ") : inputs.cpu?.id} available${p.regions ? ` in ${p.regions.join(", ")}` : ""}${volumeDc ? ` in ${volumeDc}` : ""}. ${unknown.length > 0 ? `${unknown.join("; ")}. ` : ""}Widen placement.regions or placement.gpuTypeIds.`,
      );
    }
    return list;
  }
  if (volumeDc && !inputs.dataCenterIds?.length) return [{ dataCenterId: volumeDc }];
  return [{}];
}

// ---------------------------------------------------------------- creates never answered

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
async function resumeInterrupted(
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
    return Object.keys(body).length > 0 ? await ctx.api.pods.update(orphan.id, body) : orphan;
  }
  return undefined;
}

/** Waits until every unanswered create of these attempts has landed or died (wall-clock time). */
async function untilUnansweredCreatesSettle(attempts: readonly PlacementAttempt[]): Promise<void> {
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
    pods = await ctx.api.pods.list();
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

// ---------------------------------------------------------------- GPU type names

/**
 * The `count` entries of `known` closest to `name` by edit distance (case ignored), nearest first.
 * @example nearest("NVIDIA A4O", ["NVIDIA A40", "NVIDIA L40S", "NVIDIA H100 80GB HBM3"], 2) // ["NVIDIA A40", "NVIDIA L40S"]
 */
function nearest(name: string, known: readonly string[], count = 2): string[] {
  const wanted = name.toLowerCase();
  return [...known]
    .map((k) => ({ k, d: distance(wanted, k.toLowerCase()) }))
    .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k))
    .slice(0, count)
    .map(({ k }) => k);
}
