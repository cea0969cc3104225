/** ServerlessEndpoint, SshKey and ServerlessJob through the real dynamic-provider host over gRPC. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  hostResources,
  type ProviderHost,
  provproto,
  serializedProvider,
  startProviderHost,
} from "../support/host.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;
const SCALE = 50;
const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;

let emu: RunningEmulator;
let host: ProviderHost;
const texts: Record<string, string> = {};

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: SCALE,
    randomSeed: 11,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  for (const t of ["ServerlessEndpoint", "SshKey", "ServerlessJob", "Registry", "Cluster"])
    texts[t] = (await serializedProvider(t)).text;
  host = await startProviderHost({
    config: emu.pulumiConfig(),
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(SCALE) },
  });
});
afterAll(async () => {
  host?.close();
  await emu?.close();
});

const resource = hostResources(() => host, texts);

describe("serialized providers", () => {
  it.each(["ServerlessEndpoint", "SshKey", "ServerlessJob", "Registry", "Cluster"])(
    "%s: no secrets, no token, under 4 KB",
    async (type) => {
      const sf = await serializedProvider(type);
      expect([sf.containsSecrets, sf.text.includes(emu.apiKey), sf.text.length < 4096]).toEqual([
        false,
        false,
        true,
      ]);
    },
  );
});

describe("ServerlessEndpoint", () => {
  const r = resource("ServerlessEndpoint", "sdxl");
  it("check, create, diff, update, read, delete", async () => {
    const bad = await r.check({
      name: "sdxl",
      templateId: "runpod-worker-sdxl",
      workers: { min: 5, max: 1 },
    });
    expect(bad.getFailuresList().map((f: Any) => f.getProperty() || f.getReason().split(":")[0])).toEqual([
      "gpu",
      "workers.min",
    ]);

    const inputs = (
      await r.check({ name: "sdxl", templateId: "runpod-worker-sdxl", gpu: { pools: ["ADA_24"] } })
    )
      .getInputs()
      .toJavaScript();
    const created = await r.create(inputs);
    const id = created.getId();
    const outs = created.getProperties().toJavaScript();
    expect([outs.endpointId, outs.jobUrl, outs.workers.max, outs.requestUrls.runSync]).toEqual([
      id,
      `${emu.serverlessUrl}/v2/${id}/`,
      3,
      `${emu.serverlessUrl}/v2/${id}/runsync`,
    ]);

    const none = await r.diff(id, outs, inputs);
    const more = await r.diff(id, outs, { ...inputs, workers: { max: 6 } });
    const { gpu: _gpu, ...noGpu } = inputs;
    const cpu = await r.diff(id, outs, { ...noGpu, cpu: [{ id: "cpu3c", vcpuCount: 4 }] });
    expect([none.getChanges(), more.getChanges(), more.getReplacesList(), cpu.getReplacesList()]).toEqual([
      DIFF_NONE,
      DIFF_SOME,
      [],
      ["cpu"],
    ]);
    expect(host.output()).toContain(
      "runpod ServerlessEndpoint sdxl: changing workers.max may restart active workers",
    );

    const updated = (await r.update(id, outs, { ...inputs, workers: { max: 6 } }))
      .getProperties()
      .toJavaScript();
    expect([updated.workers.max, updated.jobUrl]).toEqual([6, outs.jobUrl]);

    await apiFor(emu).endpoints.update(id, { name: "renamed-elsewhere" });
    expect((await r.read(id, updated)).getProperties().toJavaScript().name).toBe("renamed-elsewhere");

    await r.delete(id, updated);
    expect([(await r.read(id, updated)).getId(), emu.control.snapshot().endpoints]).toEqual(["", []]);
  });

  it("replaceOnChanges given to the resource turns an in-place change into a replacement", async () => {
    const inputs = {
      name: "sdxl",
      templateId: "runpod-worker-sdxl",
      gpu: { pools: ["ADA_24"] },
      __replaceOnChanges: ["workers"],
    };
    const olds = { ...inputs, type: "QUEUE", workers: { min: 0, max: 3, idleTimeout: 10 }, env: {} };
    const d = await r.diff("ep1", olds, { ...inputs, workers: { max: 6 } });
    expect([d.getChanges(), d.getReplacesList()]).toEqual([DIFF_SOME, ["workers.max"]]);
  });
});

describe("Registry and Cluster", () => {
  it("a registry credential's password reaches neither its outputs nor what the host prints", async () => {
    const r = resource("Registry", "ghcr");
    const inputs = (await r.check({ name: "ghcr", username: "bot", password: "ghp_HOST_SECRET" }))
      .getInputs()
      .toJavaScript();
    const created = await r.create(inputs);
    const outs = created.getProperties().toJavaScript();
    await r.delete(created.getId(), outs);
    expect([
      outs.name,
      JSON.stringify(outs).includes("ghp_HOST_SECRET"),
      host.output().includes("ghp_HOST_SECRET"),
      emu.control.snapshot().registries,
    ]).toEqual(["ghcr", false, false, []]);
  });

  it("a cluster is created with every member RUNNING, renamed, and deleted", async () => {
    const r = resource("Cluster", "ray");
    const inputs = {
      name: "ray",
      type: "RAY",
      compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 1, podCount: 2 },
      image: "rayproject/ray:2.9.0",
    };
    const created = await r.create((await r.check(inputs)).getInputs().toJavaScript());
    const outs = created.getProperties().toJavaScript();
    const renamed = (await r.update(created.getId(), outs, { ...inputs, name: "ray-2" }))
      .getProperties()
      .toJavaScript();
    await r.delete(created.getId(), renamed);
    expect([
      outs.members.map((m: { status: string }) => m.status),
      outs.members.map((m: { role: string }) => m.role),
      renamed.name,
      emu.control
        .snapshot()
        .pods.filter((p) => p.cluster?.id === created.getId() && p.status !== "TERMINATED"),
    ]).toEqual([["RUNNING", "RUNNING"], ["RAY_HEAD", "RAY_WORKER"], "ray-2", []]);
  });
});

describe("SshKey", () => {
  const k1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFjYWJhY2FiYWNhYmFjYWJhY2FiYWNhYmFjYWJhY2Fi one@host";
  const k2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHp6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6 two@host";

  it("refuses a private key at check", async () => {
    const res = await resource("SshKey", "bad").check({
      publicKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----",
    });
    expect(res.getFailuresList().map((f: Any) => [f.getProperty(), f.getReason()])).toEqual([
      [
        "publicKey",
        "looks like a PRIVATE key; never put it in a program or state. Give the public half instead (the .pub file)",
      ],
    ]);
  });

  it("two keys created concurrently through the host both end up registered, and delete removes only its own", async () => {
    const [a, b] = [resource("SshKey", "a"), resource("SshKey", "b")];
    const [ia, ib] = await Promise.all([a.check({ publicKey: k1 }), b.check({ publicKey: k2 })]);
    const [ca, cb] = await Promise.all([
      a.create(ia.getInputs().toJavaScript()),
      b.create(ib.getInputs().toJavaScript()),
    ]);
    expect((await apiFor(emu).sshKeys.get()).sort()).toEqual([k1, k2].sort());
    await a.delete(ca.getId(), ca.getProperties().toJavaScript());
    expect(await apiFor(emu).sshKeys.get()).toEqual([k2]);
    expect((await b.read(cb.getId(), cb.getProperties().toJavaScript())).getId()).toBe(cb.getId());
  });
});

describe("ServerlessJob", () => {
  it("runs a smoke-test job when created", async () => {
    const r = resource("ServerlessJob", "smoke");
    const inputs = (
      await r.check({ endpointId: "black-forest-labs-flux-1-schnell", input: { prompt: "ping" } })
    )
      .getInputs()
      .toJavaScript();
    const outs = (await r.create(inputs)).getProperties().toJavaScript();
    expect([outs.status, typeof outs.output.image_url]).toEqual(["COMPLETED", "string"]);
  });
});
