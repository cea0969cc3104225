/** check and diff tables for NetworkVolume and Template. */
import { describe, expect, it } from "vitest";
import type {
  NetworkVolumeInputs,
  NetworkVolumeOutputs,
} from "../../provider/resources/network-volume/types.js";
import type { TemplateInputs, TemplateOutputs } from "../../provider/resources/template/types.js";
import { loadDist } from "../support/dist.js";
import { reviewLib } from "../support/provider.js";

const { UNKNOWN } = reviewLib;
const { checkNetworkVolume } = loadDist<typeof import("../../provider/resources/network-volume/check.js")>(
  "provider/resources/network-volume/check.js",
);
const { diffNetworkVolume } = loadDist<typeof import("../../provider/resources/network-volume/diff.js")>(
  "provider/resources/network-volume/diff.js",
);
const { checkTemplate } = loadDist<typeof import("../../provider/resources/template/check.js")>(
  "provider/resources/template/check.js",
);
const { diffTemplate } = loadDist<typeof import("../../provider/resources/template/diff.js")>(
  "provider/resources/template/diff.js",
);

const SHRINK_FROM_100 =
  "can only grow: the volume has 100 GB and network volume storage cannot be reduced (the API answers 400). Keep size at 100 or more, or create a new NetworkVolume and copy the data";

