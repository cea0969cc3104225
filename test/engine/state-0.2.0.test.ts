/**
 * State written by runpod-dynamic 0.2.0 (test/fixtures/state-0.2.0.json: one resource of every
 * type 0.2.0 had, written through the real CLI by 0.2.0's own provider against its own emulator,
 * from the program in test/fixtures/programs/state-0.2.0) works with the current code through the
 * real CLI: the preview plans no replacement, refresh reads every resource, `up` replaces nothing
 * (it creates the stack's identity, and nothing else) and is then unchanged, and destroy removes
 * every object.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, previewSteps, steps, summary } from "../../harness/stack.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { raw } from "../support/http.js";
import { importReleasedState, onlyResource, releasedState } from "../support/released-state.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "..", "fixtures", "programs", "state-0.2.0");
/** Pulumi's mark of an encrypted value in exported state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";
const type = (name: string) => `pulumi-nodejs:dynamic/runpod:${name}`;

let emu: RunningEmulator;
let stack: ProgramStack;
/** Old id to the id of the same object made again in this emulator. */
const ids = new Map<string, string>();

/** POSTs (or PUTs) `body` to the emulator's v2 surface and answers the parsed body; fails unless 2xx. */
async function send(path: string, body: unknown, method = "POST", base = emu.baseUrl) {
  const r = await raw(`${base}${path}`, { method, body: JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * Every object the state points at, made again in this emulator with the body 0.2.0 sent for it
 * (its create bodies: provider/resources/<type>/body.ts at that commit), in the order the program's
 * dependencies gave.
 */
async function recreate(state: ReturnType<typeof releasedState>): Promise<void> {
  const inputs = (name: string) => onlyResource(state, type(name)).inputs ?? {};
  const made = (name: string, id: unknown) => ids.set(onlyResource(state, type(name)).id, String(id));
  const mapped = (id: unknown) => ids.get(String(id)) ?? String(id);

  // The key set is the account's; the key's id is its fingerprint, the same in any emulator.
  await send("/v2/account/ssh-keys", { keys: [inputs("SshKey").publicKey] }, "PUT");
  const volume = inputs("NetworkVolume");
  made(
    "NetworkVolume",
    (
      await send("/v2/network-volumes", {
        name: volume.name,
        size: volume.size,
        dataCenter: volume.dataCenterId,
      })
    ).id,
  );
  // The password is encrypted in state: this is the program's.
  const registry = inputs("Registry");
  made(
    "Registry",
    (
      await send("/v2/registries", {
        name: registry.name,
        username: registry.username,
        password: "state-fixture-password",
      })
    ).id,
  );
  const { __createKey: createKey, __provider: _p, ...pod } = inputs("Pod");
  const mounts = pod.mounts as { network: { volumeId: string; path: string }[] };
  made(
    "Pod",
    (
      await send("/v2/pods", {
        ...pod,
        registry: mapped(pod.registry),
        mounts: { network: mounts.network.map((m) => ({ ...m, volumeId: mapped(m.volumeId) })) },
        // 0.2.0 marked the pods it created (provider/resources/pod/translate.ts).
        env: { ...(pod.env as Record<string, string>), RUNPOD_DYNAMIC_CREATE_KEY: String(createKey) },
      })
    ).id,
  );
  const { __provider: _t, ...template } = inputs("Template");
  made("Template", (await send("/v2/templates", template)).id);
  const { __provider: _e, ...endpoint } = inputs("ServerlessEndpoint");
  const endpointId = (
    await send("/v2/serverless", {
      ...endpoint,
      templateId: mapped(endpoint.templateId),
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    })
  ).id;
  made("ServerlessEndpoint", endpointId);
  const job = inputs("ServerlessJob");
  made(
    "ServerlessJob",
    (await send(`/v2/${String(endpointId)}/runsync`, { input: job.input }, "POST", emu.serverlessUrl)).id,
  );
  const { __provider: _c, ...cluster } = inputs("Cluster");
  const clusterId = String((await send("/v2/clusters", cluster)).id);
  made("Cluster", clusterId);
  // Its member pods, by rank.
  const old = onlyResource(state, type("Cluster")).outputs?.members as { podId: string; rank: number }[];
  const members = emu.control.snapshot().clusters.find((c) => c.id === clusterId)?.memberIds ?? [];
  for (const m of old) ids.set(m.podId, String(members[m.rank]));
}

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 202,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
  const state = releasedState("0.2.0");
  await recreate(state);
  stack = await importReleasedState(emu, PROGRAM, state, ids);
}, 120_000);
afterAll(async () => {
  stack?.dispose();
  await emu.close();
});

/** The write routes the emulator answered since the last `clearRequests`, sorted. */
const writes = () =>
  emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => e.route)
    .sort();
/** The summary event's count of resources per operation. */
const changes = (stdout: string) => summary(engineEvents(stdout)).resourceChanges;

