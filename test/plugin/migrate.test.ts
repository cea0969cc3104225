/**
 * A stack moved from RunPod's official provider to the provider plugin, through the real CLI and
 * the real `runpod-dynamic` binary: the stack's state in the official provider's shape (its types,
 * its fields, from its published schema; its provider cannot run here), over a pod on a network
 * volume and a serverless endpoint on a template that exist in the emulator; `runpod-dynamic
 * migrate`, then the commands it prints, run as printed: `pulumi state delete`, `pulumi import
 * --file` (which writes the YAML that declares our resources, put into the program), and
 * `pulumi up --expect-no-changes`. The emulator sees no write at any step.
 * The same import file in a Python project: the code `pulumi import` writes with Pulumi's Python
 * program generator (its Python language host is not served here, so the CLI is attached to
 * harness/sdk-gen/python-program-host, which runs only that generator), compiled, then run through
 * the Automation API (examples/python/automation.py) with Pulumi's Python SDK and this package's:
 * its preview has nothing to change.
 */
import { execFile, spawn } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { pathWith, REPO_ROOT, requirePulumiCli } from "../../harness/pulumi-cli.js";
import type { ProgramStack, StateDeployment } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { loadDist } from "../support/dist.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { automationArgs, pythonWithPulumi } from "../support/python.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { TIME_SCALE } from "../support/stack.js";

const run = promisify(execFile);
// Built, as the script is run: it finds the repository from dist/codegen.
const { sdkGenTool } = loadDist<typeof import("../../codegen/sdks.js")>("codegen/sdks.js");
const PROGRAM = join(__dirname, "yaml-migrated");
const PYTHON_PROGRAM = join(__dirname, "python-migrated");

const OFFICIAL_VERSION = "1.9.0";

let emu: RunningEmulator;
let stack: ProgramStack;
let ids: { volume: string; template: string; pod: string; endpoint: string };
/** The import file `migrate` wrote. */
let importFile: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 148,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  const api = apiFor(emu);
  const volume = await api.networkVolumes.create({ name: "workspace", size: 20, dataCenter: "US-KS-2" });
  const template = await api.templates.create({
    name: "sdxl-worker",
    image: "acme/sdxl-worker:1",
    serverless: true,
    env: { STEPS: "30" },
  });
  const pod = await api.pods.create({
    name: "trainer",
    image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
    gpu: { id: "NVIDIA A40" },
    disk: 40,
    ports: ["8888/http", "22/tcp"],
    mounts: { network: [{ volumeId: volume.id, path: "/workspace" }] },
    dataCenterIds: ["US-KS-2"],
  });
  const endpoint = await api.endpoints.create({
    name: "sdxl",
    templateId: template.id,
    type: "QUEUE",
    scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    gpu: { pools: ["ADA_24"] },
    workers: { min: 0, max: 2, idleTimeout: 5 },
  });
  ids = { volume: volume.id, template: template.id, pod: pod.id, endpoint: endpoint.id };
  stack = await pluginStackOnEmulator(emu, await pluginAsset(), PROGRAM);
  // The stack as the team's old program left it: its own resource, then the official provider's.
  await stack.expect(["up", "--yes", "--skip-preview"]);
  const { deployment } = await stack.exportState();
  const file = join(stack.workDir, "official.json");
  writeFileSync(file, JSON.stringify({ version: 3, deployment: officialDeployment(deployment) }));
  await stack.expect(["stack", "import", "--file", file]);
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

