/** Where a create starts: a pod an interrupted run left, or a new one placed on the candidates. */

import { type PlacementCandidate, placementSource } from "../../both/candidates.js";
import { catalogCandidates } from "../../both/catalog-candidates.js";
import { nearest } from "../../both/nearest.js";
import type { Pod as ApiPod } from "../../client/schemas/pods.js";
import type { HostContext } from "../../host/context.js";
import {
  describeCandidate,
  findUnacknowledged,
  isPlacementError,
  type PlacementAttempt,
  placePod,
  placePodRetrying,
  wasAmbiguous,
} from "../../host/placement.js";
import { elapsed } from "../../host/progress.js";
import { createBody } from "./body.js";
import { carries } from "./create-key.js";
import { label } from "./label.js";
import { resumeInterrupted, untilUnansweredCreatesSettle } from "./recovery.js";
import type { PodInputs } from "./types.js";

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
 * The GPU types asked for (`gpu.id`, `placement.gpuTypeIds`) that no catalog candidate uses and the
 * GPU catalog does not know: most likely misspelled, so each is named with the nearest known ids
 * rather than dropped without a word. One more catalog read, only when some type found no
 * candidate (it may just have no stock where asked).
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
  const known = (await host.api.listGpuTypes()).map((g) => g.id);
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
  // A network volume pins the pod to the volume's data center (contract: Mounts).
  const volumeId = inputs.mounts?.network?.[0]?.volumeId;
  const volumeDc = volumeId ? (await host.api.getNetworkVolume(volumeId)).dataCenter : undefined;
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
    const list = await catalogCandidates(host.api, {
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
