/**
 * Team access (docs/api-model.md, Authentication 3 and 4; emulator/account/accounts.ts), through the
 * provider's own client configured with `runpod:teamId` / RUNPOD_TEAM_ID, which sends
 * `X-Team-Id`. The seed: alice and bob are users; team-ml is owned by the default user and has alice as a member; a key
 * created inside team-ml acts for it. A member's requests with the team's id act for the team;
 * anyone else's (bob's) run against their own account, with no error. Each account sees, changes
 * and is billed for only its own resources.
 */
import { describe, expect, it } from "vitest";
import type { SeedInput } from "../../emulator/index.js";
import { clientLib } from "../support/dist.js";
import {
  type Api,
  emulatorLib,
  frozenEmulatorForEachTest,
  type RunningEmulator,
  rejection,
  START,
} from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const ALICE = "rpa_ALICE_KEY_000000000000000000000000";
const BOB = "rpa_BOB_KEY_00000000000000000000000000";
const TEAM_KEY = "rpa_TEAM_ML_KEY_0000000000000000000000";
const TEAM = "team-ml";
const OTHER_TEAM = "team-other";
const SEED: Partial<SeedInput> = {
  ...WITHOUT_HISTORY_RESOURCES,
  apiKeys: [
    { key: emulatorLib.DEFAULT_API_KEY },
    { key: ALICE, userId: "user_alice" },
    { key: BOB, userId: "user_bob" },
    { key: TEAM_KEY, userId: "user_alice", teamId: TEAM },
  ],
  teams: [
    { id: TEAM, name: "ML", ownerId: emulatorLib.DEFAULT_USER_ID, memberIds: ["user_alice"] },
    { id: OTHER_TEAM, ownerId: "user_bob" },
  ],
  templates: [
    { id: "tpl-public", source: "official", image: "runpod/base:1" },
    { id: "tpl-alice", source: "user", image: "acme/app:1", account: "user_alice" },
  ],
  networkVolumes: [
    { id: "nv-team", name: "team-data", size: 10, dataCenter: "US-KS-2", type: "STANDARD", account: TEAM },
  ],
};
const POD = { image: "acme/app:1", gpu: { id: "NVIDIA A40" } };

let emu: RunningEmulator;
frozenEmulatorForEachTest({ startTime: START, seed: SEED }, (t) => {
  emu = t.emu;
});

/** The provider's client with this key and, when given, `runpod:teamId`. */
function as(key: string, teamId?: string): Api {
  const settings = clientLib.resolveSettings(() => undefined, {
    ...emu.env(),
    RUNPOD_API_KEY: key,
    ...(teamId === undefined ? {} : { RUNPOD_TEAM_ID: teamId }),
  });
  return new clientLib.RunpodApi(
    new clientLib.RunpodClient(settings, { retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false } }),
  );
}

const podNames = async (api: Api) => (await api.pods.list()).map((p) => p.name).sort();

