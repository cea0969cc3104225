/**
 * `runpod-dynamic serverless logs <endpoint-id> [--worker <id>]`: the logs of an endpoint's
 * workers. A log belongs to a worker, not to the endpoint, so without --worker the endpoint's
 * active workers are listed once (`GET /v2/serverless/{id}/workers`) and every one's log is read
 * at once, each line stamped with its worker id (cli/logs.ts). A worker that starts later needs
 * the command run again. `--worker` reads one worker's log without listing them, so the id of a
 * worker that has since scaled down still works while its log is kept.
 */
import { connect } from "../connect.js";
import { CliError } from "../errors.js";
import { type LogOptions, type LogTarget, printLogs } from "../logs.js";
import type { Terminal } from "../output.js";

export interface EndpointLogOptions extends LogOptions {
  worker?: string;
}

export async function printEndpointLogs(
  out: Terminal,
  endpointId: string,
  opts: EndpointLogOptions,
): Promise<void> {
  const { api } = connect(out);
  let workerIds: string[];
  if (opts.worker !== undefined) {
    workerIds = [opts.worker];
  } else {
    const { workers } = await out.spin("Listing the endpoint's workers", () =>
      api.endpoints.workers(endpointId),
    );
    workerIds = workers.map((w) => w.id);
    if (workerIds.length === 0) {
      throw new CliError(
        `endpoint ${endpointId} has no active workers, so no log to read: it is scaled to zero. A job starts a worker (\`runpod-dynamic jobs run --endpoint-id ${endpointId} ...\`); the id of one that ran earlier still works with --worker.`,
        "NO_WORKERS",
      );
    }
  }
  const targets: LogTarget[] = workerIds.map((workerId) => ({
    workerId,
    open: (query, options) => api.endpoints.workerLogEvents(endpointId, workerId, query, options),
  }));
  await printLogs(out, targets, opts);
}
