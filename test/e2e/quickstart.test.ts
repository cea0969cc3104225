/** examples/quickstart through every phase of a stack's life, with the real Pulumi CLI. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  type ExampleRun,
  exampleRun,
  INSTALL_TIMEOUT_MS,
  leftovers,
  SECRET_SHOWN,
  TIME_SCALE,
} from "./phases.js";

const HF_TOKEN = "hf_SECRET_TOKEN_123";
let emu: RunningEmulator;
let run: ExampleRun;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 21 });
  run = await exampleRun(emu, "quickstart", { "runpod-quickstart:hfToken": HF_TOKEN }, [
    "runpod-quickstart:hfToken",
  ]);
}, INSTALL_TIMEOUT_MS);
afterAll(async () => {
  run?.close();
  await emu.close();
  const dir = process.env.E2E_REPORT_DIR;
  if (dir && run) {
    const reports = run.reports.map(({ result: _result, ...r }) => r);
    writeFileSync(join(dir, "quickstart.json"), JSON.stringify(reports, null, 2));
  }
});

const ALL = ["my-key", "sdxl", "smoke-test", "trainer", "workspace"];
const ops = (op: string, names = ALL) => names.map((n) => `${op} ${n}`).sort();

describe("quickstart through the real CLI", { timeout: 180_000 }, () => {
  it("pulumi preview: everything to create, no API writes", async () => {
    const r = await run.up("preview", {}, true);
    expect([r.code, r.ops, r.writes]).toEqual([0, ops("create"), 0]);
  });

  it("pulumi up: creates everything, the pod RUNNING in its volume's data center, the smoke test COMPLETED", async () => {
    const r = await run.up("up");
    const out = await run.outputs();
    expect([r.code, r.ops, out.podStatus, out.dataCenter, out.smokeTestStatus]).toEqual([
      0,
      ops("create"),
      "RUNNING",
      "US-TX-3",
      "COMPLETED",
    ]);
    expect([out.sshDirect, out.sshProxy, out.endpointUrl, out.jupyterPassword]).toEqual([
      expect.stringMatching(/^ssh root@[\d.]+ -p \d+ /),
      expect.stringMatching(/@ssh\.runpod\.io/),
      expect.stringMatching(new RegExp(`^${emu.serverlessUrl}/v2/\\w+/$`)),
      SECRET_SHOWN,
    ]);
    expect([
      r.byRoute["POST /v2/pods"],
      r.byRoute["POST /v2/serverless"],
      r.byRoute["PUT /v2/account/ssh-keys"],
    ]).toEqual([1, 1, 1]);
  });

  it("state keeps env and the Jupyter password secret, and never holds the API key", async () => {
    const { text, deployment } = await run.stack.exportState();
    const pod = deployment.resources?.find((r) => r.urn.endsWith("::trainer"));
    const secretOutputs = Object.entries(pod?.outputs ?? {})
      .filter(([, v]) => typeof v === "object" && v !== null && "ciphertext" in v)
      .map(([k]) => k)
      .sort();
    const password = (await run.stack.outputs(true)).jupyterPassword;
    expect(secretOutputs).toEqual(["env", "jupyterPassword"]);
    expect([text.includes(emu.apiKey), text.includes(HF_TOKEN), text.includes(String(password))]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("pulumi up --expect-no-changes: every resource the same, zero API writes", async () => {
    const r = await run.up("no-op");
    expect([r.code, r.ops, r.writes]).toEqual([0, ops("same"), 0]);
  });

  it("an edit that updates in place", async () => {
    const r = await run.up("update", {
      "runpod-quickstart:image": "runpod/pytorch:2.5.1-py3.11-cuda12.4.1-devel-ubuntu22.04",
      "runpod-quickstart:workersMax": "3",
      "runpod-quickstart:volumeSize": "100",
    });
    expect([
      r.code,
      r.ops,
      r.byRoute["PATCH /v2/pods/:id"],
      r.byRoute["PATCH /v2/serverless/:id"],
      r.byRoute["PATCH /v2/network-volumes/:id"],
      r.byRoute["POST /v2/pods"],
    ]).toEqual([
      0,
      ["same my-key", "same smoke-test", "update sdxl", "update trainer", "update workspace"],
      1,
      1,
      1,
      undefined,
    ]);
  });

  it("an edit that replaces the pod: the new one comes up before the old one goes", async () => {
    const before = await run.idOf("trainer");
    const r = await run.up("replace", { "runpod-quickstart:gpuType": "NVIDIA A100 80GB PCIe" });
    expect([r.code, r.ops, r.details, r.byRoute["POST /v2/pods"], r.byRoute["DELETE /v2/pods/:id"]]).toEqual([
      0,
      ["replace trainer", "same my-key", "same sdxl", "same smoke-test", "same workspace"],
      { trainer: ["gpu.id"] },
      1,
      1,
    ]);
    expect(leftovers(emu).pods).toEqual([await run.idOf("trainer")]);
    expect(leftovers(emu).pods).not.toContain(before);
    const order = r.writeRoutes.filter((w) => w === "POST /v2/pods" || w === "DELETE /v2/pods/:id");
    expect(order).toEqual(["POST /v2/pods", "DELETE /v2/pods/:id"]);
  });

  it("pulumi refresh after an out-of-band change shows the drift", async () => {
    await apiFor(emu).pods.update(await run.idOf("trainer"), { image: "someone/else:latest" });
    emu.control.clearRequests();
    const r = await run.refresh("refresh");
    expect([r.code, r.ops, r.details.trainer, r.writes]).toEqual([
      0,
      ["drift trainer", "refresh my-key", "refresh sdxl", "refresh smoke-test", "refresh workspace"],
      ["image"],
      0,
    ]);
  });

  it("pulumi destroy: everything deleted, the emulator holds nothing of the stack", async () => {
    const r = await run.destroy("destroy");
    expect([r.code, r.ops, leftovers(emu)]).toEqual([
      0,
      ops("delete"),
      { pods: [], endpoints: [], sshKeys: [], templates: [], networkVolumes: [] },
    ]);
  });

  it("nothing the CLI, the program or the provider host printed contains the API key or a secret value", () => {
    const all = run.reports.map((r) => r.result.stdout + r.result.stderr).join("\n");
    expect([all.includes(emu.apiKey), all.includes(HF_TOKEN)]).toEqual([false, false]);
    // The scan saw what the host printed: its progress lines are in the engine's events.
    expect(all).toMatch(/runpod Pod quickstart-trainer: created \w+ in US-TX-3 \//);
  });

  // Last: the compile runs beside the phases above (it reads only the program's files).
  it("installs the dependencies its package.json declares and compiles under its own tsconfig", async () => {
    expect(await run.compiled).toBe("compiles");
  });
});
