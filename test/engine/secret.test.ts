/**
 * Secret through the real Pulumi CLI: the value, a secret config value, is encrypted in state and
 * never an output; an unchanged value is no change; a new value is seen by check against the old
 * inputs the engine records, and rotates the secret in place (one PATCH, no replacement), leaving
 * the pod that references it as it was until its next boot; refresh notices a value set in the
 * console and the next up sets the program's back.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineEvents, type ProgramStack, steps } from "../../harness/stack.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import { stackOnEmulator, TIME_SCALE } from "../support/stack.js";

const PROGRAM = join(__dirname, "secret-program");
const FIRST = "hf_ENGINE_FIRST_VALUE_3e81c0";
const SECOND = "hf_ENGINE_SECOND_VALUE_94d2af";
const CONSOLE = "hf_SET_IN_THE_CONSOLE_61b7";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let emu: RunningEmulator;
let stack: ProgramStack;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 126 });
  stack = await stackOnEmulator(emu, PROGRAM);
});
afterAll(async () => {
  stack?.dispose();
  await emu?.close();
});

/** Runs `pulumi <args>` with the token set to `value`: its exit code, steps and API writes. */
async function run(value: string, args: string[]) {
  await stack.setConfig({}, { "engine-secret:hfToken": value });
  emu.control.clearRequests();
  const r = await stack.run([...args, "--yes", "--skip-preview", "--json"]);
  const writes = emu.control
    .requests()
    .entries.filter((e) => e.method !== "GET")
    .map((e) => `${e.method} ${e.route}`);
  // The stack's identity (docs/decisions.md), created beside the secret in the first run, is no
  // part of what these tests look at, and its step falls anywhere among the secret's.
  const own = steps(engineEvents(r.stdout)).filter((s) => !s.endsWith(" runpod-dynamic"));
  return { code: r.code, steps: own, writes, text: `${r.stdout}${r.stderr}` };
}
const secretIn = (
  resources: readonly { type: string; inputs?: Record<string, unknown>; outputs?: object }[] = [],
) => resources.find((r) => r.type === "pulumi-nodejs:dynamic/runpod:Secret");
const podEnvironment = (podId: string) =>
  emu.control.podEnvironment(podId).find((v) => v.name === "HF_TOKEN")?.sha256;

describe("a Secret through the real engine", { timeout: 240_000 }, () => {
  let podId: string;

  it("creates the secret, then the pod that references it, which boots with the value", async () => {
    const r = await run(FIRST, ["up"]);
    const outputs = await stack.outputs();
    podId = String(outputs.podId);
    expect([
      r.code,
      r.steps,
      r.writes,
      outputs.reference,
      podEnvironment(podId),
      r.text.includes(FIRST),
    ]).toEqual([
      0,
      ["create engine-secret-dev", "create hf", "create app"],
      ["POST POST /v2/account/secrets", "POST POST /v2/pods"],
      "{{ RUNPOD_SECRET_hf-token }}",
      sha256(FIRST),
      false,
    ]);
  });

  it("keeps the value encrypted in state and out of the outputs", async () => {
    const { text, deployment } = await stack.exportState();
    const secret = secretIn(deployment.resources);
    expect([
      text.includes(FIRST),
      (secret?.inputs?.value as Record<string, unknown> | undefined)?.["4dabf18193072939515e22adb298388d"],
      Object.keys(secret?.outputs ?? {}).includes("value"),
    ]).toEqual([false, "1b47061264138c4ac30d75fd1eb44270", false]);
  });

  it("an unchanged value is no change and no write", async () => {
    const r = await run(FIRST, ["up"]);
    expect([r.code, r.steps, r.writes]).toEqual([0, ["same engine-secret-dev", "same hf", "same app"], []]);
  });

  it("a new value rotates the secret in place; the running pod keeps the old one until it restarts", async () => {
    const r = await run(SECOND, ["up"]);
    const before = podEnvironment(podId);
    await apiFor(emu).pods.action(podId, "restart");
    expect([r.code, r.steps, r.writes, r.text.includes(SECOND), before, podEnvironment(podId)]).toEqual([
      0,
      ["same engine-secret-dev", "update hf", "same app"],
      ["PATCH PATCH /v2/account/secrets/:id"],
      false,
      sha256(FIRST),
      sha256(SECOND),
    ]);
    expect((await stack.exportState()).text.includes(SECOND)).toBe(false);
  });

  it("refresh notices a value set in the console, and the next up sets the program's back", async () => {
    const id = String((await stack.outputs()).secretId);
    await apiFor(emu).secrets.update(id, { value: CONSOLE });
    const refreshed = await run(SECOND, ["refresh"]);
    const r = await run(SECOND, ["up"]);
    await apiFor(emu).pods.action(podId, "restart");
    expect([refreshed.code, refreshed.writes, r.steps, r.writes, podEnvironment(podId)]).toEqual([
      0,
      [],
      ["same engine-secret-dev", "update hf", "same app"],
      ["PATCH PATCH /v2/account/secrets/:id"],
      sha256(SECOND),
    ]);
  });

  it("destroy deletes the pod before the secret it references", async () => {
    const r = await run(SECOND, ["destroy"]);
    expect([r.code, r.writes, emu.control.snapshot().secrets]).toEqual([
      0,
      ["DELETE DELETE /v2/pods/:id", "DELETE DELETE /v2/account/secrets/:id"],
      [],
    ]);
  });
});
