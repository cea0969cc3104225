/**
 * A pod's scripted load (control plane `setPodLoad`, `PUT /__emulator/pods/{id}/load`): what its
 * `runtime` reports while RUNNING, walked on a frozen clock. Pods are RUNNING 5000 ms after their
 * create (provisioning 2000 ms, starting 3000 ms).
 */
import { describe, expect, it } from "vitest";
import { frozenEmulator, frozenEmulatorForAllTests } from "../support/emulator.js";
import { http, raw } from "../support/http.js";
import { APP_POD, HISTORY_PODS } from "../support/seed-facts.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const h = frozenEmulatorForAllTests({ reset: true });
const c = http(h);

type Body = Record<string, unknown>;
const createPod = (over: Body = {}) => c.ok(c.post("base", "/v2/pods", { ...APP_POD, ...over }));
const runtimeOf = async (id: string) => (await c.ok(c.get("base", `/v2/pods/${id}`))).runtime;
/** The utilization fields of `runtime` (uptime and ports left out), or null. */
const utilization = async (id: string) => {
  const r = await runtimeOf(id);
  return r === null ? null : { gpus: r.gpus, cpu: r.cpu, memory: r.memory };
};
/** Moves the frozen clock to `ms` after the test's start. */
const at = (ms: number) => h.emu.control.advance(h.t0 + ms - h.emu.control.now());
const load = (gpu: number, gpuMemory: number, cpu: number, memory: number, gpus = 1) => ({
  gpus: Array.from({ length: gpus }, () => ({ util: gpu, memoryUtil: gpuMemory })),
  cpu: { util: cpu },
  memory: { util: memory },
});

describe("a pod's runtime utilization", () => {
  it("without a timeline is the constant idle figures, and the control plane reads null", async () => {
    const pod = await createPod();
    at(5000);
    expect([await utilization(pod.id), h.emu.control.podLoad(pod.id)]).toEqual([load(0, 0, 2, 9), null]);
  });

  it("follows the timeline's segments as the clock passes, rounded, and holds on the last", async () => {
    const pod = await createPod();
    at(5000);
    const timeline = h.emu.control.setPodLoad(pod.id, {
      segments: [
        { atMs: 0, gpu: 10, cpu: 5 },
        { atMs: 60_000, gpu: 90.4, gpuMemory: 55.6, cpu: 40, memory: 70.5 },
        { atMs: 120_000, gpu: 0, gpuMemory: 0, cpu: 85, memory: 30 },
      ],
    });
    expect(timeline.startsAt).toBe(h.t0 + 5000);
    const seen = [];
    for (const offset of [0, 59_999, 60_000, 119_999, 120_000, 7 * DAY]) {
      at(5000 + offset);
      seen.push([offset, await utilization(pod.id)]);
    }
    expect(seen).toEqual([
      [0, load(10, 0, 5, 9)],
      [59_999, load(10, 0, 5, 9)],
      [60_000, load(90, 56, 40, 71)],
      [119_999, load(90, 56, 40, 71)],
      [120_000, load(0, 0, 85, 30)],
      [7 * DAY, load(0, 0, 85, 30)],
    ]);
  });

  it("starts over every repeatEveryMs: busy 8 hours of each day, idle the rest", async () => {
    const pod = await createPod();
    at(5000);
    h.emu.control.setPodLoad(pod.id, {
      segments: [
        { atMs: 0, gpu: 95, cpu: 30 },
        { atMs: 8 * HOUR, gpu: 0, cpu: 1 },
      ],
      repeatEveryMs: DAY,
    });
    const seen = [];
    for (const offset of [8 * HOUR - 1, 8 * HOUR, DAY - 1, DAY, DAY + 8 * HOUR, 6 * DAY + 7 * HOUR]) {
      at(5000 + offset);
      seen.push([offset, (await utilization(pod.id))?.gpus[0]?.util]);
    }
    expect(seen).toEqual([
      [8 * HOUR - 1, 95],
      [8 * HOUR, 0],
      [DAY - 1, 0],
      [DAY, 95],
      [DAY + 8 * HOUR, 0],
      [6 * DAY + 7 * HOUR, 95],
    ]);
  });

  it("reports the idle figures before an explicit startsAt, then the timeline from it", async () => {
    const pod = await createPod();
    at(5000);
    h.emu.control.setPodLoad(pod.id, { segments: [{ atMs: 0, gpu: 70, cpu: 20 }], startsAt: h.t0 + HOUR });
    at(HOUR - 1);
    const before = await utilization(pod.id);
    at(HOUR);
    expect([before, await utilization(pod.id)]).toEqual([load(0, 0, 2, 9), load(70, 0, 20, 9)]);
  });

  it("is the same for every GPU of a 2-GPU pod", async () => {
    const pod = await createPod({ gpu: { id: "NVIDIA A40", count: 2 } });
    h.emu.control.setPodLoad(pod.id, {
      segments: [{ atMs: 0, gpu: 64, gpuMemory: 48, cpu: 12, memory: 33 }],
    });
    at(5000);
    expect(await utilization(pod.id)).toEqual(load(64, 48, 12, 33, 2));
  });

  it("is null while EXITED, and the timeline still applies after a start", async () => {
    const pod = await createPod();
    h.emu.control.setPodLoad(pod.id, {
      segments: [
        { atMs: 0, gpu: 80, cpu: 25 },
        { atMs: HOUR, gpu: 3, cpu: 60 },
      ],
    });
    at(5000);
    await c.ok(c.post("base", `/v2/pods/${pod.id}/action`, { action: "stop" }));
    at(HOUR);
    const stopped = await runtimeOf(pod.id);
    await c.ok(c.post("base", `/v2/pods/${pod.id}/action`, { action: "start" }));
    at(HOUR + 5000);
    expect([stopped, await utilization(pod.id), h.emu.control.podLoad(pod.id)?.startsAt]).toEqual([
      null,
      load(3, 0, 60, 9),
      h.t0,
    ]);
  });

  it("goes back to the idle figures when removed, and a reset drops the timeline with the pod", async () => {
    const trainer = HISTORY_PODS[0] as string;
    h.emu.control.setPodLoad(trainer, { segments: [{ atMs: 0, gpu: 99, cpu: 50 }] });
    const scripted = await utilization(trainer);
    h.emu.control.removePodLoad(trainer);
    const removed = await utilization(trainer);
    h.emu.control.setPodLoad(trainer, { segments: [{ atMs: 0, gpu: 99, cpu: 50 }] });
    h.emu.control.reset();
    expect([scripted, removed, await utilization(trainer), h.emu.control.podLoad(trainer)]).toEqual([
      load(99, 0, 50, 9),
      load(0, 0, 2, 9),
      load(0, 0, 2, 9),
      null,
    ]);
  });
});

