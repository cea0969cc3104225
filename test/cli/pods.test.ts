/**
 * `runpod-dynamic pods list|start|stop|restart` against the emulator (`GET /v2/pods`,
 * `POST /v2/pods/{id}/action`). Emulator time is frozen; a pod is put in the status a test needs
 * through the control plane, and a full machine is made by setting its free stock to 0. The
 * account starts without the pods the default seed's billing history bills.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { errorText } from "../support/cli.js";
import { cliHarnessForAllTests, runCommand } from "../support/cli-in-process.js";
import { loadDescription } from "../support/conformance/description.js";
import { START } from "../support/emulator.js";
import { startScriptedServer } from "../support/scripted-server.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const H100 = "NVIDIA H100 80GB HBM3";

const h = cliHarnessForAllTests({ clockScale: 0, startTime: START, seed: WITHOUT_HISTORY_RESOURCES });
beforeEach(() => {
  h.emu.control.reset(WITHOUT_HISTORY_RESOURCES);
});

const gpuPod = async (name: string) =>
  (await h.api.pods.create({ name, image: "acme/app:1", gpu: { id: H100 } })).id;
const running = async (name: string) => {
  const id = await gpuPod(name);
  h.emu.control.setPodStatus(id, "RUNNING");
  return id;
};

describe("pods list", () => {
  it("prints every pod with stable fields, GPU and CPU alike", async () => {
    const gpu = await running("trainer");
    const cpu = (
      await h.api.pods.create({ name: "cpu", image: "acme/app:1", cpu: { id: "cpu3c", vcpuCount: 4 } })
    ).id;
    const pods = await h.json<Record<string, unknown>[]>(["pods", "list"]);
    expect(h.routes()).toEqual(["base GET /v2/pods"]);
    expect(pods).toEqual([
      {
        id: gpu,
        name: "trainer",
        status: "RUNNING",
        actions: ["stop", "restart", "terminate"],
        gpuId: H100,
        gpuCount: 1,
        cpuId: null,
        vcpuCount: expect.any(Number),
        costPerHr: 2.99,
        cloud: "SECURE",
        dataCenterId: expect.any(String),
        image: "acme/app:1",
        createdAt: "2026-11-21T12:00:00.000Z",
      },
      {
        id: cpu,
        name: "cpu",
        status: "PROVISIONING",
        actions: ["stop", "terminate"],
        gpuId: null,
        gpuCount: null,
        cpuId: "cpu3c",
        vcpuCount: 4,
        costPerHr: 0.12,
        cloud: "SECURE",
        dataCenterId: expect.any(String),
        image: "acme/app:1",
        createdAt: "2026-11-21T12:00:00.000Z",
      },
    ]);
  });

  it("a table for people, and a line when there are none", async () => {
    const id = await running("trainer");
    const dataCenter = (await h.api.pods.get(id)).dataCenterId ?? "";
    const res = await h.run(["pods", "list"], { TZ: "Europe/Paris" });
    expect([res.code, res.stderr]).toEqual([0, ""]);
    expect(res.stdout.split("\n")).toEqual([
      expect.stringMatching(/^ID {14}NAME {5}STATUS {3}COMPUTE {20}COST\/H {2}DATA CENTER {2}CREATED$/),
      `${id}  trainer  RUNNING  1x NVIDIA H100 80GB HBM3  $2.9900  ${dataCenter.padEnd(11)}  2026-11-21 13:00 GMT+1`,
      "",
    ]);
    h.emu.control.reset(WITHOUT_HISTORY_RESOURCES);
    const empty = await h.run(["pods", "list"]);
    expect([empty.code, empty.stdout]).toEqual([0, "No pods.\n"]);
  });
});

describe("pods list of an answer RunPod's own description calls valid", () => {
  it("reads the description's example pods, whose gpu lacks vcpuCount and memory", async () => {
    type Answer = { content: Record<string, { examples: Record<string, { value: unknown }> }> };
    const answer = loadDescription().paths["/v2/pods"]?.get?.responses["200"] as Answer | undefined;
    const example = answer?.content["application/json"]?.examples.pods?.value;
    const server = await startScriptedServer([
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(example));
      },
    ]);
    try {
      const res = await runCommand(["pods", "list", "--json"], {
        RUNPOD_API_KEY: "rpa_TEST",
        RUNPOD_BASE_URL: server.url,
        RUNPOD_ALLOW_INSECURE_HTTP: "true",
      });
      const pods = JSON.parse(res.stdout) as { id: string; gpuId: string; vcpuCount: number | null }[];
      expect([res.code, pods.map((p) => [p.id, p.gpuId, p.vcpuCount])]).toEqual([
        0,
        [["7h9k2m4n6p", "NVIDIA GeForce RTX 4090", null]],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("pods stop|start|restart", () => {
  it("stop sends {action: stop} and prints the new status", async () => {
    const id = await running("trainer");
    const res = await h.json<Record<string, unknown>>(["pods", "stop", id]);
    expect([h.routes(), h.recorder.requests[0]?.body]).toEqual([
      [`base POST /v2/pods/${id}/action`],
      { action: "stop" },
    ]);
    expect(res).toEqual({
      id,
      name: "trainer",
      action: "stop",
      status: "EXITED",
      actions: ["start", "terminate"],
    });
  });

  it("start on a stopped pod, restart on a running one, in the table", async () => {
    const id = await running("trainer");
    await h.api.pods.action(id, "stop");
    const started = await h.run(["pods", "start", id]);
    expect([started.code, started.stdout, h.recorder.requests[0]?.body]).toEqual([
      0,
      `Started pod ${id} (trainer); its status is now PROVISIONING.\nValid actions now: stop, terminate.\n`,
      { action: "start" },
    ]);
    h.emu.control.setPodStatus(id, "RUNNING");
    const restarted = await h.run(["pods", "restart", id]);
    expect([restarted.code, restarted.stdout, h.recorder.requests[0]?.body]).toEqual([
      0,
      `Restarted pod ${id} (trainer); its status is now STARTING.\nValid actions now: stop, terminate.\n`,
      { action: "restart" },
    ]);
  });

  it("a start refused for capacity (400) says the pod stays stopped and to try again later; exit 1", async () => {
    const id = await running("trainer");
    await h.api.pods.action(id, "stop");
    const dataCenterId = (await h.api.pods.get(id)).dataCenterId ?? "";
    h.emu.control.setCapacity({ dataCenterId, gpuTypeId: H100, free: 0 });
    const res = await h.run(["pods", "start", id]);
    const json = await h.run(["pods", "start", id, "--json"]);
    expect([res.code, res.stdout, errorText(res)]).toEqual([
      1,
      "",
      `Error: pod ${id} did not start: There are not enough free GPUs on the host machine to start this pod. The pod stays stopped; try again later.`,
    ]);
    expect([json.code, JSON.parse(json.stderr)]).toEqual([
      1,
      {
        error: `pod ${id} did not start: There are not enough free GPUs on the host machine to start this pod. The pod stays stopped; try again later.`,
        code: "RUNPOD_BAD_REQUEST",
        status: 400,
        detail: "There are not enough free GPUs on the host machine to start this pod.",
        errors: [],
      },
    ]);
    expect((await h.api.pods.get(id)).status).toBe("EXITED");
  });

  it.each([
    ["start", "RUNNING", "stop, restart, terminate"],
    ["stop", "EXITED", "start, terminate"],
    ["restart", "EXITED", "start, terminate"],
  ] as const)(
    "%s on a %s pod (409) names its status and valid actions; exit 1",
    async (action, status, valid) => {
      const id = await running("trainer");
      if (status === "EXITED") await h.api.pods.action(id, "stop");
      const res = await h.run(["pods", action, id, "--json"]);
      expect(h.routes()).toEqual([`base POST /v2/pods/${id}/action`, `base GET /v2/pods/${id}`]);
      expect([res.code, res.stdout, JSON.parse(res.stderr)]).toEqual([
        1,
        "",
        {
          error: `cannot ${action} pod ${id}: it is ${status}; valid actions now: ${valid}. RunPod said: Action '${action}' is not valid for a pod in status ${status}; valid: ${valid}.`,
          code: "RUNPOD_CONFLICT",
          status: 409,
          detail: `Action '${action}' is not valid for a pod in status ${status}; valid: ${valid}.`,
          errors: [],
        },
      ]);
    },
  );

  it("a locked pod: the lock is the reason, and its actions no longer list what it forbids", async () => {
    const id = await running("trainer");
    await h.api.pods.update(id, { locked: true });
    const res = await h.run(["pods", "stop", id]);
    expect([res.code, errorText(res)]).toEqual([
      1,
      `Error: cannot stop pod ${id}: it is locked, and a locked pod cannot be stopped, restarted or terminated: unlock it first (locked: false in the program, or the console); valid actions now: none. RunPod said: Pod '${id}' is locked and cannot be stopped; unlock it (PATCH locked=false) first.`,
    ]);
  });

  it("a 409 whose pod cannot be read again still gives the API's reason", async () => {
    const id = await running("trainer");
    h.emu.control.addFault({ method: "GET", path: `^/v2/pods/${id}$`, status: 403, times: 1 });
    const res = await h.run(["pods", "start", id]);
    expect([res.code, errorText(res)]).toEqual([
      1,
      `Error: cannot start pod ${id}: Action 'start' is not valid for a pod in status RUNNING; valid: stop, restart, terminate.`,
    ]);
  });

  it("an unknown pod is the API's 404, exit 1", async () => {
    const res = await h.run(["pods", "stop", "nope"]);
    expect([res.code, errorText(res)]).toEqual([
      1,
      "Error: POST /v2/pods/nope/action: 404 Not Found: Pod 'nope' was not found. It does not exist or this API key cannot see it.",
    ]);
  });

  it.each([
    [["pods", "stop"], "error: missing required argument 'pod-id'"],
    [
      ["pods", "start", "   "],
      "error: command-argument value '   ' is invalid for argument 'pod-id'. <pod-id> must be between 1 and 191 characters.",
    ],
    [
      ["pods", "restart", "a", "b"],
      "error: too many arguments for 'restart'. Expected 1 argument but got 2.",
    ],
    [["pods", "terminate", "a"], "error: unknown command 'terminate'"],
    [["pods", "list", "--all"], "error: unknown option '--all'"],
  ])("%j exits 2 and sends nothing", async (args, message) => {
    const res = await h.run(args);
    expect([res.code, errorText(res), h.recorder.requests]).toEqual([2, message, []]);
  });

  it.each([
    [
      ["pods", "list"],
      "JSON fields (one object per pod): id, name, status, actions, gpuId, gpuCount, cpuId, vcpuCount, costPerHr, cloud, dataCenterId, image, createdAt.",
    ],
    [["pods", "stop"], "JSON fields: id, name, action, status (after the action), actions (valid now)."],
    [["pods", "start"], "JSON fields: id, name, action, status (after the action), actions (valid now)."],
    [["pods", "restart"], "JSON fields: id, name, action, status (after the action), actions (valid now)."],
  ])("%j --help names the JSON fields", async (path, text) => {
    const res = await runCommand([...path, "--help"]);
    expect([res.code, res.stdout]).toEqual([0, expect.stringContaining(text)]);
  });
});