describe("X-Team-Id", () => {
  it("a member's requests act for the team; without the header, for the member's own account", async () => {
    await as(ALICE, TEAM).pods.create({ name: "team-pod", ...POD });
    await as(ALICE).pods.create({ name: "alice-pod", ...POD });
    // A key added through the control plane for alice is alice's too.
    emu.control.addApiKey("rpa_ALICE_SECOND_KEY_000000000000000000", [], { userId: "user_alice" });
    expect([
      await podNames(as(ALICE, TEAM)),
      await podNames(as(ALICE)),
      await podNames(as(ALICE, "team-that-does-not-exist")),
      await podNames(as("rpa_ALICE_SECOND_KEY_000000000000000000", TEAM)),
      await podNames(as(emulatorLib.DEFAULT_API_KEY, TEAM)),
      await podNames(as(TEAM_KEY)),
      await podNames(as(emulatorLib.DEFAULT_API_KEY)),
    ]).toEqual([["team-pod"], ["alice-pod"], ["alice-pod"], ["team-pod"], ["team-pod"], ["team-pod"], []]);
  });

  it("a non-member's requests run against their own account, without an error", async () => {
    await as(ALICE, TEAM).pods.create({ name: "team-pod", ...POD });
    const bobs = await as(BOB, TEAM).pods.create({ name: "bob-pod", ...POD });
    expect([await podNames(as(BOB, TEAM)), await podNames(as(BOB)), await podNames(as(ALICE, TEAM))]).toEqual(
      [["bob-pod"], ["bob-pod"], ["team-pod"]],
    );
    expect(emu.control.snapshot().pods.find((p) => p.id === bobs.id)?.name).toBe("bob-pod");
  });

  it("a key created inside a team acts for it whatever X-Team-Id says", async () => {
    await as(TEAM_KEY, OTHER_TEAM).pods.create({ name: "by-team-key", ...POD });
    expect([await podNames(as(ALICE, TEAM)), await podNames(as(BOB, OTHER_TEAM))]).toEqual([
      ["by-team-key"],
      [],
    ]);
  });

  it("another account's resource is unknown: read, change and delete answer 404, and it is left as it was", async () => {
    const pod = await as(ALICE, TEAM).pods.create({ name: "team-pod", ...POD });
    const bob = as(BOB, TEAM);
    const failures = await Promise.all([
      rejection(bob.pods.get(pod.id)),
      rejection(bob.pods.update(pod.id, { name: "mine" })),
      rejection(bob.pods.action(pod.id, "stop")),
      rejection(bob.pods.delete(pod.id)),
    ]);
    expect(failures.map((f) => [f.status, f.detail])).toEqual(
      Array.from({ length: 4 }, () => [404, `Pod '${pod.id}' was not found.`]),
    );
    expect([(await as(ALICE, TEAM).pods.get(pod.id)).name]).toEqual(["team-pod"]);
  });

  it("scopes every resource: volumes, templates, registries, SSH keys, endpoints, secrets and what references them", async () => {
    const team = as(ALICE, TEAM);
    const bob = as(BOB);
    const volume = await team.networkVolumes.create({ name: "data", size: 10, dataCenter: "US-KS-2" });
    const template = await team.templates.create({ name: "t", image: "acme/app:1" });
    const registry = await team.registries.create({ name: "r", username: "u", password: "p" });
    await team.sshKeys.put(["ssh-ed25519 AAAA team"]);
    const secret = await team.secrets.create({ name: "HF_TOKEN", value: "hf_team_value" });
    const endpoint = await team.endpoints.create({
      name: "e",
      type: "QUEUE",
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
      image: "acme/worker:1",
      gpu: { pools: ["ADA_24"] },
    });
    const seen = async (api: Api) => [
      (await api.networkVolumes.list()).map((v) => v.id),
      (await api.templates.list()).map((t) => t.id),
      (await api.registries.list()).map((r) => r.id),
      await api.sshKeys.get(),
      (await api.endpoints.list()).map((e) => e.id),
      (await api.secrets.list()).map((x) => x.id),
    ];
    const referenced = await Promise.all([
      rejection(
        bob.pods.create({ name: "p", ...POD, mounts: { network: [{ volumeId: volume.id, path: "/d" }] } }),
      ),
      rejection(bob.pods.create({ name: "p", gpu: POD.gpu, templateId: template.id })),
      rejection(bob.pods.create({ name: "p", ...POD, registry: registry.id })),
      rejection(bob.jobs.run(endpoint.id, {})),
      rejection(bob.secrets.get(secret.id)),
    ]);
    // A reference to the team's secret in bob's pod is a name bob has no secret of: it stays as written.
    const bobsPod = await bob.pods.create({
      name: "p",
      ...POD,
      env: { TOKEN: "{{ RUNPOD_SECRET_HF_TOKEN }}" },
    });
    const teamsPod = await team.pods.create({
      name: "p",
      ...POD,
      env: { TOKEN: "{{ RUNPOD_SECRET_HF_TOKEN }}" },
    });
    const resolved = (id: string) => emu.control.podEnvironment(id).find((v) => v.name === "TOKEN")?.secrets;
    expect([await seen(team), await seen(bob)]).toEqual([
      [
        ["nv-team", volume.id],
        [template.id],
        [registry.id],
        ["ssh-ed25519 AAAA team"],
        [endpoint.id],
        [secret.id],
      ],
      [[], [], [], [], [], []],
    ]);
    expect([resolved(bobsPod.id), resolved(teamsPod.id)]).toEqual([
      [{ secret: "HF_TOKEN", resolved: false }],
      [{ secret: "HF_TOKEN", resolved: true }],
    ]);
    expect(referenced.map((f) => [f.status, f.detail])).toEqual([
      [400, `Network volume '${volume.id}' does not exist.`],
      [404, `Template '${template.id}' was not found or is not accessible.`],
      [400, `registry '${registry.id}' is not a registry credential; see GET /v2/registries.`],
      [404, `Endpoint '${endpoint.id}' was not found.`],
      [404, `Secret '${secret.id}' was not found.`],
    ]);
  });

  it("the seed says whose its resources are: a user template, a team's volume; public templates are everyone's", async () => {
    const seen = async (api: Api) => [
      (await api.templates.list()).map((t) => t.id),
      (await api.networkVolumes.list()).map((v) => v.id),
      (await api.templates.get("tpl-public")).id,
    ];
    expect([await seen(as(ALICE)), await seen(as(ALICE, TEAM)), await seen(as(BOB))]).toEqual([
      [["tpl-alice"], [], "tpl-public"],
      [[], ["nv-team"], "tpl-public"],
      [[], [], "tpl-public"],
    ]);
    expect((await rejection(as(BOB).templates.get("tpl-alice"))).status).toBe(404);
  });

  it("bills each account for its own pods only (an A40 at $0.44 an hour, its 20 GB disk $0.0028)", async () => {
    const pod = await as(ALICE, TEAM).pods.create({ name: "team-pod", ...POD });
    emu.control.advance(3_600_000);
    const window = {
      bucketSize: "hour",
      startTime: "2026-11-21T12:00:00Z",
      endTime: "2026-11-21T13:00:00Z",
    } as const;
    const billed = async (api: Api) =>
      (await api.billing.pods(window)).records.map((r) => [r.podId, r.gpuAmount, r.diskAmount]);
    expect([await billed(as(TEAM_KEY)), await billed(as(ALICE)), await billed(as(BOB, TEAM))]).toEqual([
      [[pod.id, 0.44, 0.0028]],
      [],
      [],
    ]);
  });
});
