/**
 * The pack as the engine runs it: the real `run-policy-pack` process compiling policy/ with
 * ts-node, over gRPC (the analyzer protocol the engine speaks to a policy pack). Configure is
 * built the way the engine builds it, schema defaults included.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/dist.js";
import { UNKNOWN } from "../support/host.js";
import {
  analyze,
  analyzerInfo,
  analyzeStack,
  configurePack,
  type Diagnostic,
  ENDPOINT,
  type Level,
  PACK_VERSION,
  POD,
  type PolicyPackConfigFile,
  type PolicyPackProcess,
  packPolicies,
  remediate,
  SSH_KEY,
  STACK,
  secret,
  startPolicyPack,
  type TestResource,
  urnOf,
} from "../support/policy.js";

const A40 = "NVIDIA A40";
const H100 = "NVIDIA H100 80GB HBM3";
const UNKNOWN_NUMBER = "3eeb2bf0-c639-47a8-9e75-3b44932eb421";
const UNKNOWN_BOOL = "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7";
const UNKNOWN_OBJECT = "dd056dcd-154b-4c76-9bd3-c8f88648b5ff";

const placement = { regions: ["EUROPE"], gpuTypeIds: ["NVIDIA L40S"] };
/** A GPU pod every advisory rule passes: a fallback placement, and autostop (its data lost by a stop is fine). */
const autostop = { idleMinutes: 60, allowDataLoss: true };
const gpuPod = (extra: Record<string, unknown> = {}, name = "trainer"): TestResource => ({
  type: POD,
  name,
  props: { name, image: "img:1", gpu: { id: A40 }, placement, autostop, ...extra },
});
const cpuPod = (extra: Record<string, unknown> = {}): TestResource => ({
  type: POD,
  name: "worker",
  props: { name: "worker", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 4 }, ...extra },
});

const descriptions = new Map(packPolicies.map((p) => [p.name, p.description]));
/** A diagnostic as the server builds it: the policy's description, a newline, the violation. */
const diag = (policy: string, level: Level, violation: string, urn = ""): Diagnostic => ({
  policy,
  level,
  urn,
  message: `${descriptions.get(policy)}\n${violation}`,
});

const EXPOSED = (who: string, name: string) =>
  `${who}, env.${name}: the name looks like a credential but the program gives the value as plain text, so it sits unencrypted in the program or its stack config, and in version control (runpod-dynamic keeps it encrypted in state). Fix: pass it as a secret (pulumi config set --secret <key>, then config.requireSecret("<key>")) or wrap it with pulumi.secret(...); if it is not a credential, add "${name}" to this policy's ignoreNames.`;
const PERSISTENT_DEPRECATED =
  'Pod "trainer", mounts.persistent: host-local persistent storage is deprecated and its data does not survive a host failure. Fix: create a network volume in the pod\'s data center and mount it with mounts.network: [{ volumeId, path }].';

let pack: PolicyPackProcess;

beforeAll(async () => {
  pack = await startPolicyPack();
}, 60_000);
afterAll(() => {
  pack?.close();
});

