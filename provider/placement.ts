/**
 * Placement: a create places exactly one GPU type in one data center, and the service neither
 * searches for capacity nor falls back (contract: What the service does, 3). The provider walks an
 * ordered list of (data center, GPU type) candidates, one create per candidate, reacting to each
 * status as the contract's Errors table says.
 */
import type { RunpodApi } from "./client/api.js";
import { ERROR_CODES, isRunpodApiError, RunpodApiError } from "./client/errors.js";
import type { Availability, DataCenter, Region } from "./client/schemas/catalog.js";
import type { CreatePodRequest, Pod } from "./client/schemas/pods.js";

/** One place to try. An absent data center lets the scheduler choose among the request's own list. */
export interface PlacementCandidate {
  readonly dataCenterId?: string | undefined;
  readonly gpuTypeId?: string | undefined;
}

const LEVEL_RANK: Record<Availability, number> = { NONE: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

export interface CatalogPlacementOptions {
  /** GPU types in order of preference. For CPU pods leave it out. */
  readonly gpuTypeIds?: readonly string[];
  /** CPU flavor, for CPU pods. */
  readonly cpuFlavorId?: string;
  /** Continent-level regions, in order of preference; all regions when absent. */
  readonly regions?: readonly Region[];
  /** Skip candidates the catalog rates below this. @default "LOW" */
  readonly minAvailability?: Exclude<Availability, "NONE">;
  /** Only data centers among these (for example the one a network volume lives in). */
  readonly dataCenterIds?: readonly string[];
  /** Only data centers eligible for global networking. */
  readonly globalNetworking?: boolean;
  /** @default 12 */
  readonly maxCandidates?: number;
}

/**
 * Ordered candidates from the data-center catalog: NONE is skipped, higher availability first,
 * then the GPU order, then the region order given. The catalog is not a reservation: a candidate
 * can still answer "no capacity", which is why the walk goes on to the next.
 */
export function candidatesFromCatalog(
  dataCenters: readonly DataCenter[],
  options: CatalogPlacementOptions,
): PlacementCandidate[] {
  const min = LEVEL_RANK[options.minAvailability ?? "LOW"];
  const regions = options.regions ?? [];
  const regionRank = (r: Region) => (regions.length === 0 ? 0 : regions.indexOf(r));
  const out: { c: PlacementCandidate; level: number; gpu: number; region: number; dc: number }[] = [];
  dataCenters.forEach((dc, dcIndex) => {
    if (regions.length > 0 && !regions.includes(dc.region)) return;
    if (options.dataCenterIds && !options.dataCenterIds.includes(dc.id)) return;
    if (options.globalNetworking && !dc.globalNetwork) return;
    if (options.cpuFlavorId) {
      const level = dc.cpuAvailability?.find((a) => a.id === options.cpuFlavorId)?.availability ?? "NONE";
      if (LEVEL_RANK[level] >= min) {
        out.push({
          c: { dataCenterId: dc.id },
          level: LEVEL_RANK[level],
          gpu: 0,
          region: regionRank(dc.region),
          dc: dcIndex,
        });
      }
      return;
    }
    (options.gpuTypeIds ?? []).forEach((gpuTypeId, gpuIndex) => {
      const level = dc.gpuAvailability?.find((a) => a.id === gpuTypeId)?.availability ?? "NONE";
      if (LEVEL_RANK[level] < min) return;
      out.push({
        c: { dataCenterId: dc.id, gpuTypeId },
        level: LEVEL_RANK[level],
        gpu: gpuIndex,
        region: regionRank(dc.region),
        dc: dcIndex,
      });
    });
  });
  out.sort((a, b) => b.level - a.level || a.gpu - b.gpu || a.region - b.region || a.dc - b.dc);
  return out.slice(0, options.maxCandidates ?? 12).map((x) => x.c);
}

/** One candidate's outcome, for the report. */
export interface PlacementAttempt {
  readonly candidate: PlacementCandidate;
  readonly status: number | "network" | "timeout";
  readonly detail: string;
}

export function describeCandidate(c: PlacementCandidate): string {
  return `${c.dataCenterId ?? "any data center"}${c.gpuTypeId ? ` / ${c.gpuTypeId}` : ""}`;
}

function report(attempts: readonly PlacementAttempt[]): string {
  return attempts.map((a) => `${describeCandidate(a.candidate)}: ${a.status} ${a.detail}`).join("; ");
}

/** Why placement failed, with every candidate tried. `code` follows the decisive answer. */
export class PlacementError extends RunpodApiError {
  constructor(
    base: RunpodApiError | undefined,
    message: string,
    readonly tried: readonly PlacementAttempt[],
  ) {
    super({
      code: base?.code ?? ERROR_CODES.BAD_REQUEST,
      message,
      status: base?.status,
      title: base?.title,
      detail: base?.detail,
      errors: base?.errors,
      outcome: "rejected",
    });
  }
}

export interface PlacementContext {
  readonly api: RunpodApi;
  /** Emulator- or wall-clock time and sleep, for backoff between attempts. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** Ids this process already owns; an ambiguous create never adopts one of them. */
  readonly claimed: Set<string>;
  /** Retries of one candidate after a 5xx or an unknown outcome. @default 3 */
  readonly retriesPerCandidate?: number;
  readonly onAttempt?: (attempt: PlacementAttempt) => void;
}

/**
 * A pod this process created but never heard back about: same name, created after we sent the
 * request (minus clock skew), not owned by another resource of this process.
 */
async function findUnacknowledged(
  ctx: PlacementContext,
  body: CreatePodRequest,
  sentAt: number,
): Promise<Pod | undefined> {
  const pods = await ctx.api.listPods();
  const skewMs = 5 * 60_000;
  return pods
    .filter((p) => p.name === body.name && !ctx.claimed.has(p.id))
    .filter((p) => Date.parse(p.createdAt) >= sentAt - skewMs)
    .filter(
      (p) =>
        !body.dataCenterIds?.length ||
        (p.dataCenterId !== null && body.dataCenterIds.includes(p.dataCenterId)),
    )
    .filter((p) => (body.gpu ? p.gpu?.id === body.gpu.id : p.cpu?.id === body.cpu?.id))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
}

/**
 * Walks the candidates until one create answers 201 (contract: Errors):
 * 400 next candidate; 402 stop; 403 skip; 404/413/422 fail at once; 429 is waited out by the
 * client; 5xx and unknown outcomes (reset, timeout) first look the pod up by name so a create is
 * never doubled, then retry the same candidate with backoff.
 */
export async function placePod(
  ctx: PlacementContext,
  body: CreatePodRequest,
  candidates: readonly PlacementCandidate[],
): Promise<{ pod: Pod; attempts: PlacementAttempt[]; candidate: PlacementCandidate }> {
  const attempts: PlacementAttempt[] = [];
  const record = (a: PlacementAttempt) => {
    attempts.push(a);
    ctx.onAttempt?.(a);
  };
  const retries = ctx.retriesPerCandidate ?? 3;
  let last400: RunpodApiError | undefined;
  let last: RunpodApiError | undefined;

  for (const candidate of candidates) {
    const attemptBody: CreatePodRequest = {
      ...body,
      ...(candidate.dataCenterId ? { dataCenterIds: [candidate.dataCenterId] } : {}),
      ...(candidate.gpuTypeId && body.gpu ? { gpu: { ...body.gpu, id: candidate.gpuTypeId } } : {}),
    };
    for (let retry = 0; ; retry += 1) {
      const sentAt = ctx.now();
      try {
        const pod = await ctx.api.createPod(attemptBody);
        ctx.claimed.add(pod.id);
        return { pod, attempts, candidate };
      } catch (err) {
        if (!isRunpodApiError(err)) throw err;
        last = err;
        const status = err.status ?? (err.code === ERROR_CODES.TIMEOUT ? "timeout" : "network");
        const detail = err.detail ?? err.message;
        switch (err.code) {
          case ERROR_CODES.BAD_REQUEST:
            last400 = err;
            record({ candidate, status, detail });
            break;
          case ERROR_CODES.FORBIDDEN:
            record({ candidate, status, detail });
            break;
          case ERROR_CODES.PAYMENT_REQUIRED:
            record({ candidate, status, detail });
            throw new PlacementError(
              err,
              `The account balance is exhausted (402); no candidate can succeed, so placement stopped. Add funds and run again. Tried: ${report(attempts)}.`,
              attempts,
            );
          case ERROR_CODES.SERVER_ERROR:
          case ERROR_CODES.NETWORK:
          case ERROR_CODES.TIMEOUT:
          case ERROR_CODES.INVALID_RESPONSE: {
            const found = await findUnacknowledged(ctx, attemptBody, sentAt);
            if (found) {
              ctx.claimed.add(found.id);
              return { pod: found, attempts, candidate };
            }
            record({ candidate, status, detail });
            if (retry < retries) {
              await ctx.sleep(Math.min(8000, 500 * 2 ** retry) * (1 + Math.random()));
              continue;
            }
            break;
          }
          default:
            // 401, 404, 413, 422, a local validation failure, an exhausted 429 wait: the request
            // itself is the problem and every candidate would say the same.
            record({ candidate, status, detail });
            throw err;
        }
      }
      break;
    }
  }

  const all400 = attempts.length > 0 && attempts.every((a) => a.status === 400);
  if (all400 && last400) {
    throw new PlacementError(
      last400,
      `No candidate accepted the pod: every one answered 400. A rule violation fails the same way on every candidate, so treat the last answer as a problem with the request: "${last400.detail}". Tried: ${report(attempts)}.`,
      attempts,
    );
  }
  throw new PlacementError(
    last,
    `No candidate could place the pod (${attempts.length} attempt${attempts.length === 1 ? "" : "s"}). Tried: ${report(attempts)}. Add candidates (placement.candidates, placement.regions or placement.gpuTypeIds) or try again later.`,
    attempts,
  );
}
