/**
 * templates/runpod-gpu-pod as a user starts from it: `pulumi new <template>` in a terminal, the
 * prompts answered (the data center and GPU type left at their defaults, the API key typed), the
 * dependencies installed by `pulumi new` itself (npm, the template's package.json pointing at the
 * packed package), then `pulumi up` and `pulumi destroy` through the real CLI on the emulator.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { ProgramStack } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";
import { runInTerminal, type TerminalResult } from "../support/terminal.js";
import { copiesOf, packTarball, templateWith } from "./installed.js";

const PROJECT = "gpu-demo";

let scratch: string;
let emu: RunningEmulator;
let stack: ProgramStack;
let created: TerminalResult;
let apiKey: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "runpod-template-"));
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 131,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  apiKey = String(emu.pulumiConfig()["runpod:apiKey"]);
  const template = templateWith(scratch, await packTarball());
  stack = ProgramStack.forNewProject({
    env: { RUNPOD_API_KEY: "", RUNPOD_BASE_URL: "", RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
  });
  created = await runInTerminal(
    stack.invocation(["new", template, "--name", PROJECT, "--description", "A GPU pod on RunPod"]),
    [
      { prompt: /The data center to try first.*\(dataCenter\) \(EU-RO-1\):/, typed: "" },
      { prompt: /The GPU type to ask for first.*\(gpuType\) \(NVIDIA GeForce RTX 4090\):/, typed: "" },
      { prompt: /Your RunPod API key.*\(runpod:apiKey\):/, typed: apiKey },
    ],
  );
}, 300_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("pulumi new from the template", { timeout: 300_000 }, () => {
  it("asks for every config value, installs the dependencies and never shows the key", () => {
    expect([created.code, created.unanswered, created.output.includes(apiKey)]).toEqual([0, [], false]);
    expect(created.output).toMatch(/Saved config[\s\S]*Your new project is ready to go!/);
  });

  it("writes a Pulumi.yaml of the project, its template section gone", () => {
    const project = parseYaml(readFileSync(join(stack.dir, "Pulumi.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(project).toEqual({
      name: PROJECT,
      description: "A GPU pod on RunPod",
      runtime: { name: "nodejs", options: { typescript: true } },
      config: { "pulumi:tags": { value: { "pulumi:template": expect.stringMatching(/template$/) } } },
    });
  });

  it("stores the API key encrypted, the defaults in plain text", () => {
    const text = readFileSync(join(stack.dir, `Pulumi.${stack.name}.yaml`), "utf8");
    const config = (parseYaml(text) as { config: Record<string, unknown> }).config;
    expect([config, text.includes(apiKey)]).toEqual([
      {
        [`${PROJECT}:dataCenter`]: "EU-RO-1",
        [`${PROJECT}:gpuType`]: "NVIDIA GeForce RTX 4090",
        "runpod:apiKey": { secure: expect.stringMatching(/^v1:/) },
      },
      false,
    ]);
  });

  it("installs one @pulumi/pulumi, shared by the program and the package", () => {
    expect(copiesOf(stack.dir, "@pulumi/pulumi")).toEqual([
      expect.stringMatching(/^node_modules\/@pulumi\/pulumi@3\./),
    ]);
  });
});

describe("pulumi up and destroy of the new project", { timeout: 300_000 }, () => {
  it("creates a RUNNING pod in the chosen data center, then removes it", async () => {
    const { "runpod:apiKey": _key, ...urls } = emu.pulumiConfig();
    await stack.setConfig(urls);
    const up = await stack.run(["up", "--yes", "--skip-preview"]);
    const outputs = await stack.outputs();
    const live = livePodIds(emu);
    const down = await stack.run(["destroy", "--yes", "--skip-preview"]);
    expect([up.code, up.code === 0 ? "" : up.stdout + up.stderr]).toEqual([0, ""]);
    expect(outputs).toEqual({
      podId: live[0],
      status: "RUNNING",
      dataCenter: "EU-RO-1",
      gpu: "NVIDIA GeForce RTX 4090",
      costPerHour: expect.any(Number),
      ssh: expect.stringMatching(/^ssh root@/),
      jupyterUrl: `https://${live[0]}-8888.proxy.runpod.net`,
      jupyterPassword: "[secret]",
    });
    expect([live.length, down.code, livePodIds(emu)]).toEqual([1, 0, []]);
  });
});
