/**
 * The CLI acting for a team (RUNPOD_TEAM_ID, sent as `X-Team-Id` on every request) against the
 * emulator's accounts (emulator/account/accounts.ts): alice is a member of team-ml, bob is not. A member's
 * commands see and bill the team's resources; a non-member's run against their own account.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { clientLib } from "../support/dist.js";
import { emulatorLib, START } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const ALICE = "rpa_ALICE_KEY_000000000000000000000000";
const BOB = "rpa_BOB_KEY_00000000000000000000000000";
const TEAM = "team-ml";
const h = cliHarnessForAllTests({
  clockScale: 0,
  startTime: START,
  seed: {
    ...WITHOUT_HISTORY_RESOURCES,
    apiKeys: [
      { key: emulatorLib.DEFAULT_API_KEY },
      { key: ALICE, userId: "user_alice" },
      { key: BOB, userId: "user_bob" },
    ],
    teams: [{ id: TEAM, ownerId: emulatorLib.DEFAULT_USER_ID, memberIds: ["user_alice"] }],
  },
});
const ids = { team: "", alice: "", bob: "" };
const POD = { image: "acme/app:1", gpu: { id: "NVIDIA A40" } };
type Json = Record<string, unknown>;

beforeAll(async () => {
  const as = (key: string, teamId?: string) => {
    const env = {
      ...h.emu.env(),
      RUNPOD_API_KEY: key,
      ...(teamId === undefined ? {} : { RUNPOD_TEAM_ID: teamId }),
    };
    return new clientLib.RunpodApi(
      new clientLib.RunpodClient(clientLib.resolveSettings(() => undefined, env)),
    );
  };
  ids.team = (await as(ALICE, TEAM).pods.create({ name: "team-pod", ...POD })).id;
  ids.alice = (await as(ALICE).pods.create({ name: "alice-pod", ...POD })).id;
  ids.bob = (await as(BOB).pods.create({ name: "bob-pod", ...POD })).id;
  h.emu.control.advance(3_600_000);
});

const names = (pods: Json[]) => pods.map((p) => p.name);

describe("RUNPOD_TEAM_ID", () => {
  it("a member lists the team's pods with it, and their own without it; every request carries X-Team-Id", async () => {
    const team = await h.json<Json[]>(["pods", "list"], { RUNPOD_API_KEY: ALICE, RUNPOD_TEAM_ID: TEAM });
    const sent = h.recorder.requests.map((r) => r.headers["x-team-id"]);
    const own = await h.json<Json[]>(["pods", "list"], { RUNPOD_API_KEY: ALICE });
    expect([names(team), sent, names(own)]).toEqual([["team-pod"], [TEAM], ["alice-pod"]]);
  });

  it("a non-member's commands run against their own account", async () => {
    const bob = await h.json<Json[]>(["pods", "list"], { RUNPOD_API_KEY: BOB, RUNPOD_TEAM_ID: TEAM });
    expect(names(bob)).toEqual(["bob-pod"]);
  });

  it("billing is the acting account's, and attributes its pods", async () => {
    const env = { RUNPOD_API_KEY: ALICE, RUNPOD_TEAM_ID: TEAM };
    const team = await h.json<Json>(["billing", "pods", "--bucket-size", "hour", "--last-n", "2"], env);
    const sent = h.recorder.requests.map((r) => [r.url.split("?")[0], r.headers["x-team-id"]]);
    const bob = await h.json<Json>(["billing", "pods", "--last-n", "1"], {
      RUNPOD_API_KEY: BOB,
      RUNPOD_TEAM_ID: TEAM,
    });
    expect(sent).toEqual([
      ["/v2/billing/pods", TEAM],
      ["/v2/pods", TEAM],
    ]);
    expect((team.records as Json[]).map((r) => [r.startTime, r.gpuId, r.podIds, r.totalAmount])).toEqual([
      ["2026-11-21T12:00:00Z", "NVIDIA A40", [ids.team], 0.4428],
      ["2026-11-21T13:00:00Z", "NVIDIA A40", [ids.team], 0],
    ]);
    expect((bob.records as Json[]).map((r) => [r.podIds, r.totalAmount])).toEqual([[[ids.bob], 0.4428]]);
  });
});
