/** check and diff tables for ServerlessEndpoint, Registry, Cluster, SshKey and ServerlessJob. */
import { describe, expect, it } from "vitest";
import type { ServerlessEndpointOutputs } from "../../provider/resources/serverless-endpoint/types.js";
import { loadDist } from "../support/dist.js";
import { reviewLib } from "../support/provider.js";

const { credentialsDigest, diffRegistry } = loadDist<
  typeof import("../../provider/resources/registry/diff.js")
>("provider/resources/registry/diff.js");
const { checkServerlessEndpoint, UNKNOWN } = reviewLib;
const { checkCluster } = loadDist<typeof import("../../provider/resources/cluster/check.js")>(
  "provider/resources/cluster/check.js",
);
const { diffCluster } = loadDist<typeof import("../../provider/resources/cluster/diff.js")>(
  "provider/resources/cluster/diff.js",
);
const { checkRegistry } = loadDist<typeof import("../../provider/resources/registry/check.js")>(
  "provider/resources/registry/check.js",
);
const { diffServerlessEndpoint } = loadDist<
  typeof import("../../provider/resources/serverless-endpoint/diff.js")
>("provider/resources/serverless-endpoint/diff.js");
const { checkSshKey, parsePublicKey } = loadDist<typeof import("../../provider/resources/ssh-key/check.js")>(
  "provider/resources/ssh-key/check.js",
);
const { checkServerlessJob } = loadDist<typeof import("../../provider/resources/serverless-job/check.js")>(
  "provider/resources/serverless-job/check.js",
);
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFjYWJhY2FiYWNhYmFjYWJhY2FiYWNhYmFjYWJhY2Fi me@laptop";

const POOLS = { pools: ["ADA_24"] };
const base = { name: "e", image: "worker:1", gpu: POOLS };

