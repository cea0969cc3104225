/**
 * `runpod-dynamic serverless create --hub-id ...`: an endpoint running the listing's built image,
 * created with `POST /v2/serverless` (no template), checked in the emulator's state. Seed pools:
 * ADA_24 = RTX 4090 + L4, AMPERE_80 = A100, ADA_80_PRO = H100, AMPERE_48 = A40, ADA_48_PRO = L40S,
 * AMPERE_24 = RTX A5000.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { errorText, pathOf } from "../support/cli.js";
import { cliHarnessForAllTests } from "../support/cli-in-process.js";
import { emulatorLib } from "../support/emulator.js";
import { queueUrls } from "../support/seed-facts.js";

const H100 = "NVIDIA H100 80GB HBM3";
const A100 = "NVIDIA A100 80GB PCIe";
const RTX4090 = "NVIDIA GeForce RTX 4090";
const L4 = "NVIDIA L4";
const QUEUE_DELAY = { type: "QUEUE_DELAY", queueDelay: 4 };

interface Created {
  id: string;
  name: string;
  type: string;
  computeType: string;
  gpuPools: string[];
  excludedGpuTypes: string[];
  gpuTypeIds: string[];
  gpuCount: number | null;
  cpuFlavorIds: string[];
  vcpuCount: number | null;
  image: string;
  containerDiskInGb: number;
  hubListingId: string;
  hubReleaseId: string;
  requestUrls: Record<string, string>;
  jobUrl: string;
}

/** hub-sdxl with its release config replaced: the listings a real hub may also hold. */
function sdxlWithConfig(id: string, config: string) {
  const sdxl = emulatorLib.defaultSeed().hubListings.find((l) => l.id === "hub-sdxl");
  if (!sdxl) throw new Error("the default seed has no hub-sdxl");
  const release = sdxl.listedRelease as Record<string, unknown>;
  return { ...sdxl, id, repoName: id, listedRelease: { ...release, id: `rel-${id}`, config } };
}

const h = cliHarnessForAllTests({
  seed: {
    hubListings: [
      ...emulatorLib.defaultSeed().hubListings,
      sdxlWithConfig("hub-bad-json", "{not json"),
      sdxlWithConfig("hub-bad-disk", JSON.stringify({ containerDiskInGb: "lots", gpuIds: "ADA_24" })),
      sdxlWithConfig("hub-tpu", JSON.stringify({ runsOn: "TPU", gpuIds: "ADA_24" })),
      sdxlWithConfig("hub-no-gpus", JSON.stringify({ runsOn: "GPU", containerDiskInGb: 12 })),
      sdxlWithConfig("hub-b200", JSON.stringify({ gpuIds: "BLACKWELL_180,ADA_24" })),
      sdxlWithConfig("hub-no-config", ""),
    ],
  },
});
beforeEach(() => {
  h.emu.control.clearFaults();
});

const userTemplates = () => [...h.emu.state.templates.values()].filter((t) => t.source === "user");
/** The requests of the last run, each as `METHOD path`: a create sends them all to the base address. */
const routes = () => h.recorder.requests.map((r) => `${r.method} ${pathOf(r.url)}`);
/** `serverless create` from hub listing `hubId` as `name`, then `flags`. */
function create(hubId: string, name: string, ...flags: string[]): string[] {
  return ["serverless", "create", "--hub-id", hubId, "--name", name, ...flags];
}

