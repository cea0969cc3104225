/** `check` for Pod: a row per field and rule; each failure names the property. */
import { describe, expect, it } from "vitest";
import { reviewLib } from "../support/provider.js";
import { jsonBytes, POD_REQUEST_LIMIT, paddedTo } from "../support/seed-facts.js";

const { checkPod, UNKNOWN } = reviewLib;
const A40 = "NVIDIA A40";
const base = { name: "p", image: "img:1", gpu: { id: A40 } };

describe("valid inputs pass", () => {
  it.each([
    ["a minimal GPU pod", base],
    ["a minimal CPU pod", { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 4 } }],
    ["a template without image", { name: "t", templateId: "runpod-torch-v240", gpu: { id: A40 } }],
    [
      "an empty CUDA list with a floor",
      { ...base, gpu: { id: A40, allowedCudaVersions: [], minCudaVersion: "12.2" } },
    ],
    [
      "a network volume on the secure cloud",
      { ...base, cloud: "SECURE", mounts: { network: [{ volumeId: "v", path: "/d" }] } },
    ],
    [
      "a community pod without a network volume",
      { ...base, cloud: "COMMUNITY", mounts: { global: [{ volumeId: "g" }] } },
    ],
    [
      "network and global together",
      { ...base, mounts: { network: [{ volumeId: "v", path: "/d" }], global: [{ volumeId: "g" }] } },
    ],
    ["args matching cmd", { ...base, args: "python a.py", cmd: ["python", "a.py"] }],
    [
      "every provider option",
      {
        ...base,
        locked: true,
        waitFor: "PLACED",
        timeouts: { create: 60, update: 60, delete: 60 },
        onCreateFailure: "keep",
        placement: {
          regions: ["EUROPE"],
          gpuTypeIds: ["NVIDIA L40S"],
          minAvailability: "MEDIUM",
          maxCandidates: 3,
        },
      },
    ],
    ["the __provider key", { ...base, __provider: "exports.handler = ..." }],
    ["an adopted pod without image", { name: "a", gpu: { id: A40 }, adoptId: "abc123" }],
  ])("%s", (_name, inputs) => {
    expect(checkPod(inputs)).toEqual([]);
  });
});

