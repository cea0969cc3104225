/**
 * Stacks that share a name and an API key, through the real CLI as a team works: the same project
 * and stack name (`dev`) on three self-managed backends, one key. Each stack acts only on what it
 * created: none takes another's pod for one an interrupted run left, none terminates another's,
 * a stack removed and initialised again under the same name is a stranger to its old pods, and an
 * SSH key another stack still declares stays on the account.
 */
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CommandResult, ProgramStack } from "../../harness/stack.js";
import { publicKey } from "../support/chaos/fleet.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";
import { livePodIds, podIdsIn, stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "program");
const A40 = "NVIDIA A40";
/** What a stack prints when it acts on a pod it did not create in this run (pod/start.ts). */
const FOREIGN_ACTION = /taking over pod|left by an interrupted run|a duplicate made by an unanswered create/;

let emu: RunningEmulator;
const stacks: ProgramStack[] = [];

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 34,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => {
  for (const s of stacks.splice(0)) s.dispose();
  emu.control.reset(WITHOUT_HISTORY_RESOURCES);
});

/** A stack named `dev` of the test program on a backend of its own, with this config. */
async function devStack(config: Record<string, unknown>): Promise<ProgramStack> {
  const stack = await stackOnEmulator(emu, PROGRAM);
  stacks.push(stack);
  await stack.setConfig(
    Object.fromEntries(Object.entries(config).map(([k, v]) => [`engine-features:${k}`, JSON.stringify(v)])),
  );
  return stack;
}

const twoPods = (count: number) => ({ a: { gpu: { id: A40, count } }, b: { gpu: { id: A40, count } } });
const up = (stack: ProgramStack) => stack.expect(["up", "--yes", "--skip-preview"]);
const said = (r: CommandResult) => `${r.stdout}\n${r.stderr}`;
const podsOf = async (stack: ProgramStack) => podIdsIn((await stack.exportState()).deployment).sort();
const statusOf = (id: string | undefined) => emu.control.snapshot().pods.find((p) => p.id === id)?.status;

describe("stacks with the same project and stack name on three backends, one key", {
  timeout: 240_000,
}, () => {
  it("each creates and keeps its own pods; destroying two leaves the third's RUNNING", async () => {
    // A and B run the same program; C asks for two GPUs a pod.
    const a = await devStack({ pods: twoPods(1) });
    const b = await devStack({ pods: twoPods(1) });
    const c = await devStack({ pods: twoPods(2) });
    const runs = [await up(a), await up(b), await up(c)];
    const [podsA, podsB, podsC] = [await podsOf(a), await podsOf(b), await podsOf(c)];
    expect([
      runs.map((r) => FOREIGN_ACTION.test(said(r))),
      [podsA.length, podsB.length, podsC.length],
      new Set([...podsA, ...podsB, ...podsC]).size,
      livePodIds(emu).sort(),
    ]).toEqual([[false, false, false], [2, 2, 2], 6, [...podsA, ...podsB, ...podsC].sort()]);

    await a.expect(["destroy", "--yes", "--skip-preview"]);
    await b.expect(["destroy", "--yes", "--skip-preview"]);
    expect([livePodIds(emu).sort(), podsC.map(statusOf)]).toEqual([podsC, ["RUNNING", "RUNNING"]]);
  });

  it("a stack removed and initialised again under the same name leaves its old pods alone", async () => {
    const stack = await devStack({ pods: twoPods(1) });
    await up(stack);
    const old = await podsOf(stack);
    await stack.expect(["stack", "rm", "--force", "--yes", "--preserve-config"]);
    await stack.expect(["stack", "init", "dev"]);
    const again = await up(stack);
    const now = await podsOf(stack);
    expect([
      FOREIGN_ACTION.test(said(again)),
      now.filter((id) => old.includes(id)),
      old.map(statusOf),
      livePodIds(emu).sort(),
    ]).toEqual([false, [], ["RUNNING", "RUNNING"], [...old, ...now].sort()]);
  });
});

describe("two stacks declaring one SSH public key", { timeout: 240_000 }, () => {
  const KEY = publicKey("isolation", "me@laptop");
  const material = KEY.split(" ").slice(0, 2).join(" ");
  const registered = (holders: number) =>
    new RegExp(
      `^${KEY.replace(/[+/]/g, "\\$&")} runpod-dynamic-holders=[0-9a-f]{12}(,[0-9a-f]{12}){${holders - 1}}$`,
    );
  const onAccount = async () => (await apiFor(emu).sshKeys.get()).filter((k) => k.startsWith(material));

  it("destroying one leaves the key on the account; the other's refresh and up change nothing", async () => {
    const x = await devStack({ sshKeys: { laptop: KEY } });
    const y = await devStack({ sshKeys: { laptop: KEY } });
    await up(x);
    await up(y);
    const held = await onAccount();
    const destroyed = await x.expect(["destroy", "--yes", "--skip-preview"]);
    const kept = await onAccount();
    await y.expect(["refresh", "--yes", "--skip-preview"]);
    const unchanged = await y.run(["up", "--yes", "--expect-no-changes"]);
    expect([
      held,
      said(destroyed).includes("stays on the account: another stack declares it"),
      kept,
      unchanged.code,
    ]).toEqual([[expect.stringMatching(registered(2))], true, [expect.stringMatching(registered(1))], 0]);
    // The last stack that declares it takes it off the account.
    await y.expect(["destroy", "--yes", "--skip-preview"]);
    expect(await onAccount()).toEqual([]);
  });
});