describe("PUT|GET|DELETE /__emulator/pods/{id}/load", () => {
  const control = (emuUrl: string, id: string, method: string, body?: unknown) =>
    raw(`${emuUrl}/__emulator/pods/${id}/load`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      key: null,
    });

  it("sets, reads back and removes a timeline; runtime follows it", async () => {
    const { emu } = await frozenEmulator({ control: true });
    try {
      const pod = await http(emu).ok(http(emu).post("base", "/v2/pods", APP_POD));
      emu.control.advance(5000);
      const body = {
        segments: [
          { atMs: 0, gpu: 5, cpu: 90 },
          { atMs: 1000, gpu: 100, gpuMemory: 75, cpu: 10, memory: 40 },
        ],
        repeatEveryMs: 2000,
      };
      const put = await control(emu.baseUrl, pod.id, "PUT", body);
      const timeline = { startsAt: emu.control.now(), ...body };
      emu.control.advance(1500);
      const runtime = (await raw(`${emu.baseUrl}/v2/pods/${pod.id}`)).body.runtime as Body;
      const got = await control(emu.baseUrl, pod.id, "GET");
      const removed = await control(emu.baseUrl, pod.id, "DELETE");
      const unknown = await control(emu.baseUrl, "nosuchpod", "GET");
      expect([
        [put.status, put.body],
        [runtime.gpus, runtime.cpu, runtime.memory],
        [got.status, got.body],
        [removed.status, removed.body],
        [unknown.status, unknown.body.detail],
      ]).toEqual([
        [200, { timeline }],
        [[{ util: 100, memoryUtil: 75 }], { util: 10 }, { util: 40 }],
        [200, { timeline }],
        [200, { timeline: null }],
        [404, "Pod 'nosuchpod' was not found."],
      ]);
    } finally {
      await emu.close();
    }
  });

  it.each<[string, Body, string]>([
    [
      "segments out of order",
      {
        segments: [
          { atMs: 0, gpu: 1, cpu: 1 },
          { atMs: 0, gpu: 2, cpu: 2 },
        ],
      },
      "control plane: segments.1.atMs: must be greater than the previous segment's (0): segments are sorted by atMs",
    ],
    [
      "a first segment after 0",
      { segments: [{ atMs: 10, gpu: 1, cpu: 1 }] },
      "control plane: segments.0.atMs: the first segment must be at 0",
    ],
    [
      "a segment outside the period",
      {
        segments: [
          { atMs: 0, gpu: 1, cpu: 1 },
          { atMs: DAY, gpu: 2, cpu: 2 },
        ],
        repeatEveryMs: DAY,
      },
      `control plane: repeatEveryMs: must be greater than the last segment's atMs (${DAY})`,
    ],
    [
      "a utilization over 100",
      { segments: [{ atMs: 0, gpu: 101, cpu: 1 }] },
      "control plane: segments.0.gpu: Too big: expected number to be <=100",
    ],
    [
      "a segment without cpu",
      { segments: [{ atMs: 0, gpu: 1 }] },
      "control plane: segments.0.cpu: Invalid input: expected number, received undefined",
    ],
    ["no segments", { segments: [] }, "control plane: segments: Too small: expected array to have >=1 items"],
    [
      "an unknown field",
      { segments: [{ atMs: 0, gpu: 1, cpu: 1, disk: 3 }] },
      'control plane: segments.0: Unrecognized key: "disk"',
    ],
  ])("answers 400 naming the field for %s", async (_, body, detail) => {
    const { emu } = await frozenEmulator({ control: true });
    try {
      const pod = await http(emu).ok(http(emu).post("base", "/v2/pods", APP_POD));
      const res = await control(emu.baseUrl, pod.id, "PUT", body);
      expect([res.status, res.body.detail, emu.control.podLoad(pod.id)]).toEqual([400, detail, null]);
    } finally {
      await emu.close();
    }
  });
});