describe("NetworkVolume check", () => {
  const ok = { name: "data", size: 100, dataCenterId: "EU-RO-1" };
  const old = { ...ok, type: "STANDARD" };
  it.each([
    ["a volume", ok, {}, []],
    ["with a type and adoptId", { ...ok, type: "HIGH_PERFORMANCE", adoptId: "v1" }, {}, []],
    ["the host's __provider is not an input", { ...ok, __provider: "code" }, {}, []],
    ["9 GB", { ...ok, size: 9 }, {}, [["size", "must be at least 10"]]],
    ["4097 GB", { ...ok, size: 4097 }, {}, [["size", "must be at most 4096"]]],
    ["a fractional size", { ...ok, size: 10.5 }, {}, [["size", "must be an integer"]]],
    ["no data center", { name: "data", size: 100 }, {}, [["dataCenterId", "is required"]]],
    ["an empty name", { ...ok, name: "" }, {}, [["name", "must not be empty"]]],
    ["a bad type", { ...ok, type: "FAST" }, {}, [["type", 'must be one of "STANDARD", "HIGH_PERFORMANCE"']]],
    [
      "the API's field name",
      { ...ok, dataCenter: "EU-RO-1" },
      {},
      [["dataCenter", "unknown property 'dataCenter'; check the spelling against the documented inputs"]],
    ],
    ["growing", { ...ok, size: 200 }, old, []],
    ["the same size", ok, old, []],
    ["shrinking", { ...ok, size: 50 }, old, [["size", SHRINK_FROM_100]]],
    [
      "shrinking with a type newly given",
      { ...ok, size: 50, type: "STANDARD" },
      old,
      [["size", SHRINK_FROM_100]],
    ],
    [
      "shrinking into a new data center (a new volume)",
      { ...ok, size: 50, dataCenterId: "US-KS-2" },
      old,
      [],
    ],
    ["shrinking into a new type (a new volume)", { ...ok, size: 50, type: "HIGH_PERFORMANCE" }, old, []],
    ["shrinking, data center unknown (preview)", { ...ok, size: 50, dataCenterId: UNKNOWN }, old, []],
    ["an unknown size (preview)", { ...ok, size: UNKNOWN }, old, []],
    ["an unknown old size", { ...ok, size: 50 }, { ...old, size: UNKNOWN }, []],
  ])("%s", (_name, news, olds, expected) => {
    expect(checkNetworkVolume(news, olds).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});

describe("NetworkVolume diff", () => {
  const olds: NetworkVolumeOutputs = {
    volumeId: "v1",
    name: "data",
    size: 100,
    dataCenterId: "EU-RO-1",
    type: "STANDARD",
  };
  const news: NetworkVolumeInputs = { name: "data", size: 100, dataCenterId: "EU-RO-1" };
  it.each([
    ["nothing", {}, [], []],
    ["the type it already has", { type: "STANDARD" }, [], []],
    ["adoptId only", { adoptId: "v1" }, [], []],
    ["a larger size", { size: 200 }, [], ["size"]],
    ["a new name", { name: "data2" }, [], ["name"]],
    ["name and size", { name: "data2", size: 150 }, [], ["name", "size"]],
    ["a new data center", { dataCenterId: "US-KS-2" }, ["dataCenterId"], []],
    ["a new type", { type: "HIGH_PERFORMANCE" }, ["type"], []],
    ["data center and size", { dataCenterId: "US-KS-2", size: 50 }, ["dataCenterId"], ["size"]],
    ["an unknown data center", { dataCenterId: UNKNOWN }, ["dataCenterId"], []],
    ["an unknown size", { size: UNKNOWN }, [], ["size"]],
  ])("%s", (_name, change, replaces, updates) => {
    const d = diffNetworkVolume(olds, { ...news, ...change } as NetworkVolumeInputs);
    expect(d).toEqual({ changes: replaces.length + updates.length > 0, replaces, updates });
  });
});

describe("Template check", () => {
  const ok = { name: "t", image: "img:1" };
  it.each([
    ["a template", ok, []],
    [
      "every field",
      {
        ...ok,
        cmd: ["python", "serve.py"],
        disk: 20,
        env: { A: "1" },
        ports: ["8888/http"],
        registry: null,
        mounts: { persistent: { size: 20, path: "/workspace" } },
        allowedCudaVersions: ["12.4"],
        startSsh: false,
        startJupyter: false,
        public: false,
        serverless: false,
        category: "CPU",
        adoptId: "t1",
        __provider: "code",
      },
      [],
    ],
    ["no image", { name: "t" }, [["image", "is required"]]],
    ["an empty image", { ...ok, image: "" }, [["image", "must not be empty"]]],
    [
      "a port without protocol",
      { ...ok, ports: ["8888"] },
      [["ports[0]", "must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http"]],
    ],
    [
      "a bad CUDA version",
      { ...ok, allowedCudaVersions: ["12"] },
      [["allowedCudaVersions[0]", "must be a CUDA version as major.minor, e.g. 12.4"]],
    ],
    [
      "a small persistent mount",
      { ...ok, mounts: { persistent: { size: 5, path: "/w" } } },
      [["mounts.persistent.size", "must be at least 10"]],
    ],
    [
      "a network mount",
      { ...ok, mounts: { network: [{ volumeId: "v", path: "/d" }] } },
      [["mounts.network", "unknown property 'network'; check the spelling against the documented inputs"]],
    ],
    ["a bad category", { ...ok, category: "INTEL" }, [["category", 'must be one of "CPU", "NVIDIA", "AMD"']]],
    [
      "a persistent mount on a serverless template",
      { ...ok, serverless: true, mounts: { persistent: { size: 20, path: "/workspace" } } },
      [
        [
          "mounts.persistent",
          "a serverless template cannot have a persistent mount (the API answers 400); attach a network volume to the endpoint instead (networkVolumeId)",
        ],
      ],
    ],
    [
      "a persistent mount, serverless unknown (preview)",
      { ...ok, serverless: UNKNOWN, mounts: { persistent: { size: 20, path: "/w" } } },
      [],
    ],
    ["serverless, mounts unknown (preview)", { ...ok, serverless: true, mounts: UNKNOWN }, []],
    [
      "args and cmd disagree",
      { ...ok, args: "python a.py", cmd: ["python", "b.py"] },
      [
        [
          "args",
          "args and cmd describe different commands; send one of them, or both describing the same command",
        ],
      ],
    ],
    ["args and cmd agree", { ...ok, args: "python a.py", cmd: ["python", "a.py"] }, []],
    [
      "over the request limit",
      { ...ok, env: { BIG: "x".repeat(102_400) } },
      [
        [
          "env",
          "the template would be 102445 bytes, over the API's 102400-byte request limit that every pod created from it must meet; reduce env or args",
        ],
      ],
    ],
    ["an unknown image (preview)", { ...ok, image: UNKNOWN }, []],
  ])("%s", (_name, inputs, expected) => {
    expect(checkTemplate(inputs).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});

describe("Template diff", () => {
  const olds: TemplateOutputs = {
    templateId: "t1",
    name: "t",
    image: "img:1",
    args: '{"cmd":["python","serve.py"]}',
    cmd: ["python", "serve.py"],
    entrypoint: [],
    disk: 20,
    env: { A: "1" },
    ports: ["8888/http"],
    registry: null,
    mounts: { persistent: { size: 20, path: "/workspace" } },
    allowedCudaVersions: [],
    startSsh: true,
    startJupyter: true,
    public: false,
    serverless: false,
    category: "NVIDIA",
  };
  const news: TemplateInputs = {
    name: "t",
    image: "img:1",
    cmd: ["python", "serve.py"],
    env: { A: "1" },
    mounts: { persistent: { size: 20, path: "/workspace" } },
  };
  it.each([
    ["nothing", {}, [], []],
    [
      "the API defaults spelled out",
      { startSsh: true, startJupyter: true, public: false, serverless: false, category: "NVIDIA" },
      [],
      [],
    ],
    ["the same command as args", { cmd: undefined, args: "python serve.py" }, [], []],
    ["left-out optional fields", { disk: undefined, ports: undefined }, [], []],
    ["adoptId only", { adoptId: "t1" }, [], []],
    ["name", { name: "t2" }, [], ["name"]],
    ["image", { image: "img:2" }, [], ["image"]],
    ["cmd", { cmd: ["python", "other.py"] }, [], ["args"]],
    ["entrypoint", { entrypoint: ["/bin/sh", "-c"] }, [], ["args"]],
    ["disk", { disk: 40 }, [], ["disk"]],
    ["env value", { env: { A: "2" } }, [], ["env"]],
    ["env removed", { env: undefined }, [], ["env"]],
    ["ports", { ports: ["8888/http", "22/tcp"] }, [], ["ports"]],
    ["registry", { registry: "cred-1" }, [], ["registry"]],
    ["CUDA versions", { allowedCudaVersions: ["12.4"] }, [], ["allowedCudaVersions"]],
    ["startSsh off", { startSsh: false }, [], ["startSsh"]],
    ["startJupyter off", { startJupyter: false }, [], ["startJupyter"]],
    ["public", { public: true }, [], ["public"]],
    ["category", { category: "CPU" }, [], ["category"]],
    ["mount path", { mounts: { persistent: { size: 20, path: "/data" } } }, [], ["mounts.persistent"]],
    ["mount size", { mounts: { persistent: { size: 50, path: "/workspace" } } }, [], ["mounts.persistent"]],
    ["mount removed", { mounts: undefined }, ["mounts.persistent"], []],
    ["mount removed, empty mounts", { mounts: {} }, ["mounts.persistent"], []],
    ["mounts unknown (preview)", { mounts: UNKNOWN }, ["mounts.persistent"], []],
    ["serverless", { serverless: true, mounts: undefined }, ["serverless", "mounts.persistent"], []],
    ["serverless unknown (preview)", { serverless: UNKNOWN }, ["serverless"], []],
    ["image unknown (preview)", { image: UNKNOWN }, [], ["image"]],
  ])("%s", (_name, change, replaces, updates) => {
    const d = diffTemplate(olds, { ...news, ...change } as TemplateInputs);
    expect(d).toEqual({ changes: replaces.length + updates.length > 0, replaces, updates });
  });

  const mountless = { ...olds, mounts: { persistent: null } };
  const noMount = { ...news, mounts: undefined };
  it.each([
    ["a mount added", mountless, news, [], ["mounts.persistent"]],
    ["no mount, none asked", mountless, noMount, [], []],
    ["startSsh left out goes back to the API default", { ...olds, startSsh: false }, news, [], ["startSsh"]],
    ["a serverless template back to pods", { ...mountless, serverless: true }, noMount, ["serverless"], []],
  ])("from another state: %s", (_name, old, next, replaces, updates) => {
    const d = diffTemplate(old as TemplateOutputs, next as TemplateInputs);
    expect(d).toEqual({ changes: replaces.length + updates.length > 0, replaces, updates });
  });
});