/** `deployment` with the official provider's resources added, as its version 1.9.0 records them. */
function officialDeployment(deployment: StateDeployment): StateDeployment {
  const root = (deployment.resources ?? [])[0];
  if (!root) throw new Error("the stack has no resource");
  const prefix = root.urn.slice(0, root.urn.indexOf("pulumi:pulumi:Stack"));
  const provider = `${prefix}pulumi:providers:runpod::default_${OFFICIAL_VERSION.replaceAll(".", "_")}`;
  const providerRef = `${provider}::4c1f3e8a-1d2b-4f7a-9e3c-0a5b6c7d8e9f`;
  const urn = (kind: string, name: string) => `${prefix}runpod:index:${kind}::${name}`;
  const official = (
    kind: string,
    name: string,
    id: string,
    inputs: object,
    outputs: object,
    needs: object = {},
  ) => ({
    urn: urn(kind, name),
    custom: true,
    id,
    type: `runpod:index:${kind}`,
    inputs,
    outputs: { ...inputs, ...outputs },
    parent: root.urn,
    provider: providerRef,
    dependencies: Object.values(needs).flat(),
    propertyDependencies: needs,
  });
  const volume = {
    name: "workspace",
    size: 20,
    dataCenterId: "US-KS-2",
  };
  return {
    ...deployment,
    resources: [
      ...(deployment.resources ?? []),
      {
        urn: provider,
        custom: true,
        id: providerRef.slice(provider.length + 2),
        type: "pulumi:providers:runpod",
        inputs: { version: OFFICIAL_VERSION },
        outputs: { version: OFFICIAL_VERSION },
      },
      official("NetworkVolume", "workspace", ids.volume, volume, { networkVolumeId: ids.volume }),
      official(
        "Template",
        "sdxl-worker",
        ids.template,
        { name: "sdxl-worker", imageName: "acme/sdxl-worker:1", isServerless: true, env: { STEPS: "30" } },
        { templateId: ids.template, containerDiskInGb: 10, isPublic: false },
      ),
      official(
        "Pod",
        "trainer",
        ids.pod,
        {
          name: "trainer",
          imageName: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
          gpuTypeId: "NVIDIA A40",
          gpuCount: 1,
          containerDiskInGb: 40,
          ports: "8888/http,22/tcp",
          networkVolumeId: ids.volume,
          volumeMountPath: "/workspace",
          dataCenterId: "US-KS-2",
          cloudType: "SECURE",
          stopAfter: "2026-12-24T18:00:00Z",
        },
        { podId: ids.pod, desiredStatus: "RUNNING", costPerHr: 0.44 },
        { networkVolumeId: [urn("NetworkVolume", "workspace")] },
      ),
      official(
        "Endpoint",
        "sdxl",
        ids.endpoint,
        {
          name: "sdxl",
          templateId: ids.template,
          gpuIds: "ADA_24",
          workersMin: 0,
          workersMax: 2,
          idleTimeout: 5,
          scalerType: "QUEUE_DELAY",
          scalerValue: 4,
          type: "QUEUE",
        },
        { endpointId: ids.endpoint },
        { templateId: [urn("Template", "sdxl-worker")] },
      ),
    ],
  } as StateDeployment;
}

