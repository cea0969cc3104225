/** examples/quickstart through every phase of a stack's life, on the real Pulumi runtime and provider host. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { isSecret, UNKNOWN } from "./engine.js";
import { type ExampleRun, exampleRun, leftovers, TIME_SCALE } from "./phases.js";

let emu: RunningEmulator;
let run: ExampleRun;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 21 });
  run = exampleRun(
    emu,
    "quickstart",
    "runpod-quickstart",
    { "runpod-quickstart:hfToken": "hf_SECRET_TOKEN_123" },
    ["runpod-quickstart:hfToken"],
  );
});
afterAll(async () => {
  await emu.close();
  const dir = process.env.E2E_REPORT_DIR;
  if (dir) writeFileSync(join(dir, "quickstart.json"), JSON.stringify(run.reports, null, 2));
});

const ALL = ["my-key", "sdxl", "smoke-test", "trainer", "workspace"];
const ops = (op: string, names = ALL) => names.map((n) => `${op} ${n}`).sort();

describe("quickstart", { timeout: 120_000 }, () => {
  it("preview: everything to create, outputs unknown, no API writes", async () => {
    const r = await run.up("preview", {}, true);
    expect([r.code, r.ops, r.writes, r.stackOutputs.podId, r.stackOutputs.endpointUrl]).toEqual([
      0,
      ops("create"),
      0,
      UNKNOWN,
      UNKNOWN,
    ]);
  });

  it("up: creates everything, the pod RUNNING in its volume's data center, the smoke test COMPLETED", async () => {
    const r = await run.up("up");
    const out = r.stackOutputs;
    expect([r.code, r.ops, out.podStatus, out.dataCenter, out.smokeTestStatus]).toEqual([
      0,
      ops("create"),
      "RUNNING",
      "US-TX-3",
      "COMPLETED",
    ]);
    expect([out.sshDirect, out.sshProxy, out.endpointUrl]).toEqual([
      expect.stringMatching(/^ssh root@[\d.]+ -p \d+ /),
      expect.stringMatching(/@ssh\.runpod\.io/),
      expect.stringMatching(new RegExp(`^${emu.serverlessUrl}/v2/\\w+/$`)),
    ]);
    expect(isSecret(out.jupyterPassword)).toBe(true);
    expect([
      r.byRoute["POST /v2/pods"],
      r.byRoute["POST /v1/endpoints"],
      r.byRoute["PUT /v2/account/ssh-keys"],
    ]).toEqual([1, 1, 1]);
  });

  it("state keeps env and the Jupyter password secret, and never holds the API key", () => {
    const pod = [...run.state.resources.values()].find((r) => r.name === "trainer");
    expect(pod?.secretKeys.sort()).toEqual(["env", "jupyterPassword"]);
    const text = run.state.toJSON(Buffer.alloc(32, 1));
    expect([
      text.includes(emu.apiKey),
      text.includes("hf_SECRET_TOKEN_123"),
      text.includes(String(pod?.outputs.jupyterPassword)),
    ]).toEqual([false, false, false]);
  });

  it("up again with no change: every resource the same, zero API writes", async () => {
    const r = await run.up("no-op");
    expect([r.ops, r.writes]).toEqual([ops("same"), 0]);
    expect([r.code, r.errors]).toEqual([0, []]);
  });

  it("an edit that updates in place", async () => {
    const r = await run.up("update", {
      "runpod-quickstart:image": "runpod/pytorch:2.5.1-py3.11-cuda12.4.1-devel-ubuntu22.04",
      "runpod-quickstart:workersMax": "3",
      "runpod-quickstart:volumeSize": "100",
    });
    expect([
      r.ops,
      r.byRoute["PATCH /v2/pods/:id"],
      r.byRoute["PATCH /v1/endpoints/:id"],
      r.byRoute["PATCH /v2/network-volumes/:id"],
      r.byRoute["POST /v2/pods"],
    ]).toEqual([
      ["same my-key", "same smoke-test", "update sdxl", "update trainer", "update workspace"],
      1,
      1,
      1,
      undefined,
    ]);
  });

  it("an edit that replaces the pod: the new one comes up before the old one goes", async () => {
    const before = run.state.resources.get(
      [...run.state.resources.keys()].find((k) => k.endsWith("::trainer")) ?? "",
    )?.id;
    const r = await run.up("replace", { "runpod-quickstart:gpuType": "NVIDIA A100 80GB PCIe" });
    expect([r.ops, r.details, r.byRoute["POST /v2/pods"], r.byRoute["DELETE /v2/pods/:id"]]).toEqual([
      ["replace trainer", "same my-key", "same sdxl", "same smoke-test", "same workspace"],
      { trainer: ["gpu.id"] },
      1,
      1,
    ]);
    expect(leftovers(emu).pods).not.toContain(before);
    // The pod was in state before, and the replacement was created before the old one was deleted.
    expect(typeof before).toBe("string");
    const order = r.writeRoutes.filter((w) => w === "POST /v2/pods" || w === "DELETE /v2/pods/:id");
    expect(order).toEqual(["POST /v2/pods", "DELETE /v2/pods/:id"]);
  });

  it("refresh after an out-of-band change shows the drift", async () => {
    const podId = String(
      run.state.resources.get([...run.state.resources.keys()].find((k) => k.endsWith("::trainer")) ?? "")?.id,
    );
    await apiFor(emu).updatePod(podId, { image: "someone/else:latest" });
    emu.control.clearRequests();
    const r = await run.refresh("refresh");
    expect([r.ops, r.details.trainer, r.writes]).toEqual([
      ["drift trainer", "refresh my-key", "refresh sdxl", "refresh smoke-test", "refresh workspace"],
      ["image"],
      0,
    ]);
  });

  it("destroy: everything deleted, the emulator holds nothing of the stack", async () => {
    const r = await run.destroy("destroy");
    expect([r.ops, leftovers(emu)]).toEqual([
      ops("delete"),
      { pods: [], endpoints: [], sshKeys: [], templates: [], networkVolumes: [] },
    ]);
  });

  it("nothing the provider host printed contains the API key or a secret value", () => {
    const all = run.log.join("\n");
    expect([all.includes(emu.apiKey), all.includes("hf_SECRET_TOKEN_123")]).toEqual([false, false]);
    // The scan saw what the host printed: its progress lines are in the log.
    expect(all).toMatch(/^\[host\] runpod Pod quickstart-trainer: created \w+ in US-TX-3 \/ /m);
  });
});
