/**
 * `runpod-dynamic serverless releases <endpoint-id>`: the endpoint's configuration versions,
 * newest first, with what each changed, and how far the current one has rolled out to the workers
 * (`GET /v2/serverless/{id}/releases`). A release is made by a change to the container settings
 * (image, args, disk, ports, env, registry), or by a build (`source` GIT_BUILD, with `buildId`).
 *
 * Environment values may be secrets (tokens, passwords), and a release's diff of the env carries
 * them: they are never printed. Such an entry keeps its keys with each value `[redacted]`, plus
 * `changedKeys`: the keys added, removed or given another value.
 *
 * JSON/YAML output: `endpointId`, `endpointVersion`, `rollout` (`inProgress`, `workersOnLatest`,
 * `workersTotal`, `percentOnLatest`), `releases`: each `id`, `version`, `source`, `buildId`,
 * `createdByUserId`, `workerCount`, `createdAt`, `diff` (each `field`, `old`, `new`).
 */
import { connect } from "../connect.js";
import { type Terminal, table } from "../output.js";

export const RELEASES_JSON_FIELDS =
  "endpointId, endpointVersion, rollout (inProgress, workersOnLatest, workersTotal, percentOnLatest), releases (id, version, source, buildId, createdByUserId, workerCount, createdAt, diff: field, old, new; an env entry also changedKeys, its values redacted)";

const REDACTED = "[redacted]";
/** The diff fields that hold an environment: `template.env` as the service names it, or `env`. */
const ENV_FIELD = /(^|\.)env$/i;
/** Longest value shown in the table's change lines; JSON output keeps every value whole. */
const SHOWN_VALUE = 60;

type DiffEntry = { field: string; old: unknown; new: unknown };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function redactedEnv(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (!isRecord(value)) return REDACTED;
  return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]));
}

/** The keys of two env maps that were added, removed or changed, sorted. */
function changedKeys(before: unknown, after: unknown): string[] {
  const a = isRecord(before) ? before : {};
  const b = isRecord(after) ? after : {};
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !(k in a) || !(k in b) || JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .sort();
}

function diffView(entry: DiffEntry) {
  if (!ENV_FIELD.test(entry.field))
    return { field: entry.field, old: entry.old ?? null, new: entry.new ?? null };
  return {
    field: entry.field,
    old: redactedEnv(entry.old),
    new: redactedEnv(entry.new),
    changedKeys: changedKeys(entry.old, entry.new),
  };
}
type DiffView = ReturnType<typeof diffView>;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > SHOWN_VALUE ? `${text.slice(0, SHOWN_VALUE - 1)}…` : text;
}

function changeLine(d: DiffView): string {
  if ("changedKeys" in d)
    return `${d.field}: ${d.changedKeys.join(", ") || "no key"} changed (values not shown)`;
  return `${d.field}: ${shown(d.old)} -> ${shown(d.new)}`;
}

export async function printReleases(out: Terminal, endpointId: string): Promise<void> {
  const { api } = connect(out);
  const answer = await out.spin("Listing the endpoint's releases", () => api.endpoints.releases(endpointId));
  const releases = answer.releases.map((r) => ({
    id: r.id,
    version: r.version ?? null,
    source: r.source ?? null,
    buildId: r.buildId ?? null,
    createdByUserId: r.createdByUserId ?? null,
    workerCount: r.workerCount ?? null,
    createdAt: r.createdAt ?? null,
    diff: (r.diff ?? []).map(diffView),
  }));
  const rollout = {
    inProgress: answer.rollout?.inProgress ?? null,
    workersOnLatest: answer.rollout?.workersOnLatest ?? null,
    workersTotal: answer.rollout?.workersTotal ?? null,
    percentOnLatest: answer.rollout?.percentOnLatest ?? null,
  };
  const endpointVersion = answer.endpointVersion ?? null;
  out.data({ endpointId, endpointVersion, rollout, releases }, () => {
    if (releases.length === 0) return [`Endpoint ${endpointId} has no releases.`];
    const lines = table(
      [
        { header: "version", align: "right" },
        { header: "id" },
        { header: "source" },
        { header: "workers", align: "right" },
        { header: "created" },
        { header: "changes" },
      ],
      releases.map((r) => [
        r.version === null ? "" : String(r.version),
        r.id,
        `${r.source ?? ""}${r.buildId ? ` ${r.buildId}` : ""}`,
        r.workerCount === null ? "" : String(r.workerCount),
        out.localTime(r.createdAt),
        r.diff.map((d) => d.field).join(", ") || "(first release)",
      ]),
    );
    lines.push("", rolloutLine(endpointVersion, rollout));
    for (const r of releases.filter((r) => r.diff.length > 0)) {
      lines.push("", `Version ${r.version ?? r.id} changed:`, ...r.diff.map((d) => `  ${changeLine(d)}`));
    }
    return lines;
  });
}

function rolloutLine(
  endpointVersion: number | null,
  r: {
    inProgress: boolean | null;
    workersOnLatest: number | null;
    workersTotal: number | null;
    percentOnLatest: number | null;
  },
): string {
  const version = endpointVersion === null ? "the current version" : `version ${endpointVersion}`;
  if (r.workersTotal === 0) return `Rollout: no active workers; new workers start on ${version}.`;
  if (r.workersTotal === null || r.workersOnLatest === null) return `Rollout: not reported.`;
  const state = r.inProgress ? "in progress" : "complete";
  return `Rollout ${state}: ${r.workersOnLatest} of ${r.workersTotal} workers on ${version}${r.percentOnLatest === null ? "" : ` (${r.percentOnLatest}%)`}.`;
}