describe("from the release config", () => {
  it("creates an endpoint from the built image on the config's GPU pools, with no template", async () => {
    const templates = userTemplates().length;
    const created = await h.json<Created>(create("hub-vllm", "my-vllm"));
    // The account's endpoints are listed before the create: one it already has is never taken for
    // an unanswered create's.
    expect(routes()).toEqual([
      "POST /graphql",
      "GET /v2/catalog/gpus",
      "GET /v2/serverless",
      "POST /v2/serverless",
    ]);
    expect(h.recorder.requests[3]?.body).toEqual({
      name: "my-vllm",
      type: "QUEUE",
      scaling: QUEUE_DELAY,
      image: "runpod/worker-v1-vllm:v2.4.0",
      disk: 30,
      env: { MODEL_NAME: "Qwen/Qwen2.5-7B-Instruct", MAX_MODEL_LEN: "8192" },
      gpu: { pools: ["AMPERE_80", "ADA_80_PRO"], count: 1, allowedCudaVersions: ["12.4"] },
    });
    expect(created).toEqual({
      id: expect.any(String),
      name: "my-vllm",
      type: "QUEUE",
      computeType: "GPU",
      gpuPools: ["AMPERE_80", "ADA_80_PRO"],
      excludedGpuTypes: [],
      gpuTypeIds: [A100, H100],
      gpuCount: 1,
      cpuFlavorIds: [],
      vcpuCount: null,
      image: "runpod/worker-v1-vllm:v2.4.0",
      containerDiskInGb: 30,
      hubListingId: "hub-vllm",
      hubReleaseId: "rel-hub-vllm",
      requestUrls: queueUrls(h.emu.serverlessUrl, created.id),
      jobUrl: `${h.recorder.env.RUNPOD_SERVERLESS_URL}/v2/${created.id}/`,
    });
    expect(h.emu.state.endpoints.get(created.id)).toMatchObject({
      name: "my-vllm",
      type: "QUEUE",
      templateId: null,
      compute: {
        kind: "GPU",
        pools: ["AMPERE_80", "ADA_80_PRO"],
        excludedTypes: [],
        count: 1,
        allowedCudaVersions: ["12.4"],
      },
      container: {
        image: "runpod/worker-v1-vllm:v2.4.0",
        disk: 30,
        env: { MODEL_NAME: "Qwen/Qwen2.5-7B-Instruct", MAX_MODEL_LEN: "8192" },
      },
    });
    expect(userTemplates().length).toBe(templates);
  });

  it("takes a pool whole (its GPU types listed), and accepts owner/name for --hub-id", async () => {
    const created = await h.json<Created>(create("runpod-workers/worker-sdxl", "sdxl"));
    expect([created.gpuPools, created.excludedGpuTypes, created.gpuTypeIds]).toEqual([
      ["ADA_24"],
      [],
      [RTX4090, L4],
    ]);
    expect(h.emu.state.endpoints.get(created.id)).toMatchObject({
      compute: { kind: "GPU", pools: ["ADA_24"], excludedTypes: [] },
      container: { image: "runpod/worker-sdxl:3.1.0", disk: 15, env: {} },
    });
  });

  it("a CPU listing gets a CPU endpoint without reading the GPU catalog", async () => {
    const created = await h.json<Created>(create("hub-cpu-tts", "tts"));
    expect(routes()).toEqual(["POST /graphql", "GET /v2/serverless", "POST /v2/serverless"]);
    expect(h.recorder.requests[2]?.body).toMatchObject({ cpu: [{ id: "cpu3g", vcpuCount: 4 }], disk: 5 });
    expect([
      created.computeType,
      created.gpuPools,
      created.gpuTypeIds,
      created.gpuCount,
      created.cpuFlavorIds,
      created.vcpuCount,
      created.containerDiskInGb,
    ]).toEqual(["CPU", [], [], null, ["cpu3g"], 4, 5]);
    expect(h.emu.state.endpoints.get(created.id)).toMatchObject({
      compute: { kind: "CPU", configs: [{ id: "cpu3g", vcpuCount: 4 }] },
      container: { disk: 5 },
    });
  });

  it("prints the endpoint id, its pools and its job address in the table", async () => {
    const res = await h.run(create("hub-whisper", "whisper"));
    const id =
      /^Created serverless endpoint (\S+) from hub listing hub-whisper \(release v1\.0\.0\)\.$/m.exec(
        res.stdout,
      )?.[1];
    expect([res.code, res.stderr, id !== undefined]).toEqual([0, "", true]);
    expect(res.stdout).toContain(`Endpoint        ${id} (whisper, QUEUE)\n`);
    expect(res.stdout).toContain(`Jobs            ${h.recorder.env.RUNPOD_SERVERLESS_URL}/v2/${id}/\n`);
    expect(res.stdout).toContain("GPU pools       AMPERE_24 (x1)\n");
    expect(res.stdout).toContain("Container disk  20 GB\n");
  });
});

