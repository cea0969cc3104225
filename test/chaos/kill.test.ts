/**
 * A provider host killed in the middle of a create: SIGKILL right after the API accepted
 * the pod, while the host waits for RUNNING. The engine records nothing for that create (the real
 * one records a pending create and drops it at the next run), so the next `up` calls Create again;
 * the pod carries its resource's create key, and that Create takes it over instead of making a
 * second one. A replacement is never mistaken for the pod it replaces, and another stack with the
 * same pod names makes its own pods. The other interrupted operation of a replacement, a delete of
 * the old pod that keeps failing, leaves it known (pending) until the next run deletes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Pod } from "../../provider/client/schemas/pods.js";
import { A40, type Fleet, L40S, publicKey } from "../support/chaos/fleet.js";
import { chaosRun, known, POD, TIME_SCALE } from "../support/chaos/run.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  message,
  type ProviderHost,
  provproto,
  rpc,
  serializedProvider,
  startProviderHost,
} from "../support/host.js";
import { WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const KEY_ENV = "RUNPOD_DYNAMIC_CREATE_KEY";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({
    clockScale: TIME_SCALE,
    randomSeed: 2020,
    seed: WITHOUT_HISTORY_RESOURCES,
  });
});
afterAll(async () => {
  await emu?.close();
});

const fleet = (gpu = A40): Fleet => ({
  sshKeys: [{ name: "key-kill", publicKey: publicKey("kill", "kill@test") }],
  pods: [
    { name: "k-gpu", args: { name: "k-gpu", image: "img:1", gpu: { id: gpu }, ports: ["22/tcp"] } },
    { name: "k-cpu", args: { name: "k-cpu", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 2 } } },
  ],
  endpoints: [],
});

const live = (name?: string): Pod[] =>
  (emu.control.snapshot().pods as Pod[]).filter(
    (p) => !p.cluster && p.status !== "TERMINATED" && (name === undefined || p.name === name),
  );
const podCreates = () => emu.control.requests().summary.byRoute["POST /v2/pods"] ?? 0;
const idIn = (run: ReturnType<typeof chaosRun>, name: string) =>
  [...run.state.resources.values()].find((r) => r.name === name)?.id;

describe("a provider host killed while a pod it created is starting", { timeout: 120_000 }, () => {
  const run = () => chaosRun(emu, { stack: "kill" });
  let stack: ReturnType<typeof chaosRun>;

  it("leaves the pod and no state for it; the next up takes that pod over instead of creating another", async () => {
    stack = run();
    const killed = await stack.up("killed", fleet(), { CHAOS_KILL_AFTER_CREATE: "k-gpu" });
    const [orphan] = live("k-gpu");
    expect([killed.code === 0, idIn(stack, "k-gpu"), live("k-gpu").length]).toEqual([false, undefined, 1]);
    expect(orphan?.env[KEY_ENV]).toMatch(/^[0-9a-f]{32}$/);

    // The kill may have come before or after k-cpu's create was accepted.
    const cpuLeft = live("k-cpu").length;
    emu.control.clearRequests();
    const next = await stack.up("after the kill", fleet());
    expect([next.code, idIn(stack, "k-gpu"), live("k-gpu").map((p) => p.id), live("k-cpu").length]).toEqual([
      0,
      orphan?.id,
      [orphan?.id],
      1,
    ]);
    // Only what the killed run had not created yet is created now.
    expect(podCreates()).toBe(1 - cpuLeft);
    expect(stack.log.join("\n")).toContain(`taking over pod ${orphan?.id}`);
  });

  it("an interrupted replacement is taken over by the next run; the pod it replaces is deleted", async () => {
    const before = idIn(stack, "k-gpu");
    const killed = await stack.up("replace killed", fleet(L40S), { CHAOS_KILL_AFTER_CREATE: "k-gpu" });
    const replacement = live("k-gpu").find((p) => p.id !== before);
    expect([killed.code === 0, idIn(stack, "k-gpu"), replacement?.gpu?.id]).toEqual([false, before, L40S]);

    emu.control.clearRequests();
    const next = await stack.up("replace again", fleet(L40S));
    expect([
      next.code,
      next.ops.filter((o) => o.op === "replace").map((o) => o.name),
      idIn(stack, "k-gpu"),
      live("k-gpu").map((p) => p.id),
      podCreates(),
    ]).toEqual([0, ["k-gpu"], replacement?.id, [replacement?.id], 0]);
  });

  it("another stack with the same pod names creates its own pods and leaves these alone", async () => {
    const other = chaosRun(emu, { stack: "kill-other" });
    const mine = live().map((p) => p.id);
    emu.control.clearRequests();
    const up = await other.up("other stack", fleet(L40S));
    expect([up.code, podCreates(), live("k-gpu").length, live("k-cpu").length]).toEqual([0, 2, 2, 2]);
    expect(known(other.state).filter((r) => r.type === POD && mine.includes(r.id))).toEqual([]);
    await other.destroy("other stack destroy");
    await stack.destroy("destroy");
    expect([live(), emu.control.snapshot().sshKeys]).toEqual([[], []]);
  });
});

describe("a replaced pod whose delete keeps failing", { timeout: 60_000 }, () => {
  it("stays known as a pending delete, and the next run deletes it", async () => {
    const stack = chaosRun(emu, { stack: "pending" });
    const small = (gpu: string): Fleet => ({ ...fleet(gpu), pods: fleet(gpu).pods.slice(0, 1) });
    expect((await stack.up("up", small(A40))).code).toBe(0);
    const old = idIn(stack, "k-gpu");
    emu.control.addFault({ method: "DELETE", path: `^/v2/pods/${old}$`, status: 500 });
    const replaced = await stack.up("replace, delete refused", small(L40S));
    const now = idIn(stack, "k-gpu");
    expect([
      replaced.code === 0,
      replaced.failures.get("k-gpu"),
      stack.state.pendingDeletes.map((r) => r.id),
      live("k-gpu")
        .map((p) => p.id)
        .sort(),
    ]).toEqual([
      false,
      expect.stringMatching(new RegExp(`^Pod k-gpu: DELETE /v2/pods/${old}: 500 `)),
      [old],
      [old, now].sort(),
    ]);
    emu.control.clearFaults();
    const next = await stack.up("up again", small(L40S));
    expect([next.code, stack.state.pendingDeletes, live("k-gpu").map((p) => p.id)]).toEqual([0, [], [now]]);
    await stack.destroy("destroy");
    expect(live("k-gpu")).toEqual([]);
  });
});

describe("a replacement that asks for exactly the same pod (pulumi up --replace)", {
  timeout: 60_000,
}, () => {
  const TYPE = "pulumi-nodejs:dynamic/runpod:Pod";
  const urn = `urn:pulumi:dev::rp::${TYPE}::same`;
  let text: string;
  const hosts: ProviderHost[] = [];
  const config = () => emu.pulumiConfig();
  const host = async () => {
    const h = await startProviderHost({
      config: config(),
      env: { RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE), RUNPOD_API_KEY: "" },
    });
    hosts.push(h);
    return h;
  };
  const check = async (h: ProviderHost, olds: Record<string, unknown>) =>
    (
      await rpc<Any>(
        h.client,
        "check",
        message(provproto.CheckRequest, {
          urn,
          type: TYPE,
          olds,
          news: {
            name: "same",
            image: "img:1",
            gpu: { id: A40 },
            __createKey: "0123456789abcdef0123456789abcdef",
            __provider: text,
          },
        }),
      )
    )
      .getInputs()
      .toJavaScript();
  const create = (h: ProviderHost, properties: Record<string, unknown>) =>
    rpc<Any>(h.client, "create", message(provproto.CreateRequest, { urn, type: TYPE, properties }));

  beforeAll(async () => {
    text = (await serializedProvider("Pod")).text;
  });
  afterAll(() => {
    for (const h of hosts) h.close();
  });

  it("never takes over the live pod: the diff that decided the replacement marked it as in state", async () => {
    const first = await host();
    const inputs = await check(first, {});
    const created = await create(first, inputs);
    const outputs = created.getProperties().toJavaScript();
    first.close();

    // A new provider process, as in the next `pulumi up --replace`. The engine diffs the resource in
    // state, then checks the replacement again without old inputs: the same create key.
    const second = await host();
    await rpc<Any>(
      second.client,
      "diff",
      message(provproto.DiffRequest, { id: created.getId(), urn, type: TYPE, olds: outputs, news: inputs }),
    );
    const again = await check(second, {});
    emu.control.clearRequests();
    const replacement = await create(second, again);
    expect([
      again.__createKey === inputs.__createKey,
      replacement.getId() === created.getId(),
      podCreates(),
      live("same")
        .map((p) => p.id)
        .sort(),
    ]).toEqual([true, false, 1, [created.getId(), replacement.getId()].sort()]);
  });
});
