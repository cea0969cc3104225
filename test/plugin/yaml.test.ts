/**
 * A Pulumi YAML program on the provider plugin, through the real CLI and Pulumi's own YAML
 * language host (harness/yaml-host/build.sh), the plugin installed from the packed package's
 * release asset with `pulumi plugin install --file`, against the emulator: one program's whole
 * lifecycle, from preview to destroy, and `pulumi import` of a pod made outside Pulumi.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { engineEvents, type ProgramStack, type StateDeployment } from "../../harness/stack.js";
import { runCli } from "../support/cli.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { pluginAsset, pluginStackOnEmulator } from "../support/plugin.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(REPO_ROOT, "examples", "yaml");
const HF_TOKEN = "hf_yaml_plugin_token_4f2a9c";
const POD = "runpod-dynamic:index:Pod";

let emu: RunningEmulator;
let stack: ProgramStack;
/** The network volumes the seed holds: the program's come and go beside them. */
let seededVolumes: string[];

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 35,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  seededVolumes = emu.control.snapshot().networkVolumes.map((v) => v.id);
  const asset = await pluginAsset();
  stack = await pluginStackOnEmulator(emu, asset, PROGRAM);
  await stack.setConfig({}, { hfToken: HF_TOKEN });
}, 600_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

/** Every step of a `--json` preview, as the engine reports it. */
async function previewSteps(): Promise<
  { op: string; urn: string; replaceReasons?: string[]; diffReasons?: string[] }[]
> {
  const r = await stack.expect(["preview", "--json"]);
  return (JSON.parse(r.stdout) as { steps: { op: string; urn: string }[] }).steps;
}

const nameOf = (urn: string) => urn.split("::").pop();
const resourcesOf = (d: StateDeployment) => d.resources ?? [];