describe("each field and rule", () => {
  it.each([
    [
      "unknown property",
      { ...base, gpuCount: 2 },
      [["gpuCount", "unknown property 'gpuCount'; check the spelling against the documented inputs"]],
    ],
    [
      "unknown gpu property",
      { ...base, gpu: { id: A40, type: "x" } },
      [["gpu.type", "unknown property 'type'; check the spelling against the documented inputs"]],
    ],
    ["name empty", { ...base, name: "" }, [["name", "must not be empty"]]],
    ["name missing", { image: "i", gpu: { id: A40 } }, [["name", "is required"]]],
    ["name not a string", { ...base, name: 5 }, [["name", "must be a string"]]],
    ["image missing", { name: "p", gpu: { id: A40 } }, [["image", "is required unless templateId is set"]]],
    [
      "neither gpu nor cpu",
      { name: "p", image: "i" },
      [["gpu", "exactly one of gpu or cpu must be set (neither is)"]],
    ],
    [
      "both gpu and cpu",
      { ...base, cpu: { id: "cpu3c", vcpuCount: 4 } },
      [["cpu", "exactly one of gpu or cpu must be set (both are)"]],
    ],
    ["gpu.id empty", { ...base, gpu: { id: "" } }, [["gpu.id", "must not be empty"]]],
    ["gpu.count 0", { ...base, gpu: { id: A40, count: 0 } }, [["gpu.count", "must be at least 1"]]],
    ["gpu.count 1.5", { ...base, gpu: { id: A40, count: 1.5 } }, [["gpu.count", "must be an integer"]]],
    [
      "gpu.minRamPerGpu 0",
      { ...base, gpu: { id: A40, minRamPerGpu: 0 } },
      [["gpu.minRamPerGpu", "must be at least 1"]],
    ],
    [
      "gpu.minVcpuCountPerGpu 0",
      { ...base, gpu: { id: A40, minVcpuCountPerGpu: 0 } },
      [["gpu.minVcpuCountPerGpu", "must be at least 1"]],
    ],
    [
      "CUDA floor not major.minor",
      { ...base, gpu: { id: A40, minCudaVersion: "12" } },
      [["gpu.minCudaVersion", "must be a CUDA version as major.minor, e.g. 12.4"]],
    ],
    [
      "CUDA list item not major.minor",
      { ...base, gpu: { id: A40, allowedCudaVersions: ["12.4", "v12"] } },
      [["gpu.allowedCudaVersions[1]", "must be a CUDA version as major.minor, e.g. 12.4"]],
    ],
    [
      "CUDA list and floor",
      { ...base, gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: "12.2" } },
      [
        [
          "gpu.minCudaVersion",
          "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
        ],
      ],
    ],
    [
      "cpu.vcpuCount 1",
      { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 1 } },
      [["cpu.vcpuCount", "must be at least 2"]],
    ],
    [
      "cpu.vcpuCount 6",
      { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 6 } },
      [["cpu.vcpuCount", "must be a power of two (2, 4, 8, ...); got 6"]],
    ],
    [
      "cpu.id empty",
      { name: "c", image: "i", cpu: { id: "", vcpuCount: 4 } },
      [["cpu.id", "must not be empty"]],
    ],
    [
      "cpu.memory sent",
      { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 4, memory: 8 } },
      [["cpu.memory", "unknown property 'memory'; check the spelling against the documented inputs"]],
    ],
    ["disk 0", { ...base, disk: 0 }, [["disk", "must be at least 1"]]],
    [
      "persistent size 9",
      { ...base, mounts: { persistent: { size: 9, path: "/w" } } },
      [["mounts.persistent.size", "must be at least 10"]],
    ],
    [
      "persistent path missing",
      { ...base, mounts: { persistent: { size: 20 } } },
      [["mounts.persistent.path", "is required"]],
    ],
    [
      "two network mounts",
      {
        ...base,
        mounts: {
          network: [
            { volumeId: "a", path: "/a" },
            { volumeId: "b", path: "/b" },
          ],
        },
      },
      [["mounts.network", "must have at most 1 item"]],
    ],
    [
      "two global mounts",
      { ...base, mounts: { global: [{ volumeId: "a" }, { volumeId: "b" }] } },
      [["mounts.global", "must have at most 1 item"]],
    ],
    [
      "network path missing",
      { ...base, mounts: { network: [{ volumeId: "a" }] } },
      [["mounts.network[0].path", "is required"]],
    ],
    [
      "persistent with network",
      { ...base, mounts: { persistent: { size: 20, path: "/w" }, network: [{ volumeId: "a", path: "/a" }] } },
      [
        [
          "mounts.persistent",
          "cannot be combined with mounts.network or mounts.global; use a network volume alone",
        ],
      ],
    ],
    [
      "persistent with global",
      { ...base, mounts: { persistent: { size: 20, path: "/w" }, global: [{ volumeId: "g" }] } },
      [
        [
          "mounts.persistent",
          "cannot be combined with mounts.network or mounts.global; use a network volume alone",
        ],
      ],
    ],
    [
      "persistent on a CPU pod",
      {
        name: "c",
        image: "i",
        cpu: { id: "cpu3c", vcpuCount: 4 },
        mounts: { persistent: { size: 20, path: "/w" } },
      },
      [["mounts.persistent", "is not supported on CPU pods; mount a network volume instead"]],
    ],
    [
      "a network volume on the community cloud",
      { ...base, cloud: "COMMUNITY", mounts: { network: [{ volumeId: "a", path: "/a" }] } },
      [
        [
          "mounts.network",
          "network volumes are available on Secure Cloud only, so a pod with cloud COMMUNITY cannot mount one (the API answers 400)",
        ],
      ],
    ],
    [
      "port without protocol",
      { ...base, ports: ["8888"] },
      [["ports[0]", "must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http"]],
    ],
    [
      "port out of range",
      { ...base, ports: ["70000/tcp"] },
      [["ports[0]", "port number must be between 1 and 65535"]],
    ],
    ["cloud unknown", { ...base, cloud: "PRIVATE" }, [["cloud", 'must be one of "SECURE", "COMMUNITY"']]],
    [
      "args against cmd",
      { ...base, args: "python a.py", cmd: ["python", "b.py"] },
      [
        [
          "args",
          "args and cmd describe different commands; send one of them, or both describing the same command",
        ],
      ],
    ],
    ["env value not a string", { ...base, env: { A: 1 } }, [["env.A", "must be a string"]]],
    ["templateId empty", { ...base, templateId: "" }, [["templateId", "must not be empty"]]],
    [
      "dataCenterIds not a list",
      { ...base, dataCenterIds: "US-TX-3" },
      [["dataCenterIds", "must be an array"]],
    ],
    [
      "waitFor unknown",
      { ...base, waitFor: "READY" },
      [["waitFor", 'must be one of "RUNNING", "PLACED", "NONE"']],
    ],
    ["timeouts.create 0", { ...base, timeouts: { create: 0 } }, [["timeouts.create", "must be at least 1"]]],
    [
      "placement both ways",
      { ...base, placement: { candidates: [{ dataCenterId: "US-TX-3" }], regions: ["EUROPE"] } },
      [
        [
          "placement",
          "give either explicit candidates, or regions/gpuTypeIds to build them from the catalog, not both",
        ],
      ],
    ],
    [
      "placement region unknown",
      { ...base, placement: { regions: ["MOON"] } },
      [["placement.regions[0]", expect.stringMatching(/^must be one of "NORTH_AMERICA"/)]],
    ],
    [
      "an order for explicit candidates",
      { ...base, placement: { candidates: [{ dataCenterId: "US-TX-3" }], order: "price" } },
      [
        [
          "placement.order",
          "orders the candidates built from the catalog; explicit candidates are tried in the order given",
        ],
      ],
    ],
    [
      "an order that is neither",
      { ...base, placement: { order: "cheapest" } },
      [["placement.order", 'must be one of "availability", "price"']],
    ],
    [
      "GPU fallbacks on a CPU pod",
      { name: "c", image: "i", cpu: { id: "cpu3c", vcpuCount: 4 }, placement: { gpuTypeIds: [A40] } },
      [["placement.gpuTypeIds", "is for GPU pods; a CPU pod has no GPU type"]],
    ],
  ])("%s", (_name, inputs, expected) => {
    expect(checkPod(inputs as Record<string, unknown>).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});

describe("preview's unknown values", () => {
  it.each([
    ["an unknown image", { ...base, image: UNKNOWN }],
    ["an unknown gpu", { ...base, gpu: UNKNOWN }],
    ["an unknown GPU id", { ...base, gpu: { id: UNKNOWN, count: 2 } }],
    [
      "an unknown CUDA floor next to a list",
      { ...base, gpu: { id: A40, allowedCudaVersions: ["12.4"], minCudaVersion: UNKNOWN } },
    ],
    ["an unknown port", { ...base, ports: ["22/tcp", UNKNOWN] }],
    ["unknown mounts", { ...base, mounts: UNKNOWN }],
    ["unknown mounts on the community cloud", { ...base, cloud: "COMMUNITY", mounts: UNKNOWN }],
    [
      "a network volume and an unknown cloud",
      { ...base, cloud: UNKNOWN, mounts: { network: [{ volumeId: "v", path: "/d" }] } },
    ],
    ["an unknown network volume id", { ...base, mounts: { network: [{ volumeId: UNKNOWN, path: "/d" }] } }],
    ["an unknown env value", { ...base, env: { TOKEN: UNKNOWN } }],
    ["unknown args with cmd", { ...base, args: UNKNOWN, cmd: ["x"] }],
  ])("%s passes without a failure", (_name, inputs) => {
    expect(checkPod(inputs as Record<string, unknown>)).toEqual([]);
  });

  it("still reports what is known to be wrong next to an unknown value", () => {
    const failures = checkPod({ ...base, image: UNKNOWN, disk: 0 });
    expect(failures).toEqual([{ property: "disk", reason: "must be at least 1" }]);
  });
});

describe("the create body's size (docs/api-model.md, Limits)", () => {
  type Inputs = typeof base & Record<string, unknown> & { env: Record<string, string> };
  /**
   * What the provider sends for `inputs`, written out: the API's fields and the create key in env
   * (32 hex digits); the provider's own options (`waitFor`, `timeouts`) are not sent.
   */
  const sent = ({ waitFor: _w, timeouts: _t, ...body }: Inputs) => ({
    ...body,
    env: { ...body.env, RUNPOD_DYNAMIC_CREATE_KEY: "0123456789abcdef0123456789abcdef" },
  });
  // "é" is two bytes: the limit counts bytes, not characters.
  const sized = (bytes: number, extra: Partial<Inputs> = {}) =>
    paddedTo(
      bytes,
      (pad): Inputs => ({
        ...base,
        waitFor: "PLACED",
        timeouts: { create: 600 },
        ...extra,
        env: { ACCENT: "é", PAD: pad },
      }),
      (inputs) => jsonBytes(sent(inputs)),
    );
  const over = (bytes: number) =>
    `the create body would be ${bytes} bytes as sent (the create key in env included), over the API's 102400-byte limit; reduce env, args or other large values`;

  it.each([
    ["exactly 102400 bytes", POD_REQUEST_LIMIT, {}, []],
    ["102401 bytes", POD_REQUEST_LIMIT + 1, {}, [["env", over(POD_REQUEST_LIMIT + 1), ["pod-request-size"]]]],
    // The template's share is the service's to judge (a 413): the check cannot read the template.
    ["exactly 102400 bytes naming a template", POD_REQUEST_LIMIT, { templateId: "runpod-torch-v240" }, []],
    [
      "102401 bytes naming a template",
      POD_REQUEST_LIMIT + 1,
      { templateId: "runpod-torch-v240" },
      [["env", over(POD_REQUEST_LIMIT + 1), ["pod-request-size"]]],
    ],
  ])("a body of %s", (_name, bytes, extra, expected) => {
    const inputs = sized(bytes, extra);
    const failures = checkPod(inputs).map((f) => [f.property, f.reason, f.rules]);
    expect([jsonBytes(sent(inputs)), failures]).toEqual([bytes, expected]);
  });

  it("names the largest field: args when the command is what is large", () => {
    const inputs = { ...base, args: `python serve.py ${"x".repeat(POD_REQUEST_LIMIT)}` };
    const bytes = jsonBytes({ ...inputs, env: { RUNPOD_DYNAMIC_CREATE_KEY: "0".repeat(32) } });
    expect(checkPod(inputs).map((f) => [f.property, f.reason])).toEqual([["args", over(bytes)]]);
  });
});
