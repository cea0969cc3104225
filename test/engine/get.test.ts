/**
 * Existing objects read by id (each class's `get`, and the `id` resource option it uses), through
 * the real Pulumi CLI against the emulator: one object of each type made through the API first,
 * then a program that reads them all. `up` reads them, `refresh` reads them again, `destroy`
 * forgets them and deletes nothing, and an id the API does not know fails `up` naming the type
 * and the id. Beside them a volume taken over with `adoptId` is managed: destroy deletes it.
 * `ServerlessJob` has no `get`; the `import` resource option fails in the engine.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, type StateResource, steps } from "../../harness/stack.js";
import { loadDist } from "../support/dist.js";
import { type Api, apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { appEndpoint, WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "get-program");
const lib = loadDist<typeof import("../../provider/index.js")>("provider/index.js");

/** An ed25519 public key line (32 bytes of 7) and its SHA-256 fingerprint, as `ssh-keygen -lf` prints it. */
const KEY = `ssh-ed25519 ${Buffer.concat([Buffer.from([0, 0, 0, 11]), Buffer.from("ssh-ed25519"), Buffer.from([0, 0, 0, 32]), Buffer.alloc(32, 7)]).toString("base64")} ana@laptop`;
const FINGERPRINT = "SHA256:gNSIRW+2Iyiuvsdp/bgjy38bvWHw6wQm3tuoXrl3WjQ";

let emu: RunningEmulator;
let api: Api;
let stack: ProgramStack;
/** The ids the program reads, by type. */
let ids: Record<string, string>;
/** The volume the program adopts. */
let scratchId: string;
/** A template the program reads, deleted before the refresh. */
let retiredId: string;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 127,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  api = apiFor(emu);
  await api.sshKeys.put([KEY]);
  const [pod, endpoint, template, volume, registry, secret, cluster, scratch, retired] = await Promise.all([
    // startSsh with a registered key: the service adds PUBLIC_KEY, which a read pod's env leaves out.
    api.pods.create({
      name: "notebook",
      image: "runpod/base:0.6.2-cpu",
      cpu: { id: "cpu3c", vcpuCount: 2 },
      env: { MODEL: "llama" },
      ports: ["8888/http"],
      startSsh: true,
    }),
    api.endpoints.create(appEndpoint("sdxl", { env: { STEPS: "30" } })),
    api.templates.create({ name: "base", image: "acme/app:1", env: { A: "1" }, ports: ["22/tcp"] }),
    api.networkVolumes.create({ name: "datasets", size: 10, dataCenter: "US-KS-2" }),
    api.registries.create({ name: "ghcr", username: "bot", password: "registry-password" }),
    api.secrets.create({ name: "HF_TOKEN", value: "hf_value_set_in_the_console" }),
    api.clusters.create({
      name: "trainers",
      type: "SLURM",
      compute: { gpuTypeId: "NVIDIA A40", gpuCountPerPod: 2, podCount: 2 },
      image: "acme/train:1",
      env: { NCCL_DEBUG: "INFO" },
      dataCenterIds: ["US-KS-2"],
    }),
    api.networkVolumes.create({ name: "scratch", size: 10, dataCenter: "US-KS-2" }),
    api.templates.create({ name: "retired", image: "acme/app:0" }),
  ]);
  scratchId = scratch.id;
  retiredId = retired.id;
  ids = {
    pod: pod.id,
    endpoint: endpoint.id,
    template: template.id,
    volume: volume.id,
    registry: registry.id,
    secret: secret.id,
    sshKey: FINGERPRINT,
    cluster: cluster.id,
  };
  stack = await stackOnEmulator(emu, PROGRAM);
  await stack.setConfig({
    "engine-get:ids": JSON.stringify({ ...ids, adoptVolume: scratchId, retiredTemplate: retiredId }),
  });
}, 120_000);
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

/** Runs `pulumi <args>`, answering its result and the API requests it made other than reads. */
async function run(args: string[]) {
  emu.control.clearRequests();
  const result = await stack.run(args);
  const writes = emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => e.route);
  return { ...result, writes };
}

const READ_RESOURCES = [
  "cluster",
  "endpoint",
  "pod",
  "registry",
  "secret",
  "secret-by-option",
  "ssh-key",
  "template",
  "volume",
];

/** Every resource in the program's state: those read by id, and the volume it adopted. */
const ALL_RESOURCES = ["adopted", ...READ_RESOURCES];
/** What the first up records: those, and the template deleted before the refresh. */
const FIRST_RESOURCES = [...ALL_RESOURCES, "retired"].sort();