describe("a YAML program on the provider plugin", { timeout: 240_000 }, () => {
  it("previews without calling the API, then creates a pod on its volume and an endpoint", async () => {
    const before = emu.control.snapshot();
    const steps = await previewSteps();
    expect(
      steps
        .filter((s) => s.op === "create" && !s.urn.includes("pulumi:providers"))
        .map((s) => nameOf(s.urn))
        .sort(),
    ).toEqual(["plugin-yaml-dev", "sdxl", "trainer", "workspace"]);
    expect(emu.control.snapshot().pods.length).toBe(before.pods.length);

    await stack.expect(["up", "--yes", "--skip-preview"]);
    const outputs = await stack.outputs();
    const snapshot = emu.control.snapshot();
    const pod = snapshot.pods.find((p) => p.id === outputs.podId);
    expect({
      status: outputs.podStatus,
      mounts: outputs.mounts,
      podInEmulator: pod?.status,
      endpoint: snapshot.endpoints.some((e) => String(outputs.endpointUrl).includes(String(e.id))),
      volume: snapshot.networkVolumes.map((v) => v.id).filter((id) => !seededVolumes.includes(id)),
    }).toEqual({
      status: "RUNNING",
      mounts: { network: [{ volumeId: outputs.volumeId, path: "/workspace" }] },
      podInEmulator: "RUNNING",
      endpoint: true,
      volume: [outputs.volumeId],
    });
  });

  it("keeps state small and secrets secret: no serialized provider, no token or key in plaintext", async () => {
    const { text, deployment } = await stack.exportState();
    const pod = resourcesOf(deployment).find((r) => r.type === POD);
    const isSecret = (v: unknown) =>
      typeof v === "object" && v !== null && "4dabf18193072939515e22adb298388d" in (v as object);
    expect({
      provider: text.includes("__provider"),
      token: text.includes(HF_TOKEN),
      key: text.includes(String(emu.pulumiConfig()["runpod:apiKey"])),
      secretEnvInput: isSecret(pod?.inputs?.env),
      secretEnvOutput: isSecret(pod?.outputs?.env),
      createKey: /^[0-9a-f]{32}$/.test(String(pod?.inputs?.__createKey)),
      types: [...new Set(resourcesOf(deployment).map((r) => r.type))].sort(),
    }).toEqual({
      provider: false,
      token: false,
      key: false,
      secretEnvInput: true,
      secretEnvOutput: true,
      createKey: true,
      types: [
        "pulumi:providers:runpod-dynamic",
        "pulumi:pulumi:Stack",
        "runpod-dynamic:index:NetworkVolume",
        POD,
        "runpod-dynamic:index:ServerlessEndpoint",
      ],
    });
    // The pod the emulator runs was given the token itself.
    const podId = pod?.id;
    expect(emu.control.snapshot().pods.find((p) => p.id === podId)?.env.HF_TOKEN).toBe(HF_TOKEN);
  });

  it("`runpod-dynamic billing stack` reads the plugin's resources from the state", async () => {
    const { text } = await stack.exportState();
    const res = await runCli(["billing", "stack", "--json"], emu.env(), text);
    expect(res.code, res.stderr).toBe(0);
    const json = JSON.parse(res.stdout) as { resources: { name: string; type: string }[] };
    expect(json.resources.map((r) => [r.type, r.name]).sort()).toEqual([
      ["NetworkVolume", "workspace"],
      ["Pod", "trainer"],
      ["ServerlessEndpoint", "sdxl"],
    ]);
  });

  it("updates the pod's name in place and replaces it for another GPU count, saying which property forces it", async () => {
    const { podId } = await stack.outputs();
    await stack.setConfig({ podName: "yaml-renamed" });
    const update = (await previewSteps()).find((s) => nameOf(s.urn) === "trainer");
    expect([update?.op, update?.diffReasons]).toEqual(["update", ["name"]]);
    await stack.expect(["up", "--yes", "--skip-preview"]);
    const renamed = await stack.outputs();
    expect([renamed.podId, emu.control.snapshot().pods.find((p) => p.id === podId)?.name]).toEqual([
      podId,
      "yaml-renamed",
    ]);

    await stack.setConfig({ gpuCount: "2" });
    const replace = (await previewSteps()).find((s) => nameOf(s.urn) === "trainer");
    expect([replace?.op, replace?.replaceReasons]).toEqual(["replace", ["gpu.count"]]);
    const up = await stack.expect(["up", "--yes", "--skip-preview", "--json"]);
    expect(engineEvents(up.stdout).length).toBeGreaterThan(0);
    const replaced = await stack.outputs();
    expect([
      replaced.podId === podId,
      emu.control.snapshot().pods.find((p) => p.id === podId)?.status ?? "TERMINATED",
      livePodIds(emu),
    ]).toEqual([false, "TERMINATED", [replaced.podId]]);
  });

  it("refreshes with no changes", async () => {
    await stack.expect(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("imports a pod made outside Pulumi, and writes the YAML that declares it", async () => {
    const outside = await apiFor(emu).pods.create({
      name: "made-by-hand",
      image: "runpod/base:0.6.2-cpu",
      cpu: { id: "cpu3c", vcpuCount: 2 },
    });
    const code = join(stack.workDir, "imported.yaml");
    await stack.expect(["import", POD, "by-hand", outside.id, "--yes", "--protect=false", "--out", code]);
    const { deployment } = await stack.exportState();
    const imported = resourcesOf(deployment).find((r) => r.type === POD && r.urn.endsWith("::by-hand"));
    expect([imported?.id, imported?.outputs?.name, imported?.inputs?.image]).toEqual([
      outside.id,
      "made-by-hand",
      "runpod/base:0.6.2-cpu",
    ]);
    const written = readFileSync(code, "utf8");
    expect(written).toContain("type: runpod-dynamic:Pod");
    expect(written).toContain("name: made-by-hand");
  });

  it("destroys everything, the imported pod with it, and leaves nothing billed", async () => {
    await stack.expect(["destroy", "--yes", "--skip-preview"]);
    const snapshot = emu.control.snapshot();
    expect({
      pods: livePodIds(emu),
      endpoints: snapshot.endpoints.length,
      volumes: snapshot.networkVolumes.map((v) => v.id),
    }).toEqual({ pods: [], endpoints: 0, volumes: seededVolumes });
  });
});
