/**
 * `runpod-dynamic serverless workers <endpoint-id>`: the endpoint's active workers
 * (`GET /v2/serverless/{id}/workers`). Scaled-down workers are not listed, so an endpoint scaled to
 * zero has none. A worker whose `version` is not the endpoint's runs an older release (`isStale`),
 * as during a rolling update.
 *
 * JSON/YAML output: `endpointId`, `endpointVersion`, `summary` (`running`, `idle`, `initializing`,
 * `throttled`, `unhealthy`, `total`), `workers`: each `id`, `status`, `isStale`, `version`,
 * `gpuTypeId`, `gpuCount`, `dataCenterId`, `image`, `uptimeSeconds`, `startedAt` (null when the
 * service has no value, as for a worker not placed yet).
 */
import type { schemas } from "../../provider/client/index.js";
import { connect } from "../connect.js";
import { duration, type Terminal, table } from "../output.js";

export const WORKERS_JSON_FIELDS =
  "endpointId, endpointVersion, summary (running, idle, initializing, throttled, unhealthy, total), workers (id, status, isStale, version, gpuTypeId, gpuCount, dataCenterId, image, uptimeSeconds, startedAt)";

const STATUSES = ["running", "idle", "initializing", "throttled", "unhealthy"] as const;

function workerView(w: schemas.Worker) {
  return {
    id: w.id,
    status: w.status ?? null,
    isStale: w.isStale ?? null,
    version: w.version ?? null,
    gpuTypeId: w.gpuTypeId ?? null,
    gpuCount: w.gpuCount ?? null,
    dataCenterId: w.dataCenterId ?? null,
    image: w.image ?? null,
    uptimeSeconds: w.uptimeSeconds ?? null,
    startedAt: w.startedAt ?? null,
  };
}
type WorkerView = ReturnType<typeof workerView>;

/** The service's counts; counted here from the workers when it sent none. */
function summaryOf(answer: schemas.ListEndpointWorkersResponse, workers: readonly WorkerView[]) {
  const counted = (s: (typeof STATUSES)[number]) =>
    workers.filter((w) => w.status?.toLowerCase() === s).length;
  const sent = answer.summary ?? {};
  return {
    running: sent.running ?? counted("running"),
    idle: sent.idle ?? counted("idle"),
    initializing: sent.initializing ?? counted("initializing"),
    throttled: sent.throttled ?? counted("throttled"),
    unhealthy: sent.unhealthy ?? counted("unhealthy"),
    total: sent.total ?? workers.length,
  };
}

/** What a worker runs on: `1x NVIDIA L4`, CPU, or nothing while it is not placed. */
function compute(w: WorkerView): string {
  if (w.gpuCount === 0) return "CPU";
  if (w.gpuTypeId === null) return "";
  return `${w.gpuCount ?? 1}x ${w.gpuTypeId}`;
}

function versionText(w: WorkerView): string {
  if (w.version === null) return "";
  return w.isStale ? `${w.version} (stale)` : String(w.version);
}

export async function printWorkers(out: Terminal, endpointId: string): Promise<void> {
  const { api } = connect(out);
  const answer = await out.spin("Listing the endpoint's workers", () => api.endpoints.workers(endpointId));
  const workers = answer.workers.map(workerView);
  const summary = summaryOf(answer, workers);
  const endpointVersion = answer.endpointVersion ?? null;
  const view = { endpointId, endpointVersion, summary, workers };
  out.data(view, () => {
    const version = endpointVersion === null ? "" : ` The endpoint is at version ${endpointVersion}.`;
    if (workers.length === 0) {
      return [`No active workers: endpoint ${endpointId} is scaled to zero.${version}`];
    }
    return [
      ...table(
        [
          { header: "id" },
          { header: "status" },
          { header: "version" },
          { header: "compute" },
          { header: "data center" },
          { header: "uptime", align: "right" },
          { header: "started" },
        ],
        workers.map((w) => [
          w.id,
          w.status ?? "",
          versionText(w),
          compute(w),
          w.dataCenterId ?? "",
          w.uptimeSeconds === null ? "" : duration(w.uptimeSeconds * 1000),
          out.localTime(w.startedAt),
        ]),
      ),
      "",
      `${summary.total} ${summary.total === 1 ? "worker" : "workers"}: ${STATUSES.map((s) => `${summary[s]} ${s}`).join(", ")}.${version}`,
    ];
  });
}