describe("--gpu-id overrides the config", () => {
  it("and fills in for a config without GPU ids; a release without config gets runpodctl's 10 GB disk", async () => {
    const noGpus = await h.json<Created>(create("hub-no-gpus", "no-gpus", "--gpu-id", "ADA_48_PRO"));
    const noConfig = await h.json<Created>(create("hub-no-config", "no-config", "--gpu-id", "AMPERE_24"));
    expect([
      noGpus.gpuPools,
      noGpus.gpuTypeIds,
      noGpus.containerDiskInGb,
      noConfig.gpuPools,
      noConfig.gpuTypeIds,
      noConfig.containerDiskInGb,
    ]).toEqual([["ADA_48_PRO"], ["NVIDIA L40S"], 12, ["AMPERE_24"], ["NVIDIA RTX A5000"], 10]);
  });

  it.each([
    ["NVIDIA L40S", ["ADA_48_PRO"], [], ["NVIDIA L40S"]],
    ["nvidia a40", ["AMPERE_48"], [], ["NVIDIA A40"]],
    ["ada_24", ["ADA_24"], [], [RTX4090, L4]],
    ["AMPERE_80", ["AMPERE_80"], [], [A100]],
    // a GPU type of a pool with others: the pool without them
    [L4, ["ADA_24"], [RTX4090], [L4]],
  ])("--gpu-id %s", async (gpuId, pools, excludedTypes, gpuTypeIds) => {
    const created = await h.json<Created>(create("hub-sdxl", "sdxl-override", "--gpu-id", gpuId));
    expect([created.gpuPools, created.excludedGpuTypes, created.gpuTypeIds]).toEqual([
      pools,
      excludedTypes,
      gpuTypeIds,
    ]);
    expect(h.recorder.requests[3]?.body).toMatchObject({
      gpu: { pools, ...(excludedTypes.length > 0 ? { excludedTypes } : {}), count: 1 },
    });
    // the disk still comes from the release config
    expect(h.emu.state.endpoints.get(created.id)).toMatchObject({
      compute: { pools, excludedTypes },
      container: { disk: 15 },
    });
  });
});

