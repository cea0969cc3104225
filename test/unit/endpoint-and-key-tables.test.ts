/** check and diff tables for ServerlessEndpoint, SshKey and ServerlessJob. */
import { describe, expect, it } from "vitest";
import type { ServerlessEndpointOutputs } from "../../provider/resources/serverless-endpoint.js";
import { providerLib } from "../support/provider.js";

const {
  checkServerlessEndpoint,
  diffServerlessEndpoint,
  checkSshKey,
  parsePublicKey,
  checkServerlessJob,
  UNKNOWN,
} = providerLib;
const GPU = ["NVIDIA GeForce RTX 4090"];
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGFjYWJhY2FiYWNhYmFjYWJhY2FiYWNhYmFjYWJhY2Fi me@laptop";

describe("ServerlessEndpoint check", () => {
  it.each([
    ["a GPU endpoint", { name: "e", templateId: "t", gpuTypeIds: GPU }, []],
    ["a CPU endpoint", { name: "e", templateId: "t", computeType: "CPU", cpuFlavorIds: ["cpu3c"] }, []],
    [
      "workersMin over workersMax",
      { name: "e", templateId: "t", gpuTypeIds: GPU, workersMin: 4, workersMax: 2 },
      [["workersMin", "must not exceed workersMax (4 > 2); raise workersMax or lower workersMin"]],
    ],
    [
      "workersMin over the default workersMax",
      { name: "e", templateId: "t", gpuTypeIds: GPU, workersMin: 5 },
      [
        [
          "workersMin",
          "must not exceed workersMax (5 > 3, the default); raise workersMax or lower workersMin",
        ],
      ],
    ],
    [
      "a GPU endpoint without GPU types",
      { name: "e", templateId: "t" },
      [["gpuTypeIds", "a GPU endpoint needs at least one GPU type, in priority order"]],
    ],
    [
      "an empty GPU list",
      { name: "e", templateId: "t", gpuTypeIds: [] },
      [["gpuTypeIds", "a GPU endpoint needs at least one GPU type, in priority order"]],
    ],
    [
      "a CPU endpoint without flavors",
      { name: "e", templateId: "t", computeType: "CPU" },
      [["cpuFlavorIds", "a CPU endpoint needs at least one CPU flavor"]],
    ],
    [
      "GPU fields on a CPU endpoint",
      { name: "e", templateId: "t", computeType: "CPU", cpuFlavorIds: ["cpu3c"], gpuCount: 2 },
      [["gpuCount", "is for GPU endpoints; a CPU endpoint has no GPU"]],
    ],
    [
      "CPU flavors on a GPU endpoint",
      { name: "e", templateId: "t", gpuTypeIds: GPU, cpuFlavorIds: ["cpu3c"] },
      [["cpuFlavorIds", 'is for CPU endpoints; set computeType: "CPU" or remove it']],
    ],
    [
      "idleTimeout 0",
      { name: "e", templateId: "t", gpuTypeIds: GPU, idleTimeout: 0 },
      [["idleTimeout", "must be at least 1"]],
    ],
    [
      "idleTimeout 3601",
      { name: "e", templateId: "t", gpuTypeIds: GPU, idleTimeout: 3601 },
      [["idleTimeout", "must be at most 3600"]],
    ],
    [
      "executionTimeoutMs under 5 s",
      { name: "e", templateId: "t", gpuTypeIds: GPU, executionTimeoutMs: 1000 },
      [["executionTimeoutMs", "must be at least 5000"]],
    ],
    [
      "a negative workersMin",
      { name: "e", templateId: "t", gpuTypeIds: GPU, workersMin: -1 },
      [["workersMin", "must be at least 0"]],
    ],
    ["no templateId", { name: "e", gpuTypeIds: GPU }, [["templateId", "is required"]]],
    ["no name", { templateId: "t", gpuTypeIds: GPU }, [["name", "is required"]]],
    [
      "an unknown field",
      { name: "e", templateId: "t", gpuTypeIds: GPU, workers: 3 },
      [["workers", "unknown property 'workers'; check the spelling against the documented inputs"]],
    ],
    [
      "a bad scaler",
      { name: "e", templateId: "t", gpuTypeIds: GPU, scalerType: "CPU_LOAD" },
      [["scalerType", 'must be one of "QUEUE_DELAY", "REQUEST_COUNT"']],
    ],
    ["an unknown GPU list (preview)", { name: "e", templateId: "t", gpuTypeIds: UNKNOWN }, []],
    ["an unknown compute type (preview)", { name: "e", templateId: "t", computeType: UNKNOWN }, []],
  ])("%s", (_name, inputs, expected) => {
    expect(checkServerlessEndpoint(inputs).map((f) => [f.property, f.reason])).toEqual(expected);
  });
});

describe("ServerlessEndpoint diff", () => {
  const olds = {
    endpointId: "ep1",
    name: "e",
    templateId: "t",
    computeType: "GPU",
    gpuTypeIds: GPU,
    gpuCount: 1,
    cpuFlavorIds: null,
    vcpuCount: null,
    dataCenterIds: ["US-TX-3"],
    allowedCudaVersions: null,
    minCudaVersion: null,
    workersMin: 0,
    workersMax: 3,
    idleTimeout: 5,
    executionTimeoutMs: 600000,
    flashboot: false,
    scalerType: "QUEUE_DELAY",
    scalerValue: 4,
    networkVolumeId: null,
    networkVolumeIds: null,
    env: { A: "1" },
    version: 1,
    createdAt: "2026-11-21T00:00:00Z",
    jobUrl: "http://x/v2/ep1/",
  } as ServerlessEndpointOutputs;
  const news = { name: "e", templateId: "t", gpuTypeIds: GPU, env: { A: "1" } };
  it.each([
    ["nothing", {}, [], [], []],
    ["API defaults left out", { workersMax: undefined }, [], [], []],
    ["name", { name: "e2" }, [], ["name"], []],
    ["template", { templateId: "t2" }, [], ["templateId"], []],
    ["GPU types", { gpuTypeIds: ["NVIDIA L40S"] }, [], ["gpuTypeIds"], ["gpuTypeIds"]],
    [
      "workers",
      { workersMin: 1, workersMax: 5 },
      [],
      ["workersMin", "workersMax"],
      ["workersMin", "workersMax"],
    ],
    ["idle timeout", { idleTimeout: 60 }, [], ["idleTimeout"], []],
    ["env", { env: { A: "2" } }, [], ["env"], []],
    ["flashboot", { flashboot: true }, [], ["flashboot"], []],
    [
      "compute type",
      { computeType: "CPU", cpuFlavorIds: ["cpu3c"], gpuTypeIds: undefined },
      ["computeType"],
      ["cpuFlavorIds"],
      [],
    ],
    ["an unknown template (preview)", { templateId: UNKNOWN }, [], ["templateId"], []],
  ])("%s", (_name, change, replaces, updates, restarts) => {
    const d = diffServerlessEndpoint(olds, { ...news, ...change } as never);
    expect([d.replaces, d.updates, d.restartsWorkers]).toEqual([replaces, updates, restarts]);
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
