import { describe, expect, it } from "vitest";
import { clientLib } from "../support/dist.js";
import {
  type Api,
  emulatorLib,
  frozenEmulatorForEachTest,
  type RunningEmulator,
  rejection,
} from "../support/emulator.js";
import { raw } from "../support/http.js";
import { jsonBytes, POD_REQUEST_LIMIT, paddedTo, WITHOUT_HISTORY_RESOURCES } from "../support/seed-facts.js";

const { ERROR_CODES } = clientLib;
const A40 = "NVIDIA A40";
const H100 = "NVIDIA H100 80GB HBM3";
const A100 = "NVIDIA A100 80GB PCIe";
const NO_CAPACITY =
  "There are no longer any instances available with the requested specifications. Please refresh and try again.";

let emu: RunningEmulator;
let api: Api;
frozenEmulatorForEachTest({ seed: WITHOUT_HISTORY_RESOURCES }, (t) => {
  ({ emu, api } = t);
});

const create = (body: Record<string, unknown>) =>
  raw(`${emu.baseUrl}/v2/pods`, { method: "POST", body: JSON.stringify(body) });
const gpuPod = (extra: Record<string, unknown> = {}) => ({
  name: "p",
  image: "img:1",
  gpu: { id: A40 },
  ...extra,
});

describe("create: closed bodies, types, patterns and minimums answer 422", () => {
  it.each([
    [{ ...gpuPod(), bogus: 1 }, ["$: additional properties 'bogus' not allowed"]],
    [gpuPod({ gpu: { id: A40, extra: true } }), ["$.gpu: additional properties 'extra' not allowed"]],
    [
      { name: "p", image: "i", cpu: { id: "cpu3c", vcpuCount: 4, memory: 8 } },
      ["$.cpu: additional properties 'memory' not allowed"],
    ],
    [
      gpuPod({ mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d", size: 1 }] } }),
      ["$.mounts.network[0]: additional properties 'size' not allowed"],
    ],
    [gpuPod({ disk: 0 }), ["$.disk: expected number >= 1"]],
    [gpuPod({ disk: 1.5 }), ["$.disk: expected int"]],
    [gpuPod({ gpu: { id: A40, count: 0 } }), ["$.gpu.count: expected number >= 1"]],
    [gpuPod({ gpu: { id: A40, minRamPerGpu: 0 } }), ["$.gpu.minRamPerGpu: expected number >= 1"]],
    [gpuPod({ gpu: { id: A40, minVcpuCountPerGpu: 0 } }), ["$.gpu.minVcpuCountPerGpu: expected number >= 1"]],
    [
      gpuPod({ gpu: { id: A40, minCudaVersion: "12" } }),
      ["$.gpu.minCudaVersion: must be a CUDA version as major.minor, e.g. 12.4"],
    ],
    [
      gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.x"] } }),
      ["$.gpu.allowedCudaVersions[0]: must be a CUDA version as major.minor, e.g. 12.4"],
    ],
    [
      { name: "p", image: "i", cpu: { id: "cpu3c", vcpuCount: 1 } },
      ["$.cpu.vcpuCount: expected number >= 2"],
    ],
    [gpuPod({ name: "" }), ["$.name: expected length >= 1"]],
    [
      gpuPod({ mounts: { persistent: { size: 5, path: "/w" } } }),
      ["$.mounts.persistent.size: expected number >= 10"],
    ],
    [
      gpuPod({
        mounts: {
          network: [
            { volumeId: "a", path: "/a" },
            { volumeId: "b", path: "/b" },
          ],
        },
      }),
      ["$.mounts.network: expected length <= 1"],
    ],
    [
      gpuPod({ ports: ["8888"] }),
      ["$.ports[0]: must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http"],
    ],
    [gpuPod({ cloud: "PRIVATE" }), ['$.cloud: expected one of "SECURE", "COMMUNITY"']],
    [
      { name: "p", gpu: { id: A40 } },
      ["$: required property 'image' is missing (it is required unless templateId is set)"],
    ],
  ])("%j", async (body, errors) => {
    const res = await create(body);
    expect([res.status, res.body.errors]).toEqual([422, errors]);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("create: cross-field rules answer 400", () => {
  const COMBINED = "mounts.persistent cannot be combined with mounts.network or mounts.global.";
  const ONE_OF = "Exactly one of gpu or cpu must be set.";
  it.each([
    [
      gpuPod({
        mounts: {
          persistent: { size: 20, path: "/w" },
          network: [{ volumeId: "nv-tx3-datasets", path: "/d" }],
        },
      }),
      /mounts.persistent cannot be combined/,
      COMBINED,
    ],
    [
      gpuPod({ mounts: { persistent: { size: 20, path: "/w" }, global: [{ volumeId: "gv-shared-cache" }] } }),
      /mounts.persistent cannot be combined/,
      COMBINED,
    ],
    [
      gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: "12.2" } }),
      /cannot be combined/,
      "gpu.allowedCudaVersions (non-empty) and gpu.minCudaVersion cannot be combined; use one of them.",
    ],
    [
      {
        name: "p",
        image: "i",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        mounts: { persistent: { size: 20, path: "/w" } },
      },
      /not supported on CPU pods/,
      "mounts.persistent is not supported on CPU pods; use a network volume.",
    ],
    [{ name: "p", image: "i" }, /Exactly one of gpu or cpu/, ONE_OF],
    [
      { name: "p", image: "i", gpu: { id: A40 }, cpu: { id: "cpu3c", vcpuCount: 4 } },
      /Exactly one of gpu or cpu/,
      ONE_OF,
    ],
    [
      { name: "p", image: "i", cpu: { id: "cpu3c", vcpuCount: 6 } },
      /must be a power of two/,
      "cpu.vcpuCount 6 must be a power of two.",
    ],
    [
      { name: "p", image: "i", cpu: { id: "cpu3c", vcpuCount: 64 } },
      /not valid for flavor cpu3c \(2-32\)/,
      "cpu.vcpuCount 64 is not valid for flavor cpu3c (2-32).",
    ],
    [
      { name: "p", image: "i", cpu: { id: "cpu9x", vcpuCount: 4 } },
      /is not a CPU flavor/,
      "cpu.id 'cpu9x' is not a CPU flavor; see GET /v2/catalog/cpus.",
    ],
    [
      gpuPod({ args: "python a.py", cmd: ["python", "b.py"] }),
      /args and cmd describe different commands/,
      "args and cmd describe different commands; send one of them, or both describing the same command",
    ],
    [
      gpuPod({ args: '{"entrypoint":["bash"]}', entrypoint: ["sh"] }),
      /args and entrypoint describe different commands/,
      "args and entrypoint describe different commands; send one of them, or both describing the same command",
    ],
    [
      gpuPod({ gpu: { id: "NVIDIA Q9000" } }),
      /is not a GPU type/,
      "gpu.id 'NVIDIA Q9000' is not a GPU type; see GET /v2/catalog/gpus.",
    ],
    [
      gpuPod({ cloud: "COMMUNITY", mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d" }] } }),
      /network volumes are available on Secure Cloud only/,
      "mounts.network: network volumes are available on Secure Cloud only; a COMMUNITY pod cannot mount one. Create the pod with cloud SECURE, or drop the network volume.",
    ],
    [
      gpuPod({ dataCenterIds: ["MARS-1"] }),
      /'MARS-1' is not a data center/,
      "dataCenterIds: 'MARS-1' is not a data center; see GET /v2/catalog/datacenters.",
    ],
  ])("%j", async (body, detail, exact) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
    expect(res.body.detail).toBe(exact);
  });

  it("checks the command before resolving the template (400 before 404)", async () => {
    const res = await create({
      name: "p",
      templateId: "nope",
      gpu: { id: A40 },
      args: "python a.py",
      cmd: ["python", "b.py"],
    });
    expect([res.status, res.body.detail]).toEqual([
      400,
      "args and cmd describe different commands; send one of them, or both describing the same command",
    ]);
  });

  it("accepts an explicit empty allowedCudaVersions with a floor", async () => {
    const pod = await api.pods.create(
      gpuPod({ gpu: { id: A40, allowedCudaVersions: [], minCudaVersion: "12.2" } }),
    );
    expect(pod.status).toBe("PROVISIONING");
  });

  it("accepts args together with cmd when they describe the same command, and returns both", async () => {
    const pod = await api.pods.create(
      gpuPod({ args: "python 'train it.py' --x", cmd: ["python", "train it.py", "--x"] }),
    );
    expect([pod.args, pod.cmd, pod.entrypoint]).toEqual([
      "python 'train it.py' --x",
      ["python", "train it.py", "--x"],
      [],
    ]);
    const encoded = await api.pods.create(gpuPod({ entrypoint: ["bash", "-lc"], cmd: ["echo hi"] }));
    expect(encoded.args).toBe('{"entrypoint":["bash","-lc"],"cmd":["echo hi"]}');
  });
});

describe("create: templates", () => {
  it("resolves the template, lets the body override it and merges env per key", async () => {
    const pod = await api.pods.create({
      name: "t",
      templateId: "runpod-torch-v240",
      gpu: { id: A40 },
      disk: 50,
      env: { JUPYTER_DIR: "/home", EXTRA: "1" },
    });
    expect({
      image: pod.image,
      disk: pod.disk,
      ports: pod.ports,
      mounts: pod.mounts,
      template: pod.template,
      envKeys: Object.keys(pod.env).sort(),
      dir: pod.env.JUPYTER_DIR,
    }).toEqual({
      image: "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04",
      disk: 50,
      ports: ["8888/http", "22/tcp"],
      mounts: { persistent: { size: 20, path: "/workspace" } },
      template: null,
      envKeys: ["EXTRA", "JUPYTER_DIR", "JUPYTER_PASSWORD"],
      dir: "/home",
    });
  });

  it("lets a body CUDA field replace the template's constraint entirely", async () => {
    // The template allows 12.4/12.6/12.8; EU-SE-1's A100 hosts report 12.2, 12.4 and 12.11.
    const pinned = await api.pods.create({
      name: "t",
      templateId: "runpod-torch-v240",
      gpu: { id: A100 },
      dataCenterIds: ["EU-SE-1"],
    });
    const floor = await api.pods.create({
      name: "t",
      templateId: "runpod-torch-v240",
      gpu: { id: A100, minCudaVersion: "12.10" },
      dataCenterIds: ["EU-SE-1"],
    });
    emu.control.advance(2000);
    expect([(await api.pods.get(pinned.id)).cudaVersion, (await api.pods.get(floor.id)).cudaVersion]).toEqual(
      ["12.4", "12.11"],
    );
  });

  it("makes CPU pods ignore the template's CUDA constraint and persistent mount", async () => {
    const pod = await api.pods.create({
      name: "c",
      templateId: "runpod-torch-v240",
      cpu: { id: "cpu3c", vcpuCount: 4 },
    });
    expect([pod.mounts, pod.cpu?.memory, pod.gpu]).toEqual([{}, 8, undefined]);
  });

  it("answers 404 for an unknown template and 422 for a serverless one", async () => {
    const unknown = await rejection(api.pods.create({ name: "t", templateId: "nope", gpu: { id: A40 } }));
    const serverless = await rejection(
      api.pods.create({ name: "t", templateId: "runpod-worker-sdxl", gpu: { id: A40 } }),
    );
    expect([unknown.status, serverless.status, serverless.errors]).toEqual([
      404,
      422,
      ["$.templateId: template 'runpod-worker-sdxl' is a serverless template and cannot back a pod"],
    ]);
    expect(unknown.detail).toBe("Template 'nope' was not found or is not accessible.");
  });
});

describe("create: the 102400-byte limits (docs/api-model.md, Limits)", () => {
  const LIMIT = POD_REQUEST_LIMIT;
  const tooLarge = (bytes: number) => `The request body is ${bytes} bytes, over the 102400-byte limit.`;
  // "é" is two bytes: the limit counts bytes, not characters.
  const sized = (bytes: number) => paddedTo(bytes, (pad) => gpuPod({ env: { ACCENT: "é", PAD: pad } }));

  it.each([
    ["exactly 102400 bytes", JSON.stringify(sized(LIMIT)), LIMIT, 201, undefined],
    ["102401 bytes", JSON.stringify(sized(LIMIT + 1)), LIMIT + 1, 413, tooLarge(LIMIT + 1)],
    [
      "102400 bytes of JSON and a trailing space",
      `${JSON.stringify(sized(LIMIT))} `,
      LIMIT + 1,
      413,
      tooLarge(LIMIT + 1),
    ],
  ])(
    "a body without a template of %s: its bytes as received, nothing filled in by default",
    async (_name, text, bytes, status, detail) => {
      const res = await raw(`${emu.baseUrl}/v2/pods`, { method: "POST", body: text });
      expect([Buffer.byteLength(text), res.status, res.body.detail]).toEqual([bytes, status, detail]);
    },
  );

  it("refuses a body over the limit before authentication", async () => {
    const res = await raw(`${emu.baseUrl}/v2/pods`, {
      method: "POST",
      body: JSON.stringify(sized(LIMIT + 1)),
      key: null,
    });
    expect([res.status, res.body.title, res.body.detail]).toEqual([
      413,
      "Payload Too Large",
      tooLarge(LIMIT + 1),
    ]);
  });

  // Every container setting a template gives (Templates on create), each different from what a
  // pod would get without it, so that leaving one out or counting a default shows in the size.
  const template = {
    name: "big",
    image: "img:from-template",
    args: "python serve.py",
    disk: 30,
    ports: ["8888/http"],
    env: { T: "t".repeat(60_000), ACCENT: "é" },
    startSsh: false,
    startJupyter: true,
    mounts: { persistent: { size: 20, path: "/workspace" } },
    allowedCudaVersions: ["12.4"],
  };
  const fromTemplate = {
    image: template.image,
    args: template.args,
    disk: template.disk,
    ports: template.ports,
    startSsh: template.startSsh,
    startJupyter: template.startJupyter,
  };
  /** What the limit measures with a template: its settings, the body's fields over them. */
  const expanded = (body: Record<string, unknown> & { env: Record<string, string> }) => ({
    ...fromTemplate,
    ...body,
    env: { ...template.env, ...body.env },
    // A GPU pod takes the template's persistent mount and CUDA versions; a CPU pod neither.
    ...(body.gpu ? { mounts: template.mounts, gpu: { id: A40, allowedCudaVersions: ["12.4"] } } : {}),
  });

  const gpu = { gpu: { id: A40 } };
  const cpu = { cpu: { id: "cpu3c", vcpuCount: 4 } };
  it.each([
    ["a GPU pod", LIMIT, 201, gpu],
    ["a GPU pod", LIMIT + 1, 413, gpu],
    ["a CPU pod", LIMIT, 201, cpu],
    ["a CPU pod", LIMIT + 1, 413, cpu],
  ])("%s whose body and template expand to %i bytes answers %i", async (_name, bytes, status, compute) => {
    const tpl = await api.templates.create(template);
    // The body's ACCENT wins over the template's, and is 3 bytes longer.
    const body = paddedTo(
      bytes,
      (pad) => ({ name: "p", templateId: tpl.id, ...compute, env: { ACCENT: "plain", PAD: pad } }),
      (b) => jsonBytes(expanded(b)),
    );
    const res = await create(body);
    expect([jsonBytes(expanded(body)), jsonBytes(body) < LIMIT / 2, res.status, res.body.detail]).toEqual([
      bytes,
      true,
      status,
      status === 201
        ? undefined
        : `The request expanded with template '${tpl.id}' is ${bytes} bytes, over the 102400-byte limit.`,
    ]);
  });
});

describe("create: size, auth, balance, access and capacity", () => {
  it.each([
    [null, "Missing bearer token in the Authorization header."],
    ["rpa_WRONG_KEY_000", "The API key is invalid or expired."],
  ])("answers 401 for key %s", async (key, detail) => {
    const res = await raw(`${emu.baseUrl}/v2/pods`, { key });
    expect([res.status, res.body.detail]).toEqual([401, detail]);
  });

  it("answers 403 for a key without access to the pool", async () => {
    const limited = (await import("../support/emulator.js")).apiFor(emu, emulatorLib.LIMITED_API_KEY);
    const err = await rejection(
      limited.pods.create(gpuPod({ gpu: { id: H100 }, dataCenterIds: ["US-TX-3"] })),
    );
    const ok = await limited.pods.create(gpuPod());
    expect([err.code, ok.status]).toEqual([ERROR_CODES.FORBIDDEN, "PROVISIONING"]);
  });

  it("answers 402 while the balance is exhausted", async () => {
    emu.control.setSettings({ balanceExhausted: true });
    const err = await rejection(api.pods.create(gpuPod()));
    emu.control.setSettings({ balanceExhausted: false });
    expect([err.code, (await api.pods.create(gpuPod())).status]).toEqual([
      ERROR_CODES.PAYMENT_REQUIRED,
      "PROVISIONING",
    ]);
  });

  it("signals exhausted capacity per (data center, GPU) only through the detail", async () => {
    const err = await rejection(api.pods.create(gpuPod({ dataCenterIds: ["US-TX-3"] }))); // A40 free 0 there
    const elsewhere = await api.pods.create(gpuPod({ dataCenterIds: ["US-KS-2"] }));
    expect([err.status, err.detail, err.errors, elsewhere.dataCenterId]).toEqual([
      400,
      NO_CAPACITY,
      [],
      "US-KS-2",
    ]);
  });

  it("matches allowedCudaVersions exactly: a version no machine reports is a capacity error", async () => {
    const err = await rejection(api.pods.create(gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.9"] } })));
    const ok = await api.pods.create(gpuPod({ gpu: { id: A40, allowedCudaVersions: ["12.2"] } }));
    emu.control.advance(2000);
    expect([err.detail, (await api.pods.get(ok.id)).cudaVersion]).toEqual([NO_CAPACITY, "12.2"]);
  });

  it("compares minCudaVersion numerically (12.11 is above 12.2)", async () => {
    const pod = await api.pods.create(gpuPod({ gpu: { id: A100, minCudaVersion: "12.5" } }));
    emu.control.advance(2000);
    expect([(await api.pods.get(pod.id)).dataCenterId, (await api.pods.get(pod.id)).cudaVersion]).toEqual([
      "EU-SE-1",
      "12.11",
    ]);
  });

  it("applies the per-GPU RAM and vCPU placement filters", async () => {
    const err = await rejection(api.pods.create(gpuPod({ gpu: { id: A40, minRamPerGpu: 51 } })));
    const pod = await api.pods.create(gpuPod({ gpu: { id: A40, count: 2, minVcpuCountPerGpu: 9 } }));
    expect([err.detail, pod.gpu]).toEqual([NO_CAPACITY, { id: A40, count: 2, vcpuCount: 18, memory: 100 }]);
  });

  it("gives exactly the free capacity to concurrent creates, and loses none", async () => {
    emu.control.setCapacity({ dataCenterId: "US-KS-2", gpuTypeId: A40, free: 20 });
    emu.control.setCapacity({ dataCenterId: "EU-RO-1", gpuTypeId: A40, free: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        api.pods.create(gpuPod({ name: `c${i}`, dataCenterIds: ["US-KS-2"] })),
      ),
    );
    const created = results.filter((r) => r.status === "fulfilled").length;
    const pods = await api.pods.list();
    expect([created, pods.length, new Set(pods.map((p) => p.id)).size]).toEqual([20, 20, 20]);
  });
});

describe("lifecycle on the emulator clock", () => {
  it("moves PROVISIONING -> STARTING -> RUNNING with the fields each status implies", async () => {
    const pod = await api.pods.create(gpuPod({ ports: ["22/tcp", "8888/http"] }));
    expect([pod.status, pod.startedAt, pod.cudaVersion, pod.ssh, pod.runtime, pod.actions]).toEqual([
      "PROVISIONING",
      null,
      null,
      { proxy: null, direct: null },
      null,
      ["stop", "terminate"],
    ]);
    emu.control.advance(2000);
    const starting = await api.pods.get(pod.id);
    expect([
      starting.status,
      starting.ssh?.proxy?.host,
      starting.ssh?.direct,
      starting.runtime,
      starting.cudaVersion,
    ]).toEqual(["STARTING", "ssh.runpod.io", null, null, "12.4"]);
    emu.control.advance(3000);
    const running = await api.pods.get(pod.id);
    expect([
      running.status,
      running.actions,
      running.startedAt !== null,
      running.ssh?.direct,
      running.runtime?.ports?.map((p) => [p.private, p.public, p.ip]),
      running.cost,
    ]).toEqual([
      "RUNNING",
      ["stop", "restart", "terminate"],
      true,
      null,
      [
        [22, null, null],
        [8888, null, null],
      ],
      0.44,
    ]);
    expect(running.runtime).toMatchObject({ uptime: 0, gpus: [{ util: 0, memoryUtil: 0 }] });
    // Public addresses come some seconds after RUNNING (settings.portMappingMs at most).
    emu.control.advance(emu.state.settings.portMappingMs);
    const mapped = await api.pods.get(pod.id);
    const ssh = mapped.runtime?.ports?.find((p) => p.private === 22);
    expect([
      mapped.ssh?.direct?.username,
      mapped.ssh?.direct?.host,
      ssh?.ip,
      ssh?.public === mapped.ssh?.direct?.port,
    ]).toEqual(["root", "127.0.0.1", "127.0.0.1", true]);
  });

  it("keeps ssh.direct null without 22/tcp", async () => {
    const pod = await api.pods.create(gpuPod({ ports: ["8888/http"] }));
    emu.control.advance(5000);
    const running = await api.pods.get(pod.id);
    expect([running.status, running.ssh?.direct, running.ssh?.proxy === null]).toEqual([
      "RUNNING",
      null,
      false,
    ]);
  });

  it("stops (cost 0, capacity back), starts and restarts through actions", async () => {
    emu.control.setCapacity({ dataCenterId: "US-KS-2", gpuTypeId: A40, free: 1 });
    const pod = await api.pods.create(gpuPod({ dataCenterIds: ["US-KS-2"] }));
    emu.control.advance(5000);
    const stopped = await api.pods.action(pod.id, "stop");
    expect([stopped?.status, stopped?.cost, stopped?.actions, stopped?.cudaVersion]).toEqual([
      "EXITED",
      0,
      ["start", "terminate"],
      "12.4",
    ]);
    const other = await api.pods.create(gpuPod({ name: "takes-the-gpu", dataCenterIds: ["US-KS-2"] }));
    const noRoom = await rejection(api.pods.action(pod.id, "start"));
    await api.pods.delete(other.id);
    const started = await api.pods.action(pod.id, "start");
    emu.control.advance(5000);
    const restarted = await api.pods.action(pod.id, "restart");
    expect([noRoom.status, noRoom.detail, started?.status, restarted?.status]).toEqual([
      400,
      "There are not enough free GPUs on the host machine to start this pod.",
      "PROVISIONING",
      "STARTING",
    ]);
    const invalid = await rejection(api.pods.action(pod.id, "start"));
    expect([invalid.status, invalid.detail]).toEqual([
      409,
      "Action 'start' is not valid for a pod in status STARTING; valid: stop, terminate.",
    ]);
  });

  it("refuses to stop, restart or terminate a locked pod, and its actions do not list them", async () => {
    const pod = await api.pods.create(gpuPod());
    emu.control.advance(5000);
    const locked = await api.pods.update(pod.id, { locked: true });
    const stop = await rejection(api.pods.action(pod.id, "stop"));
    const restart = await rejection(api.pods.action(pod.id, "restart"));
    const del = await rejection(api.pods.delete(pod.id));
    expect([locked.actions, stop.status, stop.detail, restart.status, del.status, del.detail]).toEqual([
      [],
      409,
      `Pod '${pod.id}' is locked and cannot be stopped; unlock it (PATCH locked=false) first.`,
      409,
      409,
      `Pod '${pod.id}' is locked; unlock it (PATCH locked=false) before terminating it.`,
    ]);
    const unlocked = await api.pods.update(pod.id, { locked: false });
    expect(unlocked.actions).toEqual(["stop", "restart", "terminate"]);
  });

  it("sends a configurable share of pods to ERROR", async () => {
    emu.control.setSettings({ errorShare: 1 });
    const pod = await api.pods.create(gpuPod());
    emu.control.advance(5000);
    const broken = await api.pods.get(pod.id);
    expect([broken.status, broken.actions, broken.runtime]).toEqual(["ERROR", ["start", "terminate"], null]);
  });

  it("forgets a deleted pod at once when the grace period is 0", async () => {
    emu.control.setSettings({ terminatingMs: 0 });
    const pod = await api.pods.create(gpuPod());
    await api.pods.delete(pod.id);
    const gone = await rejection(api.pods.get(pod.id));
    expect([gone.status, gone.detail, (await api.pods.list()).length]).toEqual([
      404,
      `Pod '${pod.id}' was not found.`,
      0,
    ]);
    expect(emu.control.snapshot().pods.filter((p) => p.id === pod.id)).toEqual([]);
  });

  it("deletes: 204, TERMINATED for the grace period, then 404; the list drops it at once", async () => {
    const pod = await api.pods.create(gpuPod());
    await api.pods.delete(pod.id);
    const terminated = await api.pods.get(pod.id);
    const listed = await api.pods.list();
    emu.control.advance(1000);
    const gone = await rejection(api.pods.get(pod.id));
    const again = await rejection(api.pods.delete(pod.id));
    expect([terminated.status, terminated.cost, listed.length, gone.status, again.status]).toEqual([
      "TERMINATED",
      0,
      0,
      404,
      404,
    ]);
  });
});

describe("start time", () => {
  it("reports when the pod last became RUNNING, also when forced out of band, and the snapshot agrees", async () => {
    const pod = await api.pods.create(gpuPod());
    emu.control.advance(5000);
    const running = await api.pods.get(pod.id);
    const ranAt = emu.control.now();
    const snap = () => emu.control.snapshot().pods.find((p) => p.id === pod.id);
    expect([running.startedAt, snap()?.runningAt]).toEqual([new Date(ranAt).toISOString(), ranAt]);
    await api.pods.action(pod.id, "stop");
    emu.control.advance(7000);
    const forced = emu.control.setPodStatus(pod.id, "RUNNING");
    emu.control.advance(3000);
    const later = await api.pods.get(pod.id);
    expect([forced.startedAt, later.startedAt, later.runtime?.uptime, snap()?.runningAt]).toEqual([
      new Date(ranAt + 7000).toISOString(),
      new Date(ranAt + 7000).toISOString(),
      3,
      ranAt + 7000,
    ]);
  });

  it("is null, in the snapshot too, until the pod first runs", async () => {
    const pod = await api.pods.create(gpuPod());
    const snap = emu.control.snapshot().pods.find((p) => p.id === pod.id);
    expect([pod.startedAt, snap?.startedAt, snap?.runningAt]).toEqual([null, null, null]);
  });
});

describe("injected environment", () => {
  it("startSsh injects the registered keys, and has no effect without keys", async () => {
    const before = await api.pods.create(gpuPod({ startSsh: true }));
    const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemo demo@example";
    await api.sshKeys.put([key]);
    const after = await api.pods.create(gpuPod({ startSsh: true }));
    const own = await api.pods.create(gpuPod({ startSsh: true, env: { PUBLIC_KEY: "mine" } }));
    expect([before.env.PUBLIC_KEY, after.env.PUBLIC_KEY, own.env.PUBLIC_KEY]).toEqual([
      undefined,
      key,
      "mine",
    ]);
  });

  it("startJupyter injects a generated JUPYTER_PASSWORD unless set", async () => {
    const gen = await api.pods.create(gpuPod({ startJupyter: true }));
    const set = await api.pods.create(gpuPod({ startJupyter: true, env: { JUPYTER_PASSWORD: "pw" } }));
    expect([gen.env.JUPYTER_PASSWORD?.length, set.env.JUPYTER_PASSWORD]).toEqual([20, "pw"]);
  });
});

describe("PATCH mount rules", () => {
  const withNetwork = () =>
    api.pods.create(
      gpuPod({
        gpu: { id: "NVIDIA H100 80GB HBM3" },
        mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/data" }] },
      }),
    );

  it("places a pod in its network volume's data center, and refuses another one", async () => {
    const pod = await withNetwork();
    const err = await rejection(
      api.pods.create(
        gpuPod({
          dataCenterIds: ["US-KS-2"],
          mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d" }] },
        }),
      ),
    );
    expect([pod.dataCenterId, err.status, err.detail]).toEqual([
      "US-TX-3",
      400,
      "Network volume 'nv-tx3-datasets' is in US-TX-3; the pod must be placed in the same data center.",
    ]);
  });

  it("leaves mounts unchanged for {} and when omitted", async () => {
    const pod = await withNetwork();
    const a = await api.pods.update(pod.id, { mounts: {} });
    const b = await api.pods.update(pod.id, { name: "renamed" });
    expect([a.mounts, b.mounts, b.name]).toEqual([pod.mounts, pod.mounts, "renamed"]);
  });

  it("changes only the path", async () => {
    const pod = await withNetwork();
    const moved = await api.pods.update(pod.id, {
      mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] },
    });
    expect(moved.mounts).toEqual({ network: [{ volumeId: "nv-tx3-datasets", path: "/mnt/data" }] });
  });

  it.each([
    [{ network: [] }, 400, /must not be an empty array/],
    [
      { global: [{ volumeId: "gv-shared-cache" }] },
      400,
      /mounts.global was not present when the pod was created/,
    ],
    [{ network: [{ volumeId: "nv-ro1-models", path: "/data" }] }, 400, /volumeId is immutable/],
  ])("rejects %j", async (mounts, status, detail) => {
    const pod = await withNetwork();
    const res = await raw(`${emu.baseUrl}/v2/pods/${pod.id}`, {
      method: "PATCH",
      body: JSON.stringify({ mounts }),
    });
    expect([res.status, res.body.detail]).toEqual([status, expect.stringMatching(detail)]);
    expect((await api.pods.get(pod.id)).mounts).toEqual(pod.mounts);
  });

  it("rejects a partial entry with 422", async () => {
    const pod = await withNetwork();
    const res = await raw(`${emu.baseUrl}/v2/pods/${pod.id}`, {
      method: "PATCH",
      body: JSON.stringify({ mounts: { network: [{ path: "/x" }] } }),
    });
    expect([res.status, res.body.errors]).toEqual([
      422,
      ["$.mounts.network[0].volumeId: required property is missing"],
    ]);
  });

  it("rejects any mount on a pod created without one", async () => {
    const pod = await api.pods.create(gpuPod());
    const err = await rejection(
      api.pods.update(pod.id, { mounts: { network: [{ volumeId: "nv-tx3-datasets", path: "/d" }] } }),
    );
    expect([err.status, err.detail]).toEqual([
      400,
      "mounts.network was not present when the pod was created; the mount kind is fixed at create.",
    ]);
  });

  it("rejects a persistent size change", async () => {
    const pod = await api.pods.create(gpuPod({ mounts: { persistent: { size: 20, path: "/w" } } }));
    const err = await rejection(
      api.pods.update(pod.id, { mounts: { persistent: { size: 30, path: "/w" } } }),
    );
    expect(err.detail).toBe("mounts.persistent.size cannot change; only the path may be updated.");
  });

  it("restarts a running container when its settings change, not for a rename", async () => {
    const pod = await api.pods.create(gpuPod());
    emu.control.advance(5000);
    const renamed = await api.pods.update(pod.id, { name: "n2" });
    const reimaged = await api.pods.update(pod.id, { image: "img:2" });
    emu.control.advance(3000);
    expect([renamed.status, reimaged.status, (await api.pods.get(pod.id)).status]).toEqual([
      "RUNNING",
      "STARTING",
      "RUNNING",
    ]);
  });

  it("applies globalNetworking at the next start", async () => {
    const pod = await api.pods.create(gpuPod({ gpu: { id: H100 }, dataCenterIds: ["US-TX-3"] }));
    emu.control.advance(5000);
    const patched = await api.pods.update(pod.id, { globalNetworking: true });
    const restarted = await api.pods.action(pod.id, "restart");
    expect([patched.globalNetworking, restarted?.globalNetworking]).toEqual([
      { enabled: false },
      { enabled: true, ip: expect.stringMatching(/^10\./), internalDns: `${pod.id}.runpod.internal` },
    ]);
  });
});

describe("cluster member pods", () => {
  it("come with every seed load: a new state, a seed replacing the clusters, a reset", async () => {
    const clusters = [{ id: "clu-x", gpuTypeId: A100, dataCenterId: "EU-SE-1", members: 3 }];
    const fresh = new emulatorLib.EmulatorState({ seed: { clusters, ...WITHOUT_HISTORY_RESOURCES } });
    const member = (id: string) => api.pods.get(id);
    emu.control.loadSeed({ clusters, ...WITHOUT_HISTORY_RESOURCES });
    const loaded = (await api.pods.list({ includeClusterPods: true })).map((p) => p.id);
    const oldGone = await rejection(member("clu-demo-ray-node0"));
    emu.control.reset(WITHOUT_HISTORY_RESOURCES);
    const reset = (await api.pods.list({ includeClusterPods: true })).map((p) => p.id);
    expect([[...fresh.pods.keys()], loaded, oldGone.status, reset]).toEqual([
      ["clu-x-node0", "clu-x-node1", "clu-x-node2"],
      ["clu-x-node0", "clu-x-node1", "clu-x-node2"],
      404,
      ["clu-demo-ray-node0", "clu-demo-ray-node1"],
    ]);
    expect((await member("clu-demo-ray-node1")).cluster).toEqual({
      id: "clu-demo-ray",
      rank: 1,
      role: "RAY_WORKER",
      ip: "10.65.0.3",
    });
  });

  it("are listed only with includeClusterPods and cannot be changed or deleted", async () => {
    const plain = await api.pods.list();
    const all = await api.pods.list({ includeClusterPods: true });
    const patch = await rejection(api.pods.update("clu-demo-ray-node0", { name: "x" }));
    const del = await rejection(api.pods.delete("clu-demo-ray-node1"));
    expect([plain.length, all.map((p) => p.cluster?.rank), patch.status, del.status]).toEqual([
      0,
      [0, 1],
      409,
      409,
    ]);
  });
});