describe("errors", () => {
  it.each([
    [["--hub-id", "hub-draft", "--name", "x"], 1, "Error: hub listing 'hub-draft' has no published release."],
    [
      ["--hub-id", "hub-embed", "--name", "x"],
      1,
      "Error: hub listing 'hub-embed' has no built image; the release may still be building.",
    ],
    [
      ["--hub-id", "hub-nope", "--name", "x"],
      1,
      "Error: hub listing not found: hub-nope. Find listings with `runpod-dynamic hub search <name>`.",
    ],
    [
      ["--hub-id", "hub-jupyter", "--name", "x"],
      1,
      "Error: hub listing 'hub-jupyter' is a POD listing; only SERVERLESS listings deploy here.",
    ],
    [
      ["--hub-id", "hub-sdxl", "--name", "x", "--gpu-id", "NVIDIA B200"],
      2,
      "Error: --gpu-id 'NVIDIA B200' is not a serverless pool id (ADA_80_PRO, HOPPER_141, AMPERE_80, AMPERE_48, ADA_48_PRO, ADA_24, AMPERE_24) or a GPU type id (NVIDIA H100 80GB HBM3, NVIDIA H200, NVIDIA A100 80GB PCIe, NVIDIA A40, NVIDIA L40S, NVIDIA GeForce RTX 4090, NVIDIA RTX A5000, NVIDIA L4).",
    ],
    [
      ["--hub-id", "hub-sdxl", "--name", "x", "--gpu-id", "AMD Instinct MI300X OAM"],
      2,
      "Error: --gpu-id 'AMD Instinct MI300X OAM' is not a serverless pool id (ADA_80_PRO, HOPPER_141, AMPERE_80, AMPERE_48, ADA_48_PRO, ADA_24, AMPERE_24) or a GPU type id (NVIDIA H100 80GB HBM3, NVIDIA H200, NVIDIA A100 80GB PCIe, NVIDIA A40, NVIDIA L40S, NVIDIA GeForce RTX 4090, NVIDIA RTX A5000, NVIDIA L4).",
    ],
    [
      ["--hub-id", "hub-cpu-tts", "--name", "x", "--gpu-id", "ADA_24"],
      2,
      "Error: --gpu-id cannot be used: hub listing 'hub-cpu-tts' runs on CPU.",
    ],
    [
      ["--hub-id", "hub-sdxl", "--name", "x", "--gpu-id", "ADA_24,AMPERE_48"],
      2,
      "Error: --gpu-id takes one GPU type or pool id.",
    ],
    [
      ["--hub-id", "hub-bad-json", "--name", "x"],
      1,
      expect.stringMatching(
        /^Error: hub listing 'hub-bad-json' has a release config this CLI cannot read: it is not valid JSON \(/,
      ),
    ],
    [
      ["--hub-id", "hub-bad-disk", "--name", "x"],
      1,
      "Error: hub listing 'hub-bad-disk' has a release config this CLI cannot read: config.containerDiskInGb: Invalid input: expected number, received string.",
    ],
    [
      ["--hub-id", "hub-tpu", "--name", "x"],
      1,
      "Error: hub listing 'hub-tpu' has an unsupported runsOn value 'TPU'.",
    ],
    [
      ["--hub-id", "hub-no-gpus", "--name", "x"],
      2,
      "Error: hub listing 'hub-no-gpus' names no GPU ids in its release config; pass --gpu-id.",
    ],
    [
      ["--hub-id", "hub-b200", "--name", "x"],
      1,
      expect.stringMatching(
        /^Error: hub listing 'hub-b200' asks for GPU ids that serverless does not offer \(BLACKWELL_180\); pass --gpu-id with a serverless pool id/,
      ),
    ],
    [["--name", "x"], 2, "error: required option '--hub-id <listing_id>' not specified"],
    [["--hub-id", "hub-sdxl"], 2, "error: required option '--name <name>' not specified"],
    [
      ["--hub-id", "hub-sdxl", "--name", "   "],
      2,
      "error: option '--name <name>' argument '   ' is invalid. --name must be between 1 and 191 characters.",
    ],
    [
      ["--hub-id", "hub-sdxl", "--name", "x", "--template-id", "t"],
      2,
      "error: unknown option '--template-id'",
    ],
  ])("%j exits %i and creates nothing", async (args, code, message) => {
    const before = userTemplates().length;
    const endpoints = h.emu.state.endpoints.size;
    const res = await h.run(["serverless", "create", ...args]);
    expect([res.code, errorText(res), res.stdout]).toEqual([code, message, ""]);
    expect([userTemplates().length, h.emu.state.endpoints.size]).toEqual([before, endpoints]);
  });

  it("a rejected create exits 1 with the API's detail", async () => {
    h.emu.control.addFault({ method: "POST", path: "^/v2/serverless$", status: 400, times: 1 });
    const endpoints = h.emu.state.endpoints.size;
    const res = await h.run(create("hub-sdxl", "rejected"));
    expect([res.code, errorText(res)]).toEqual([
      1,
      expect.stringMatching(/^Error: POST \/v2\/serverless: 400 Bad Request: Injected upstream failure\./),
    ]);
    expect([routes(), h.emu.state.endpoints.size]).toEqual([
      ["POST /graphql", "GET /v2/catalog/gpus", "GET /v2/serverless", "POST /v2/serverless"],
      endpoints,
    ]);
  });

  it("a create never answered is looked for, sent again, and reported as unknown: exit 1", async () => {
    // Every send is cut off before the emulator reads it: createOnce looks, sends again, and gives up.
    h.emu.control.addFault({ method: "POST", path: "^/v2/serverless$", reset: "before", times: 100 });
    const endpoints = h.emu.state.endpoints.size;
    const res = await h.run(create("hub-sdxl", "unknown", "--json"));
    const error = JSON.parse(res.stderr) as Record<string, unknown>;
    expect([res.code, error.code, h.emu.state.endpoints.size]).toEqual([1, "RUNPOD_NETWORK", endpoints]);
    // each unanswered send is looked for before the next; the last look-up found nothing either
    const sends = routes().filter((r) => r === "POST /v2/serverless").length;
    expect([sends > 1, routes().slice(-2)]).toEqual([true, ["POST /v2/serverless", "GET /v2/serverless"]]);
  });
});

describe("an unanswered create is never doubled", () => {
  const BEFORE = ["POST /graphql", "GET /v2/catalog/gpus", "GET /v2/serverless"];

  it.each([
    [
      "cut off after it was created: found, not sent again",
      "after" as const,
      [...BEFORE, "POST /v2/serverless", "GET /v2/serverless"],
    ],
    [
      "cut off before it was read: not found, sent again",
      "before" as const,
      [...BEFORE, "POST /v2/serverless", "GET /v2/serverless", "POST /v2/serverless"],
    ],
  ])("%s: one endpoint", async (_name, reset, sent) => {
    h.emu.control.addFault({ method: "POST", path: "^/v2/serverless$", reset, times: 1 });
    const endpoints = [...h.emu.state.endpoints.keys()];
    const created = await h.json<Created>(create("hub-sdxl", `once-${reset}`));
    const newEndpoints = [...h.emu.state.endpoints.keys()].filter((id) => !endpoints.includes(id));
    expect([routes(), newEndpoints]).toEqual([sent, [created.id]]);
  });
});
