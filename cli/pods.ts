/**
 * `runpod-dynamic pods list|start|stop|restart|logs` on `{base_url}/v2/pods`.
 *
 * `start`, `stop` and `restart` are `POST /v2/pods/{id}/action` and print the pod's status as the
 * API answers it. Which actions a pod allows depends on its status (the pod's `actions`): RUNNING
 * allows stop and restart; EXITED and ERROR allow start; PROVISIONING and STARTING allow stop. An
 * action the status does not allow is a 409, reported with the pod's status and its valid actions
 * as read right after. A start can be refused (400) when the pod's machine has no free GPUs or CPUs
 * for it any more: a stopped pod resumes on the machine it stopped on, so it stays stopped and the
 * same start may work later. Terminating is not offered here: it deletes the pod and its disk.
 *
 * JSON/YAML output:
 * - list: an array of pods with `id`, `name`, `status`, `actions`, `gpuId`, `gpuCount`, `cpuId`,
 *   `vcpuCount`, `costPerHr` (USD), `cloud`, `dataCenterId`, `image`, `createdAt` (null when the pod
 *   has no value: `gpuId`/`gpuCount` on CPU pods, `cpuId` on GPU pods).
 * - start, stop, restart: `id`, `name`, `action`, `status` (after the action), `actions` (valid now).
 * - logs: one object per log line (cli/logs.ts).
 */
import type { Command } from "commander";
import { ERROR_CODES, isRunpodApiError, type RunpodApi, type schemas } from "../provider/client/index.js";
import { connect } from "./connect.js";
import { addLogOptions, type LogOptions, logHelp, printPodLogs } from "./logs.js";
import { count, money, type Terminal, table } from "./output.js";
import { addOutputOptions, type FormatOptions, textOption } from "./parse.js";

type Pod = schemas.Pod;
type PodAction = "start" | "stop" | "restart";

const LIST_FIELDS =
  "id, name, status, actions, gpuId, gpuCount, cpuId, vcpuCount, costPerHr, cloud, dataCenterId, image, createdAt";

function podView(p: Pod) {
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    actions: p.actions ?? [],
    gpuId: p.gpu?.id ?? null,
    gpuCount: p.gpu ? (p.gpu.count ?? 1) : null,
    cpuId: p.cpu?.id ?? null,
    vcpuCount: p.gpu?.vcpuCount ?? p.cpu?.vcpuCount ?? null,
    costPerHr: p.cost ?? null,
    cloud: p.cloud,
    dataCenterId: p.dataCenterId,
    image: p.image,
    createdAt: p.createdAt,
  };
}

/** What a pod runs on, for people: `2x NVIDIA H100 80GB HBM3` or `cpu3c, 4 vCPUs`. */
function compute(p: Pod): string {
  if (p.gpu) return `${p.gpu.count ?? 1}x ${p.gpu.id}`;
  if (p.cpu) return `${p.cpu.id}, ${count(p.cpu.vcpuCount)} vCPUs`;
  return "";
}

const DONE: Record<PodAction, string> = { start: "Started", stop: "Stopped", restart: "Restarted" };

/**
 * The action's error, its message made to say what the user can do: for a 409 the pod's status and
 * valid actions (read again: the error does not carry them), for a refused start that the pod
 * stays stopped. The API's detail and the error's code and status are kept.
 */
async function explained(api: RunpodApi, id: string, action: PodAction, err: unknown): Promise<unknown> {
  if (!isRunpodApiError(err)) return err;
  const detail = err.detail ?? err.message;
  if (err.code === ERROR_CODES.CONFLICT) {
    let state: string | undefined;
    try {
      const pod = await api.pods.get(id);
      const valid = `valid actions now: ${pod.actions?.join(", ") || "none"}.`;
      state = pod.locked
        ? `it is locked, and a locked pod cannot be stopped, restarted or terminated: unlock it first (locked: false in the program, or the console); ${valid}`
        : `it is ${pod.status}; ${valid}`;
    } catch {
      // The detail alone still says why; the status could not be read to add to it.
    }
    err.message = `cannot ${action} pod ${id}: ${state ? `${state} RunPod said: ${detail}` : detail}`;
  } else if (action === "start" && err.code === ERROR_CODES.BAD_REQUEST) {
    err.message = `pod ${id} did not start: ${detail} The pod stays stopped; try again later.`;
  }
  return err;
}

function registerAction(pods: Command, out: Terminal, action: PodAction, description: string): void {
  addOutputOptions(
    pods
      .command(action)
      .description(description)
      .argument("<pod-id>", "the pod's id (see `pods list`)", textOption("<pod-id>")),
  )
    .addHelpText("after", "\nJSON fields: id, name, action, status (after the action), actions (valid now).")
    .action(async (id: string, _opts: FormatOptions) => {
      const { api } = connect(out);
      let pod: Pod;
      try {
        pod =
          (await out.spin(`${action} pod ${id}`, () => api.pods.action(id, action))) ??
          (await api.pods.get(id));
      } catch (err) {
        throw await explained(api, id, action, err);
      }
      const view = { id: pod.id, name: pod.name, action, status: pod.status, actions: pod.actions ?? [] };
      out.data(view, () => [
        `${DONE[action]} pod ${pod.id} (${pod.name}); its status is now ${pod.status}.`,
        `Valid actions now: ${pod.actions?.join(", ") || "none"}.`,
      ]);
    });
}

export function registerPods(program: Command, out: Terminal): void {
  const pods = program
    .command("pods")
    .description("Pods: list them, stop, start or restart one, read one's log.");

  addOutputOptions(pods.command("list").description("List the account's pods."))
    .addHelpText("after", `\nJSON fields (one object per pod): ${LIST_FIELDS}.`)
    .action(async () => {
      const { api } = connect(out);
      const list = await out.spin("Listing pods", () => api.pods.list());
      out.data(list.map(podView), () =>
        list.length === 0
          ? ["No pods."]
          : table(
              [
                { header: "id" },
                { header: "name" },
                { header: "status" },
                { header: "compute" },
                { header: "cost/h", align: "right" },
                { header: "data center" },
                { header: "created" },
              ],
              list.map((p) => [
                p.id,
                p.name,
                p.status,
                compute(p),
                p.cost === undefined ? "" : money(p.cost),
                p.dataCenterId ?? "",
                out.localTime(p.createdAt),
              ]),
            ),
      );
    });

  registerAction(pods, out, "stop", "Stop a pod: its GPUs or CPUs are released, its disk is kept (EXITED).");
  registerAction(
    pods,
    out,
    "start",
    "Start a stopped pod on the machine it stopped on; refused while that machine is full.",
  );
  registerAction(pods, out, "restart", "Restart a running pod's container in place.");

  addLogOptions(
    pods
      .command("logs")
      .description("Print a pod's log (container and system lines); --follow to keep printing.")
      .argument("<pod-id>", "the pod's id (see `pods list`)", textOption("<pod-id>")),
  )
    .addHelpText("after", logHelp("ts, source (container or system), line"))
    .action((id: string, opts: LogOptions) => printPodLogs(out, id, opts));
}