/** The stack's runpod resources in state, by name. */
async function inState(): Promise<Record<string, StateResource>> {
  const { deployment } = await stack.exportState();
  return Object.fromEntries(
    (deployment.resources ?? [])
      .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/runpod:"))
      .map((r) => [r.urn.split("::").pop() ?? "", r]),
  );
}

/** Every object the program reads, as the API has it, and whether the adopted volume is still there. */
async function objectsInApi() {
  const [pod, endpoint, template, volume, registry, secret, cluster, sshKeys, volumes] = await Promise.all([
    api.pods.get(ids.pod ?? ""),
    api.endpoints.get(ids.endpoint ?? ""),
    api.templates.get(ids.template ?? ""),
    api.networkVolumes.get(ids.volume ?? ""),
    api.registries.get(ids.registry ?? ""),
    api.secrets.get(ids.secret ?? ""),
    api.clusters.get(ids.cluster ?? ""),
    api.sshKeys.get(),
    api.networkVolumes.list(),
  ]);
  return [
    [pod.id, pod.status],
    [endpoint.id, endpoint.name],
    [template.id, volume.id, registry.id, secret.id, cluster.id],
    sshKeys,
    volumes.some((v) => v.id === scratchId),
  ];
}

describe("resources read by id", { timeout: 180_000 }, () => {
  it("up reads each object by id (read steps, nothing written) and the outputs are the API's", async () => {
    const r = await run(["up", "--yes", "--skip-preview", "--json"]);
    // The adopted volume is a create step: it already has the inputs' name and size, so nothing is written.
    expect([r.code, steps(engineEvents(r.stdout)).sort(), r.writes]).toEqual([
      0,
      [
        "create adopted",
        "create engine-get-dev",
        ...READ_RESOURCES.map((n) => `read ${n}`),
        "read retired",
      ].sort(),
      [],
    ]);
    const [pod, secret, cluster, members] = await Promise.all([
      api.pods.get(ids.pod ?? ""),
      api.secrets.get(ids.secret ?? ""),
      api.clusters.get(ids.cluster ?? ""),
      api.clusters.pods(ids.cluster ?? ""),
    ]);
    const outputs = await stack.outputs(true);
    expect(outputs.read).toEqual({
      pod: {
        id: ids.pod,
        name: "notebook",
        image: "runpod/base:0.6.2-cpu",
        status: "RUNNING",
        cpu: { id: "cpu3c", vcpuCount: 2, memory: pod.cpu?.memory },
        ports: ["8888/http"],
      },
      podEnv: { MODEL: "llama" },
      // What the create left out is the API's defaults (contract, CreateEndpointRequest).
      endpoint: {
        id: ids.endpoint,
        name: "sdxl",
        type: "QUEUE",
        gpu: {
          pools: ["ADA_24"],
          count: 1,
          excludedTypes: [],
          allowedCudaVersions: [],
          minCudaVersion: null,
        },
        workers: { min: 0, max: 3, idleTimeout: 10 },
        scaling: { type: "QUEUE_DELAY", queueDelay: 4, requestCount: null },
        timeout: 300000,
        jobUrl: `${emu.serverlessUrl}/v2/${ids.endpoint}/`,
      },
      endpointEnv: { STEPS: "30" },
      template: { id: ids.template, name: "base", image: "acme/app:1", disk: 20, ports: ["22/tcp"] },
      templateEnv: { A: "1" },
      volume: { id: ids.volume, name: "datasets", size: 10, dataCenterId: "US-KS-2", type: "STANDARD" },
      registry: { id: ids.registry, name: "ghcr" },
      secret: {
        id: ids.secret,
        name: "HF_TOKEN",
        reference: "{{ RUNPOD_SECRET_HF_TOKEN }}",
        createdAt: secret.createdAt,
      },
      secretByOption: { id: ids.secret, name: "HF_TOKEN", reference: "{{ RUNPOD_SECRET_HF_TOKEN }}" },
      sshKey: { id: FINGERPRINT, publicKey: KEY, keyType: "ssh-ed25519", comment: "ana@laptop" },
      cluster: {
        id: ids.cluster,
        name: "trainers",
        type: "SLURM",
        dataCenterId: cluster.dataCenterId,
        // Members in rank order, as the Cluster's outputs list them.
        members: members
          .map((m) => ({ id: m.id, rank: m.cluster?.rank ?? Number.MAX_SAFE_INTEGER }))
          .sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id))
          .map((m) => m.id),
      },
      clusterEnv: { NCCL_DEBUG: "INFO" },
    });
  });

  it("state marks them external and holds no secret value: none read, none kept from the program", async () => {
    const state = await inState();
    const option = state["secret-by-option"];
    expect([
      Object.keys(state).sort(),
      Object.entries(state)
        .filter(([, r]) => (r as StateResource & { external?: boolean }).external === true)
        .map(([name]) => name)
        .sort(),
      Object.keys(option?.inputs ?? {}).sort(),
      Object.keys(option?.outputs ?? {}).sort(),
      JSON.stringify(state).includes("hf_value"),
    ]).toEqual([
      FIRST_RESOURCES,
      [...READ_RESOURCES, "retired"].sort(),
      ["__provider", "__readById", "name"],
      ["__provider", "createdAt", "description", "name", "reference", "secretId", "valueLastUpdatedAt"],
      false,
    ]);
  });

  it("refresh reads them again: a change made outside shows, a deleted object leaves state, nothing is written", async () => {
    await api.endpoints.update(ids.endpoint ?? "", { name: "sdxl-renamed" });
    await api.templates.delete(retiredId);
    const r = await run(["refresh", "--yes", "--skip-preview", "--json"]);
    const state = await inState();
    expect([
      r.code,
      steps(engineEvents(r.stdout)).sort(),
      r.writes,
      Object.keys(state).sort(),
      state.endpoint?.outputs?.name,
    ]).toEqual([
      0,
      ["refresh engine-get-dev", ...FIRST_RESOURCES.map((n) => `refresh ${n}`)].sort(),
      [],
      ALL_RESOURCES,
      "sdxl-renamed",
    ]);
  });

  it("destroy forgets them and deletes none of them: only the adopted volume is deleted", async () => {
    const r = await run(["destroy", "--yes", "--skip-preview", "--json"]);
    expect([
      r.code,
      steps(engineEvents(r.stdout)).sort(),
      r.writes,
      Object.keys(await inState()),
      await objectsInApi(),
    ]).toEqual([
      0,
      ["delete adopted", ...READ_RESOURCES.map((n) => `discard ${n}`), "delete engine-get-dev"].sort(),
      ["DELETE /v2/network-volumes/:id"],
      [],
      [
        [ids.pod, "RUNNING"],
        [ids.endpoint, "sdxl-renamed"],
        [ids.template, ids.volume, ids.registry, ids.secret, ids.cluster],
        [KEY],
        false,
      ],
    ]);
  });

  it("an id the API does not know fails up, naming the type and the id", async () => {
    await stack.setConfig({ "engine-get:ids": JSON.stringify({ ...ids, pod: "nosuchpod00000" }) });
    const r = await run(["up", "--yes", "--skip-preview"]);
    expect([r.code, r.writes]).toEqual([1, []]);
    expect(r.stdout).toContain(
      "  pulumi-nodejs:dynamic/runpod:Pod (pod):\n    error: Pod nosuchpod00000: no pod has the id nosuchpod00000 (or this API key cannot see it): a get reads an existing pod and never creates one.\n",
    );
  });

  it("the import resource option fails in the engine: a dynamic provider is read without its serialized code", async () => {
    await stack.setConfig({ "engine-get:ids": JSON.stringify(ids), "engine-get:importPod": ids.pod ?? "" });
    const r = await run(["preview"]);
    await stack.removeConfig(["engine-get:importPod"]);
    expect([r.code, r.writes]).toEqual([1, []]);
    expect(r.stdout).toContain(
      "  pulumi-nodejs:dynamic/runpod:Pod (imported):\n    error: Preview failed: code must be a string, not undefined\n",
    );
  });
});

describe("ServerlessJob", () => {
  it("has no get, and refuses the id option with the reason and what to call instead", () => {
    // @ts-expect-error a job cannot be read by id: ServerlessJob has no static get
    const get: unknown = lib.ServerlessJob.get;
    expect([get, typeof lib.Pod.get]).toEqual([undefined, "function"]);
    expect(() => new lib.ServerlessJob("smoke", { endpointId: "ep", input: {} }, { id: "job-1" })).toThrow(
      new Error(
        "ServerlessJob smoke: a job cannot be read by id (the id resource option): the service keeps a job's result for 30 minutes at most (1 for /runsync). Call getJobStatus(endpointId, jobId) to read one while it is kept.",
      ),
    );
  });
});