/** What the emulator holds of the objects made again for the state, by kind (the key by its text). */
function live() {
  const made = new Set(ids.values());
  const held = emu.control.snapshot();
  const publicKey = onlyResource(releasedState("0.2.0"), type("SshKey")).inputs?.publicKey;
  return {
    pods: held.pods.filter((p) => made.has(p.id) && p.status !== "TERMINATED").map((p) => p.id),
    clusters: held.clusters.filter((c) => made.has(c.id) && c.goneAt === undefined).map((c) => c.id),
    endpoints: held.endpoints.filter((e) => made.has(e.id)).map((e) => e.id),
    templates: held.templates.filter((t) => made.has(String(t.id))).map((t) => t.id),
    registries: held.registries.filter((g) => made.has(g.id)).map((g) => g.id),
    networkVolumes: held.networkVolumes.filter((v) => made.has(v.id)).map((v) => v.id),
    sshKeys: held.sshKeys.filter((k) => k === publicKey),
  };
}

describe("state written by 0.2.0", { timeout: 120_000 }, () => {
  it("holds the API key only encrypted", () => {
    const text = readFileSync(join(__dirname, "..", "fixtures", "state-0.2.0.json"), "utf8");
    const provider = releasedState("0.2.0").deployment.resources.find(
      (r) => r.type === "pulumi:providers:pulumi-nodejs",
    );
    expect([
      text.includes(emulatorLib.DEFAULT_API_KEY),
      Object.keys(Object(provider?.inputs?.["runpod:apiKey"])),
    ]).toEqual([false, [SECRET_SIGNATURE, "ciphertext"]]);
  });

  // Nothing the current code reads differs from what 0.2.0 recorded: no update, let alone a
  // replacement, for any of the nine resources (the stack and eight of runpod's). The one step is
  // the stack's identity, which every stack gets at its first up (docs/decisions.md): the pod's create
  // key is not compared, so the key the current code would give a new pod is no change.
  it("previews with nothing to change but the stack's identity to create", async () => {
    const r = await stack.run(["preview", "--json"]);
    const plan = JSON.parse(r.stdout) as { changeSummary: Record<string, number> };
    expect([r.code, previewSteps(r.stdout), plan.changeSummary]).toEqual([
      0,
      ["same runpod-state-dev", "create runpod-dynamic"],
      { create: 1, same: 9 },
    ]);
  });

  it("refreshes by reading every object (a ServerlessJob is a record: it keeps it), then up changes nothing", async () => {
    emu.control.clearRequests();
    const refresh = await stack.run(["refresh", "--yes", "--skip-preview", "--json"]);
    const routes = Object.keys(emu.control.requests().summary.byRoute).sort();
    const { deployment } = await stack.exportState();
    const endpoint = deployment.resources?.find((r) => r.type === type("ServerlessEndpoint"));
    expect([refresh.code, changes(refresh.stdout), routes, writes(), endpoint?.outputs?.jobUrl]).toEqual([
      0,
      { same: 9 },
      [
        "GET /v2/account/ssh-keys",
        "GET /v2/clusters/:id",
        "GET /v2/clusters/:id/pods",
        "GET /v2/network-volumes/:id",
        "GET /v2/pods/:id",
        "GET /v2/registries/:id",
        "GET /v2/serverless/:id",
        "GET /v2/templates/:id",
      ],
      [],
      // Read now: the state had the address of the emulator 0.2.0 ran against.
      `${emu.serverlessUrl}/v2/${endpoint?.id}/`,
    ]);
    const up = await stack.run(["up", "--yes", "--skip-preview", "--json"]);
    expect([up.code, steps(engineEvents(up.stdout)).sort(), writes()]).toEqual([
      0,
      [
        "create runpod-dynamic",
        "same cluster",
        "same endpoint",
        "same job",
        "same key",
        "same pod",
        "same registry",
        "same runpod-state-dev",
        "same template",
        "same volume",
      ],
      [],
    ]);
    const again = await stack.run(["up", "--yes", "--expect-no-changes", "--json"]);
    expect([again.code, changes(again.stdout)]).toEqual([0, { same: 10 }]);
  });

  it("destroys every object", async () => {
    const before = live();
    emu.control.clearRequests();
    const r = await stack.run(["destroy", "--yes", "--skip-preview"]);
    expect([Object.values(before).map((found) => found.length), r.code, writes(), live()]).toEqual([
      // The pod and the cluster's two, then one of each other kind.
      [3, 1, 1, 1, 1, 1, 1],
      0,
      [
        "DELETE /v2/clusters/:id",
        "DELETE /v2/network-volumes/:id",
        "DELETE /v2/pods/:id",
        "DELETE /v2/registries/:id",
        "DELETE /v2/serverless/:id",
        "DELETE /v2/templates/:id",
        "PUT /v2/account/ssh-keys",
      ],
      {
        pods: [],
        clusters: [],
        endpoints: [],
        templates: [],
        registries: [],
        networkVolumes: [],
        sshKeys: [],
      },
    ]);
  });
});