describe("run-policy-pack over gRPC", () => {
  it("GetAnalyzerInfo names the pack and lists every policy with its default level, kind and config defaults", async () => {
    const info = await analyzerInfo(pack);
    expect([info.name, info.version, info.supportsConfig, info.initialConfig]).toEqual([
      "runpod-policies",
      PACK_VERSION,
      true,
      0,
    ]);
    expect(info.policies.map((p) => `${p.name}:${p.level}:${p.type}`)).toEqual([
      "pod-persistent-with-network:mandatory:resource",
      "pod-persistent-with-global:mandatory:resource",
      "pod-persistent-on-cpu:mandatory:resource",
      "pod-network-volume-community:mandatory:resource",
      "pod-gpu-or-cpu:mandatory:resource",
      "pod-cuda-constraint-conflict:mandatory:resource",
      "pod-cuda-version-format:mandatory:resource",
      "pod-cpu-vcpu-count:mandatory:resource",
      "pod-disk-size:mandatory:resource",
      "pod-persistent-size:mandatory:resource",
      "pod-single-volume-mount:mandatory:resource",
      "pod-ports-format:mandatory:resource",
      "pod-name:mandatory:resource",
      "pod-request-size:mandatory:resource",
      "pod-autostop-locked:mandatory:resource",
      "pod-valid-inputs:mandatory:resource",
      "pod-persistent-mount-deprecated:advisory:resource",
      "pod-ssh-port:advisory:resource",
      "pod-jupyter-port:advisory:resource",
      "pod-global-networking-cpu:advisory:resource",
      "pod-placement-fallback:advisory:resource",
      "pod-gpu-autostop:advisory:resource",
      "pod-autostop-data-loss:mandatory:resource",
      "serverless-workers-range:mandatory:resource",
      "serverless-gpu-types:mandatory:resource",
      "serverless-valid-inputs:mandatory:resource",
      "env-secrets:advisory:resource",
      "allowed-gpu-types:mandatory:resource",
      "max-gpus-per-pod:mandatory:resource",
      "allowed-clouds:mandatory:resource",
      "ssh-key-for-start-ssh:advisory:stack",
      "pod-volume-reachable:advisory:stack",
      "max-pods-per-stack:mandatory:stack",
      "cost-budget:mandatory:stack",
    ]);
    const configurable = info.policies.filter((p) => Object.keys(p.configSchema).length > 0);
    expect(
      Object.fromEntries(
        configurable.map((p) => [
          p.name,
          Object.fromEntries(
            Object.entries(p.configSchema).map(([k, v]) => [k, (v as { default?: unknown }).default]),
          ),
        ]),
      ),
    ).toEqual({
      "env-secrets": { ignoreNames: ["PUBLIC_KEY"] },
      "allowed-gpu-types": { allowedGpuTypes: [], allowedGpuPools: [] },
      "max-gpus-per-pod": { maxGpuCount: 8 },
      "allowed-clouds": { allowedClouds: ["SECURE", "COMMUNITY"] },
      "max-pods-per-stack": { maxPods: undefined },
      "cost-budget": {
        pricesFile: undefined,
        maxPodHourly: undefined,
        maxGpuHourly: undefined,
        maxStackHourly: undefined,
        allowUnknown: false,
      },
    });
    expect(info.policies.find((p) => p.name === "pod-persistent-with-network")?.description).toBe(
      "A pod cannot combine a persistent mount with a network volume (the API answers 400).",
    );
  });

  it("Configure sends every policy at its level with its schema defaults, as the engine does", async () => {
    const sent = await configurePack(pack);
    expect(Object.keys(sent).length).toBe(34);
    expect(sent["max-gpus-per-pod"]).toEqual({ level: "mandatory", properties: { maxGpuCount: 8 } });
    expect(sent["env-secrets"]).toEqual({ level: "advisory", properties: { ignoreNames: ["PUBLIC_KEY"] } });
    expect(sent["max-pods-per-stack"]).toEqual({ level: "mandatory", properties: {} });
    expect(sent["pod-name"]).toEqual({ level: "mandatory", properties: {} });
  });

  it("Analyze rejects the headline case (persistent + network) with the resource, the field and the fix", async () => {
    const pod = gpuPod({
      mounts: {
        persistent: { size: 20, path: "/workspace" },
        network: [{ volumeId: "vol-1", path: "/data" }],
      },
    });
    expect(await analyze(pack, pod)).toEqual([
      diag(
        "pod-persistent-with-network",
        "mandatory",
        'Pod "trainer", mounts.persistent: cannot be combined with mounts.network or mounts.global; use a network volume alone. Fix: drop mounts.persistent (deprecated) and keep the network volume.',
      ),
      diag("pod-persistent-mount-deprecated", "advisory", PERSISTENT_DEPRECATED),
    ]);
  });

  it("Analyze reports each failing rule of a pod under its own policy", async () => {
    const pod = gpuPod({
      name: "",
      disk: 0,
      ports: ["22"],
      gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" },
      startSsh: true,
    });
    expect((await analyze(pack, pod)).map((d) => `${d.policy}:${d.level}`)).toEqual([
      "pod-cuda-constraint-conflict:mandatory",
      "pod-disk-size:mandatory",
      "pod-ports-format:mandatory",
      "pod-name:mandatory",
      "pod-ssh-port:advisory",
    ]);
  });

  it("Analyze passes a clean GPU pod, CPU pod and serverless endpoint", async () => {
    const endpoint = {
      type: ENDPOINT,
      name: "api",
      props: { name: "api", templateId: "tpl-1", gpu: { pools: ["AMPERE_48"] } },
    };
    for (const r of [gpuPod(), cpuPod(), endpoint]) expect(await analyze(pack, r)).toEqual([]);
  });

  it("Analyze reports the serverless rules", async () => {
    const endpoint = {
      type: ENDPOINT,
      name: "api",
      props: { name: "api", templateId: "tpl-1", workers: { min: 5 } },
    };
    expect(await analyze(pack, endpoint)).toEqual([
      diag(
        "serverless-workers-range",
        "mandatory",
        'ServerlessEndpoint "api", workers.min: workers.min 5 is above workers.max 3 (the default). Fix: raise workers.max to at least workers.min, or lower workers.min.',
      ),
      diag(
        "serverless-gpu-types",
        "mandatory",
        'ServerlessEndpoint "api", gpu: the endpoint has neither gpu nor cpu, so the API cannot place its workers. Fix: list serverless GPU pools in order, e.g. gpu: { pools: ["ADA_24", "ADA_48_PRO"] } (getGpuTypes() shows each type\'s pool), or cpu: [{ id: "cpu5c", vcpuCount: 4 }].',
      ),
    ]);
  });

  it("Analyze of unknown values: no policy crashes, none falls back to the framework's preview advisory", async () => {
    const pod = gpuPod({
      image: UNKNOWN,
      env: { HF_TOKEN: UNKNOWN, MODEL: "llama" },
      ports: [UNKNOWN],
      disk: UNKNOWN_NUMBER,
      startSsh: UNKNOWN_BOOL,
      mounts: UNKNOWN_OBJECT,
      gpu: { id: UNKNOWN, count: UNKNOWN_NUMBER },
      cloud: UNKNOWN,
    });
    expect(await analyze(pack, pod)).toEqual([]);
    // Known violations next to unknown values are still reported.
    expect(await analyze(pack, gpuPod({ image: UNKNOWN, disk: 0, dataCenterIds: UNKNOWN }))).toEqual([
      diag(
        "pod-disk-size",
        "mandatory",
        'Pod "trainer", disk: must be at least 1. Fix: set disk to 1 or more.',
      ),
    ]);
  });

  it("Analyze tells Pulumi secrets from plain values, and every other policy still sees the plaintext", async () => {
    const pod = gpuPod({
      env: {
        HF_TOKEN: secret("hf_abc"),
        DB_PASSWORD: "pw",
        PUBLIC_KEY: "ssh-ed25519 AAAA me",
        LATER_TOKEN: secret(UNKNOWN),
      },
      disk: secret(0),
    });
    expect(await analyze(pack, pod)).toEqual([
      diag(
        "pod-disk-size",
        "mandatory",
        'Pod "trainer", disk: must be at least 1. Fix: set disk to 1 or more.',
      ),
      diag("env-secrets", "advisory", EXPOSED('Pod "trainer"', "DB_PASSWORD")),
    ]);
    expect(await analyze(pack, gpuPod({ env: secret({ HF_TOKEN: "hf_abc", DB_PASSWORD: "pw" }) }))).toEqual(
      [],
    );
  });

  it("Configure overrides levels and properties; a disabled policy stops reporting", async () => {
    const sent = await configurePack(pack, {
      "pod-request-size": "disabled",
      "pod-persistent-mount-deprecated": "mandatory",
      "max-gpus-per-pod": { maxGpuCount: 2 },
      "allowed-gpu-types": { enforcementLevel: "advisory", allowedGpuTypes: [A40] },
    });
    expect([sent["pod-request-size"], sent["max-gpus-per-pod"], sent["allowed-gpu-types"]]).toEqual([
      { level: "disabled", properties: {} },
      { level: "mandatory", properties: { maxGpuCount: 2 } },
      { level: "advisory", properties: { allowedGpuTypes: [A40], allowedGpuPools: [] } },
    ]);
    const pod = gpuPod({
      gpu: { id: H100, count: 4 },
      env: { BIG: "x".repeat(102_400) },
      mounts: { persistent: { size: 20, path: "/workspace" } },
    });
    expect(await analyze(pack, pod)).toEqual([
      diag("pod-persistent-mount-deprecated", "mandatory", PERSISTENT_DEPRECATED),
      diag(
        "allowed-gpu-types",
        "advisory",
        'Pod "trainer", gpu.id: GPU type "NVIDIA H100 80GB HBM3" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA H100 80GB HBM3" to allowedGpuTypes in the policy pack config.',
      ),
      diag(
        "allowed-gpu-types",
        "advisory",
        'Pod "trainer", placement.gpuTypeIds[0]: GPU type "NVIDIA L40S" is not allowed (allowedGpuTypes: "NVIDIA A40"). Fix: use an allowed GPU type, or add "NVIDIA L40S" to allowedGpuTypes in the policy pack config.',
      ),
      diag(
        "max-gpus-per-pod",
        "mandatory",
        'Pod "trainer", gpu.count: 4 GPUs is more than the 2 allowed per pod. Fix: request at most 2 GPUs, or raise maxGpuCount in the policy pack config.',
      ),
    ]);
  });

  it('Configure "all" sets every level, and a policy entry wins over it', async () => {
    await configurePack(pack, { all: "advisory", "pod-name": "mandatory" });
    expect((await analyze(pack, gpuPod({ name: "", disk: 0 }))).map((d) => `${d.policy}:${d.level}`)).toEqual(
      ["pod-disk-size:advisory", "pod-name:mandatory"],
    );
    await configurePack(pack, { all: "disabled" });
    expect(await analyze(pack, gpuPod({ name: "", disk: 0 }))).toEqual([]);
  });

  it("Remediate at the remediate level turns exposed env values into secrets; Analyze then passes", async () => {
    const pod = gpuPod({ env: { HF_TOKEN: "hf_abc", API_KEY: secret("s3cr3t"), MODEL: "llama" } });
    await configurePack(pack);
    expect(await remediate(pack, pod)).toEqual([]);

    await configurePack(pack, { "env-secrets": "remediate" });
    const remediations = await remediate(pack, pod);
    expect(remediations).toEqual([
      {
        policy: "env-secrets",
        properties: {
          ...pod.props,
          env: { HF_TOKEN: secret("hf_abc"), API_KEY: secret("s3cr3t"), MODEL: "llama" },
        },
        diagnostic: "",
      },
    ]);
    // The engine analyzes the remediated inputs; the un-remediated ones report at mandatory.
    expect(await analyze(pack, { ...pod, props: remediations[0]?.properties ?? {} })).toEqual([]);
    expect(await analyze(pack, pod)).toEqual([
      diag("env-secrets", "mandatory", EXPOSED('Pod "trainer"', "HF_TOKEN")),
    ]);
  });

  it("AnalyzeStack reports startSsh pods without an SshKey and stacks over maxPods", async () => {
    await configurePack(pack, { "max-pods-per-stack": { maxPods: 1 } });
    const stackUrn = urnOf(STACK, "rp-dev");
    const stack = { type: STACK, name: "rp-dev", props: {} };
    const sshPod = { ...gpuPod({ startSsh: true, ports: ["22/tcp"] }), parent: stackUrn };
    const key = {
      type: SSH_KEY,
      name: "laptop",
      props: { publicKey: "ssh-ed25519 AAAA me" },
      parent: stackUrn,
    };
    const other = { ...cpuPod(), parent: stackUrn, dependencies: [urnOf(POD, "trainer")] };
    const overBudget = diag(
      "max-pods-per-stack",
      "mandatory",
      'This stack, Pod resources: 2 pods ("trainer", "worker") are more than maxPods 1. Fix: remove pods or split them across stacks, or raise maxPods in the policy pack config.',
    );
    expect(await analyzeStack(pack, [stack, sshPod, other])).toEqual([
      diag(
        "ssh-key-for-start-ssh",
        "advisory",
        'Pod "trainer", startSsh: startSsh injects the account\'s registered SSH public keys and this stack registers none, so unless a key was registered outside this stack the pod has no SSH access. Fix: declare new SshKey("...", { publicKey }) in this stack and make the pod dependsOn it.',
        urnOf(POD, "trainer"),
      ),
      overBudget,
    ]);
    expect(await analyzeStack(pack, [stack, key, sshPod, other])).toEqual([overBudget]);
    expect(
      await analyzeStack(pack, [stack, gpuPod({ startSsh: UNKNOWN_BOOL, env: secret({ A: "b" }) })]),
    ).toEqual([]);
  });

  it("applies the example config of examples/gitops", async () => {
    const file = JSON.parse(
      readFileSync(join(REPO_ROOT, "examples", "gitops", "policy-config.json"), "utf8"),
    ) as PolicyPackConfigFile;
    await configurePack(pack, file);
    const pod = gpuPod({
      gpu: { id: H100, count: 8 },
      cloud: "COMMUNITY",
      env: { HF_TOKEN: "hf_abc" },
      mounts: { persistent: { size: 20, path: "/workspace" } },
    });
    expect((await analyze(pack, pod)).map((d) => `${d.policy}:${d.level}`)).toEqual([
      "pod-persistent-mount-deprecated:mandatory",
      "env-secrets:mandatory",
      "allowed-gpu-types:mandatory",
      "max-gpus-per-pod:mandatory",
      "allowed-clouds:mandatory",
    ]);
    expect(await analyze(pack, gpuPod({ env: { HF_TOKEN: secret("hf_abc") } }))).toEqual([]);
  });

  it("never wrote to stderr (no ts-node diagnostics, no unhandled errors)", () => {
    expect(pack.stderr()).toBe("");
  });
});