describe("ServerlessEndpoint check", () => {
  it.each([
    ["a GPU endpoint from an image", base, []],
    ["a GPU endpoint from a template", { name: "e", templateId: "t", gpu: POOLS }, []],
    ["a CPU endpoint", { name: "e", image: "worker:1", cpu: [{ id: "cpu3c", vcpuCount: 4 }] }, []],
    [
      "a load balancer scaling on requests",
      { ...base, type: "LOAD_BALANCER", scaling: { type: "REQUEST_COUNT", requestCount: 2 } },
      [],
    ],
    [
      "workers.min over workers.max",
      { ...base, workers: { min: 4, max: 2 } },
      [["workers.min", "must not exceed workers.max (4 > 2); raise workers.max or lower workers.min"]],
    ],
    [
      "workers.min over the default workers.max",
      { ...base, workers: { min: 5 } },
      [
        [
          "workers.min",
          "must not exceed workers.max (5 > 3, the default); raise workers.max or lower workers.min",
        ],
      ],
    ],
    [
      "no compute",
      { name: "e", image: "worker:1" },
      [
        [
          "gpu",
          "an endpoint needs compute: gpu.pools (serverless GPU pools, in order) or cpu (flavor and vCPU pairs)",
        ],
      ],
    ],
    [
      "both compute families",
      { ...base, cpu: [{ id: "cpu3c", vcpuCount: 4 }] },
      [["cpu", "exactly one of gpu and cpu may be set (both are)"]],
    ],
    ["an empty pool list", { ...base, gpu: { pools: [] } }, [["gpu.pools", "must have at least 1 item"]]],
    [
      "no image and no template",
      { name: "e", gpu: POOLS },
      [["image", "is required unless templateId is set"]],
    ],
    [
      "a CUDA list with a floor",
      { ...base, gpu: { pools: ["ADA_24"], allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } },
      [
        [
          "gpu.minCudaVersion",
          "cannot be combined with a non-empty gpu.allowedCudaVersions (the API answers 400); use one of them",
        ],
      ],
    ],
    [
      "a vCPU count that is no power of two",
      { name: "e", image: "worker:1", cpu: [{ id: "cpu3c", vcpuCount: 6 }] },
      [["cpu[0].vcpuCount", "must be a power of two (2, 4, 8, ...); got 6"]],
    ],
    [
      "a repeated CPU configuration",
      {
        name: "e",
        image: "w:1",
        cpu: [
          { id: "cpu3c", vcpuCount: 4 },
          { id: "cpu3c", vcpuCount: 4 },
        ],
      },
      [["cpu[1]", "repeats cpu3c/4; each configuration may appear once"]],
    ],
    [
      "a load balancer scaling on queue delay",
      { ...base, type: "LOAD_BALANCER", scaling: { type: "QUEUE_DELAY", queueDelay: 4 } },
      [["scaling", "a LOAD_BALANCER endpoint scales on REQUEST_COUNT; QUEUE_DELAY needs a queue"]],
    ],
    [
      "an idle timeout with request-count scaling on a queue",
      { ...base, scaling: { type: "REQUEST_COUNT", requestCount: 2 }, workers: { idleTimeout: 30 } },
      [
        [
          "workers.idleTimeout",
          "does not apply to a QUEUE endpoint scaling on REQUEST_COUNT (the API answers 400)",
        ],
      ],
    ],
    [
      "idleTimeout 3601",
      { ...base, workers: { idleTimeout: 3601 } },
      [["workers.idleTimeout", "must be at most 3600"]],
    ],
    ["timeout under 5 s", { ...base, timeout: 1000 }, [["timeout", "must be at least 5000"]]],
    ["a negative workers.min", { ...base, workers: { min: -1 } }, [["workers.min", "must be at least 0"]]],
    ["no name", { image: "worker:1", gpu: POOLS }, [["name", "is required"]]],
    [
      "a v1 field",
      { ...base, gpuTypeIds: ["NVIDIA L4"] },
      [["gpuTypeIds", "unknown property 'gpuTypeIds'; check the spelling against the documented inputs"]],
    ],
    [
      "a bad flashboot mode",
      { ...base, flashboot: "ON" },
      [["flashboot", 'must be one of "OFF", "FLASHBOOT", "PRIORITY_FLASHBOOT"']],
    ],
    ["unknown pools (preview)", { ...base, gpu: { pools: UNKNOWN } }, []],
    ["an unknown type (preview)", { ...base, type: UNKNOWN }, []],
  ])("%s", (_name, inputs, expected) => {
    expect(checkServerlessEndpoint(inputs).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});

describe("ServerlessEndpoint diff", () => {
  const olds = {
    endpointId: "ep1",
    name: "e",
    type: "QUEUE",
    templateId: null,
    image: "worker:1",
    args: "",
    disk: 20,
    ports: [],
    env: { A: "1" },
    registry: null,
    gpu: { pools: ["ADA_24"], excludedTypes: [], count: 1, allowedCudaVersions: [], minCudaVersion: null },
    cpu: null,
    workers: { min: 0, max: 3, idleTimeout: 5 },
    scaling: { type: "QUEUE_DELAY", queueDelay: 4, requestCount: null },
    flashboot: "OFF",
    networkVolumes: [],
    dataCenterIds: ["US-TX-3"],
    timeout: 300000,
    createdAt: "2026-11-21T00:00:00Z",
    requestUrls: {},
    jobUrl: "http://x/v2/ep1/",
  } as ServerlessEndpointOutputs;
  const news = { name: "e", image: "worker:1", gpu: { pools: ["ADA_24"] }, env: { A: "1" } };
  it.each([
    ["nothing", {}, [], [], []],
    ["API defaults left out", { workers: undefined, scaling: undefined }, [], [], []],
    ["the defaults written out", { type: "QUEUE", gpu: { pools: ["ADA_24"], count: 1 } }, [], [], []],
    ["name", { name: "e2" }, [], ["name"], []],
    ["image", { image: "worker:2" }, [], ["image"], []],
    ["template", { templateId: "t2" }, [], ["templateId"], []],
    ["pools", { gpu: { pools: ["ADA_24", "ADA_48_PRO"] } }, [], ["gpu.pools"], ["gpu.pools"]],
    [
      "excluded types",
      { gpu: { pools: ["ADA_24"], excludedTypes: ["NVIDIA L4"] } },
      [],
      ["gpu.excludedTypes"],
      ["gpu.excludedTypes"],
    ],
    ["GPUs per worker", { gpu: { pools: ["ADA_24"], count: 2 } }, [], ["gpu.count"], ["gpu.count"]],
    [
      "workers",
      { workers: { min: 1, max: 5 } },
      [],
      ["workers.min", "workers.max"],
      ["workers.min", "workers.max"],
    ],
    ["idle timeout", { workers: { idleTimeout: 60 } }, [], ["workers.idleTimeout"], []],
    ["scaling", { scaling: { type: "QUEUE_DELAY", queueDelay: 8 } }, [], ["scaling"], []],
    ["env", { env: { A: "2" } }, [], ["env"], []],
    ["flashboot", { flashboot: "FLASHBOOT" }, [], ["flashboot"], []],
    ["the endpoint type", { type: "LOAD_BALANCER" }, ["type"], [], []],
    ["the compute family", { gpu: undefined, cpu: [{ id: "cpu3c", vcpuCount: 4 }] }, ["cpu"], [], []],
    ["unknown pools (preview)", { gpu: { pools: UNKNOWN } }, [], ["gpu.pools"], ["gpu.pools"]],
    ["an unknown image (preview)", { image: UNKNOWN }, [], ["image"], []],
  ])("%s", (_name, change, replaces, updates, restarts) => {
    const d = diffServerlessEndpoint(olds, { ...news, ...change } as never);
    expect([d.replaces, d.updates, d.restartsWorkers]).toEqual([replaces, updates, restarts]);
  });

  // Outputs written by the REST v1 code, before the move to /v2/serverless.
  const v1 = {
    endpointId: "ep1",
    name: "e",
    templateId: "t",
    computeType: "GPU",
    gpuTypeIds: ["NVIDIA A40"],
    gpuCount: 1,
    workersMin: 0,
    workersMax: 2,
    idleTimeout: 60,
    executionTimeoutMs: 300000,
    flashboot: true,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    networkVolumeId: null,
    networkVolumeIds: [],
    env: { A: "1" },
  };
  it.each([
    [
      "the same endpoint in v2 names: only the pools are news",
      {
        name: "e",
        templateId: "t",
        gpu: { pools: ["ADA_48_PRO"] },
        workers: { min: 0, max: 2, idleTimeout: 60 },
        timeout: 300000,
        flashboot: "FLASHBOOT",
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        env: { A: "1" },
      },
      [],
      ["gpu.pools"],
    ],
    [
      "more workers",
      { name: "e", templateId: "t", gpu: { pools: ["ADA_48_PRO"] }, workers: { max: 5 }, env: { A: "1" } },
      [],
      ["gpu.pools", "workers.max"],
    ],
    [
      "a CPU endpoint now",
      { name: "e", templateId: "t", cpu: [{ id: "cpu3c", vcpuCount: 4 }], env: { A: "1" } },
      ["cpu"],
      [],
    ],
  ])("state written by the v1 code: %s", (_name, inputs, replaces, updates) => {
    const d = diffServerlessEndpoint(v1 as never, inputs as never);
    expect([d.replaces, d.updates]).toEqual([replaces, updates]);
  });
});

describe("Registry diff", () => {
  const salt = "00ff";
  const olds = {
    registryId: "reg1",
    name: "ghcr",
    credentialsSalt: salt,
    credentialsDigest: credentialsDigest("bot", "s3cret", salt),
  };
  it.each([
    ["nothing", { name: "ghcr", username: "bot", password: "s3cret" }, []],
    ["a new password", { name: "ghcr", username: "bot", password: "rotated" }, ["credentials"]],
    ["a new username", { name: "ghcr", username: "other", password: "s3cret" }, ["credentials"]],
    ["a new name", { name: "ghcr-2", username: "bot", password: "s3cret" }, ["name"]],
    ["an unknown password (preview)", { name: "ghcr", username: "bot", password: UNKNOWN }, ["credentials"]],
  ])("%s", (_name, news, replaces) => {
    expect(diffRegistry(olds, news)).toEqual({ replaces, updates: [] });
  });

  it("keeps neither the password nor the username in its outputs, only a salted digest", () => {
    expect([olds.credentialsDigest.length, olds.credentialsDigest.includes("s3cret")]).toEqual([64, false]);
  });
});

describe("Registry and Cluster check", () => {
  it.each([
    ["registry credentials", checkRegistry, { name: "r", username: "u", password: "p" }, []],
    [
      "a registry without a password",
      checkRegistry,
      { name: "r", username: "u" },
      [["password", "is required"]],
    ],
    [
      "a cluster",
      checkCluster,
      {
        name: "c",
        type: "TRAINING",
        compute: { gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCountPerPod: 8, podCount: 2 },
        image: "i:1",
      },
      [],
    ],
    [
      "a one-pod cluster",
      checkCluster,
      {
        name: "c",
        type: "TRAINING",
        compute: { gpuTypeId: "g", gpuCountPerPod: 1, podCount: 1 },
        image: "i:1",
      },
      [["compute.podCount", "must be at least 2"]],
    ],
    [
      "a cluster without image or template",
      checkCluster,
      { name: "c", type: "RAY", compute: { gpuTypeId: "g", gpuCountPerPod: 1, podCount: 2 } },
      [["image", "is required unless templateId is set"]],
    ],
    [
      "a cluster with a private registry",
      checkCluster,
      {
        name: "c",
        type: "RAY",
        compute: { gpuTypeId: "g", gpuCountPerPod: 1, podCount: 2 },
        image: "i",
        registry: "r",
      },
      [["registry", "unknown property 'registry'; check the spelling against the documented inputs"]],
    ],
  ])("%s", (_name, check, inputs, expected) => {
    expect(
      (check as (i: unknown) => { property: string; reason: string }[])(inputs).map((f) => [
        f.property,
        f.reason,
      ]),
    ).toEqual(expected);
  });
});

describe("Cluster diff", () => {
  const olds = {
    clusterId: "c1",
    name: "c",
    type: "TRAINING",
    compute: { gpuTypeId: "g", gpuCountPerPod: 8, podCount: 2 },
    templateId: null,
    image: "i:1",
    env: {},
  };
  const news = {
    name: "c",
    type: "TRAINING",
    compute: { gpuTypeId: "g", gpuCountPerPod: 8, podCount: 2 },
    image: "i:1",
  };
  it.each([
    ["nothing", {}, [], []],
    ["a rename", { name: "c2" }, [], ["name"]],
    ["more pods", { compute: { gpuTypeId: "g", gpuCountPerPod: 8, podCount: 4 } }, ["compute"], []],
    ["another type", { type: "RAY" }, ["type"], []],
    ["env", { env: { A: "1" } }, ["env"], []],
    ["timeouts only", { timeouts: { create: 60 } }, [], []],
  ])("%s", (_name, change, replaces, updates) => {
    expect(diffCluster(olds as never, { ...news, ...change } as never)).toEqual({ replaces, updates });
  });
});

describe("SshKey check and parsing", () => {
  it.each([
    ["an ed25519 key", { publicKey: ED25519 }, []],
    ["a key with a trailing newline", { publicKey: `${ED25519}\n` }, []],
    [
      "an ecdsa key without comment",
      { publicKey: "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=" },
      [],
    ],
    [
      "a private key",
      {
        publicKey:
          "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
      },
      [
        [
          "publicKey",
          "looks like a PRIVATE key; never put it in a program or state. Give the public half instead (the .pub file)",
        ],
      ],
    ],
    [
      "garbage",
      { publicKey: "hello world" },
      [
        [
          "publicKey",
          "must be one authorized_keys line: <type> <base64-key> [comment], e.g. ssh-ed25519 AAAAC3... you@host",
        ],
      ],
    ],
    [
      "two lines",
      { publicKey: `${ED25519}\n${ED25519}` },
      [
        [
          "publicKey",
          "must be one authorized_keys line: <type> <base64-key> [comment], e.g. ssh-ed25519 AAAAC3... you@host",
        ],
      ],
    ],
    [
      "bad base64",
      { publicKey: "ssh-ed25519 not*base64 me" },
      [
        [
          "publicKey",
          "must be one authorized_keys line: <type> <base64-key> [comment], e.g. ssh-ed25519 AAAAC3... you@host",
        ],
      ],
    ],
    [
      "missing",
      {},
      [["publicKey", "is required: an authorized_keys line such as the contents of ~/.ssh/id_ed25519.pub"]],
    ],
    [
      "an extra property",
      { publicKey: ED25519, name: "x" },
      [["name", "unknown property 'name'; SshKey takes only publicKey"]],
    ],
    ["unknown (preview)", { publicKey: UNKNOWN }, []],
  ])("%s", (_name, inputs, expected) => {
    expect(checkSshKey(inputs).map((f) => [f.property, f.reason])).toEqual(expected);
  });

  it("fingerprints like ssh-keygen -l (SHA256 of the key blob, base64 without padding)", () => {
    expect(parsePublicKey(ED25519)).toEqual({
      line: ED25519,
      type: "ssh-ed25519",
      blob: "AAAAC3NzaC1lZDI1NTE5AAAAIGFjYWJhY2FiYWNhYmFjYWJhY2FiYWNhYmFjYWJhY2Fi",
      comment: "me@laptop",
      fingerprint: "SHA256:VHd3xrWnqBL/w4Emceb1KQuwIHgzBK3nE6rN/nnXOaE", // ssh-keygen -lf prints this
    });
  });
});

describe("ServerlessJob check", () => {
  it.each([
    ["a job", { endpointId: "ep", input: { prompt: "x" } }, []],
    ["no input", { endpointId: "ep" }, [["input", "is required"]]],
    [
      "a bad mode",
      { endpointId: "ep", input: {}, mode: "later" },
      [["mode", 'must be one of "sync", "async"']],
    ],
  ])("%s", (_name, inputs, expected) => {
    expect(checkServerlessJob(inputs).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});
