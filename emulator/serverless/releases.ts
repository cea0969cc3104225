/**
 * Endpoint releases: a create is release 1; a change to the container settings (image, args, disk,
 * ports, env, registry, directly or through `templateId`) is a new release whose diff also lists
 * the compute and placement fields changed by the same request ("container-affecting changes
 * create a new endpoint release"). Worker-bound settings (workers, scaling, timeout, flashboot,
 * name) apply without one.
 */
import { notFound, unprocessable } from "../http/errors.js";
import { readableTemplate } from "../store/lookups.js";
import type { TemplateRecord } from "../store/records.js";
import type { Container, EndpointRecord, ReleaseRecord } from "../store/serverless-records.js";
import type { Store } from "../store/store.js";
import { instanceIds } from "./compute.js";

/** A serverless template, or 404 (unknown) / 422 (a pod template), as the v2 description answers. */
export function serverlessTemplate(state: Store, id: string, account: string): TemplateRecord {
  const t = readableTemplate(state, id, account);
  if (!t) throw notFound(`Template '${id}' was not found or is not accessible.`);
  if (!t.serverless) throw unprocessable([`$.templateId: template '${id}' is not a serverless template`]);
  return t;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Upstream's field names, as the description's diff examples use them (`template.imageName`). */
const CONTAINER_FIELDS: [keyof Container, string][] = [
  ["image", "template.imageName"],
  ["args", "template.dockerArgs"],
  ["disk", "template.containerDiskInGb"],
  ["ports", "template.ports"],
  ["env", "template.env"],
  ["registry", "template.containerRegistryAuthId"],
];

function placementFields(state: Store, e: EndpointRecord): Record<string, unknown> {
  const c = e.compute;
  return c.kind === "GPU"
    ? {
        gpuCount: c.count,
        // Upstream's one-string selection: pools, then each excluded type with a leading dash.
        gpuIds: [...c.pools, ...c.excludedTypes.map((t) => `-${t}`)].join(","),
        allowedCudaVersions: c.allowedCudaVersions.join(","),
        minCudaVersion: c.minCudaVersion,
        locations: e.dataCenterIds.join(","),
        networkVolumeIds: e.networkVolumes.join(","),
      }
    : {
        instanceIds: instanceIds(state, c).join(","),
        locations: e.dataCenterIds.join(","),
        networkVolumeIds: e.networkVolumes.join(","),
      };
}

/**
 * Records `next` over `previous`: a new release (and version) when the container settings
 * changed, with every changed container and placement field in its diff.
 */
export function recordRelease(
  state: Store,
  previous: EndpointRecord,
  next: EndpointRecord,
  at: number,
  userId: string,
): void {
  const diff: ReleaseRecord["diff"] = [];
  for (const [key, field] of CONTAINER_FIELDS) {
    if (!sameJson(previous.container[key], next.container[key])) {
      diff.push({ field, old: previous.container[key], new: next.container[key] });
    }
  }
  if (diff.length === 0) return;
  const before = placementFields(state, previous);
  const after = placementFields(state, next);
  for (const field of Object.keys(after)) {
    if (!sameJson(before[field], after[field])) {
      diff.push({ field, old: before[field] ?? null, new: after[field] ?? null });
    }
  }
  next.version = previous.version + 1;
  next.releases = [...previous.releases, newRelease(state, next, at, userId, diff)];
}

export function newRelease(
  state: Store,
  e: EndpointRecord,
  at: number,
  userId: string,
  diff: ReleaseRecord["diff"],
): ReleaseRecord {
  return {
    id: state.newId(12),
    version: e.version,
    createdAt: at,
    createdByUserId: userId,
    container: structuredClone(e.container),
    diff,
  };
}