describe("moving a stack from RunPod's official provider", { timeout: 300_000 }, () => {
  it("migrate, then the commands it prints: the objects under our types, nothing written to the account, nothing left to change", async () => {
    const exported = (await stack.expect(["stack", "export"])).stdout;
    importFile = join(stack.workDir, "migrate.json");
    const code = join(stack.workDir, "migrated.yaml");
    emu.control.clearRequests();
    const told = await runCli(
      ["migrate", "--import-file", importFile, "--code-file", code],
      emu.env(),
      exported,
    );
    const commands = told.stdout
      .split("\n")
      .filter((line) => line.startsWith("     pulumi "))
      .map((line) => line.trim().split(" ").slice(1));
    expect([told.code, commands.map((c) => c.slice(0, 2))]).toEqual([
      0,
      [
        ["state", "delete"],
        ["import", "--file"],
        ["up", "--expect-no-changes"],
      ],
    ]);
    expect(told.stdout).toContain("stopAfter: no counterpart; the move drops them");
    expect(JSON.parse(readFileSync(importFile, "utf8"))).toEqual({
      nameTable: {},
      resources: [
        { type: "runpod-dynamic:index:NetworkVolume", name: "workspace", id: ids.volume },
        { type: "runpod-dynamic:index:Template", name: "sdxl-worker", id: ids.template },
        { type: "runpod-dynamic:index:Pod", name: "trainer", id: ids.pod },
        { type: "runpod-dynamic:index:ServerlessEndpoint", name: "sdxl", id: ids.endpoint },
      ],
    });

    const [deleting, importing, up] = commands as [string[], string[], string[]];
    await stack.expect(deleting);
    await stack.expect(importing);
    // The team's edit: the code `pulumi import` wrote, into the program.
    const program = join(stack.dir, "Pulumi.yaml");
    const written = parseYaml(readFileSync(code, "utf8")) as {
      resources: Record<string, { properties: Record<string, unknown> }>;
    };
    // What the reads handed back, without the noise of empty values (`args: ""`, `ports: []`).
    const empty = (v: unknown) => v === "" || (Array.isArray(v) && v.length === 0);
    expect(
      Object.entries(written.resources).flatMap(([name, r]) =>
        Object.entries(r.properties)
          .filter(([, v]) => empty(v))
          .map(([k]) => `${name}.${k}`),
      ),
    ).toEqual([]);
    writeFileSync(
      program,
      stringifyYaml({
        ...(parseYaml(readFileSync(program, "utf8")) as object),
        resources: written.resources,
      }),
    );
    await stack.expect([...up, "--yes"]);

    const { deployment } = await stack.exportState();
    const resources = (deployment.resources ?? []).filter((r) => r.type !== "pulumi:pulumi:Stack");
    const { entries } = emu.control.requests();
    expect({
      kept: resources
        .filter((r) => !r.type.startsWith("pulumi:providers:"))
        .map((r) => [r.type, r.id])
        .sort(),
      official: resources.filter((r) => r.type.startsWith("runpod:") || r.type === "pulumi:providers:runpod"),
      writes: entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.route}`),
      running: emu.control.snapshot().pods.find((p) => p.id === ids.pod)?.status,
    }).toEqual({
      kept: [
        ["runpod-dynamic:index:NetworkVolume", ids.volume],
        ["runpod-dynamic:index:Pod", ids.pod],
        ["runpod-dynamic:index:ServerlessEndpoint", ids.endpoint],
        ["runpod-dynamic:index:Template", ids.template],
      ],
      official: [],
      writes: [],
      running: "RUNNING",
    });
  });

  it("the same import file in a Python project: Pulumi's generator writes the program, which compiles and previews with no change", async () => {
    const python = await pluginStackOnEmulator(emu, await pluginAsset(), PYTHON_PROGRAM);
    const host = spawn(sdkGenTool("python-program-host"), [], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        createInterface({ input: host.stdout }).once("line", resolve);
        host.once("exit", (code) => reject(new Error(`python-program-host exited ${code}`)));
      });
      const code = join(python.dir, "__main__.py");
      await python.expect(["import", "--file", importFile, "--yes", "--protect=false", "--out", code], {
        PULUMI_DEBUG_LANGUAGES: `python:${port}`,
      });
    } finally {
      host.kill();
    }
    const program = readFileSync(join(python.dir, "__main__.py"), "utf8");
    await run("python3", ["-m", "py_compile", join(python.dir, "__main__.py")]);
    // A copy of the SDK: pip builds a folder in place, and the SDK's folder is the repository's.
    const sdk = join(python.workDir, "sdk-python");
    cpSync(join(REPO_ROOT, "sdk", "python"), sdk, { recursive: true });
    const venvPython = await pythonWithPulumi(join(python.workDir, "venv"), [sdk]);
    const env = { ...python.invocation([]).env, PATH: pathWith(requirePulumiCli()) };
    const preview = await run(
      venvPython,
      automationArgs(emu, "preview", join(python.dir, "__main__.py"), python.dir, { json: true }),
      { env, maxBuffer: 64 * 1024 * 1024 },
    ).catch((err: { stdout?: string; message: string }) => {
      throw new Error(`${err.message}\n${err.stdout ?? ""}\n${program}`);
    });
    const summary = (JSON.parse(preview.stdout) as { changeSummary: Record<string, number> }).changeSummary;
    expect({
      declares: [...program.matchAll(/= runpod_dynamic\.(\w+)\("([\w-]+)"/g)]
        .map((m) => `${m[1]} ${m[2]}`)
        .sort(),
      summary,
    }).toEqual({
      declares: ["NetworkVolume workspace", "Pod trainer", "ServerlessEndpoint sdxl", "Template sdxl-worker"],
      summary: { same: 5 },
    });
    python.dispose();
  });
});
