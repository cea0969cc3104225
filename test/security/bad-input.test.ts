/**
 * Bad input.
 *
 * 1. Property-based: whatever a program passes, `check` of Pod, ServerlessEndpoint, SshKey,
 *    NetworkVolume and Template answers with structured failures (never throws), every failure
 *    names a field of the inputs, and no check sends a request (the emulator's log stays empty),
 *    in-process and through the real provider host over gRPC.
 * 2. Malformed or surprising API responses from a scripted server (invalid JSON, missing required
 *    fields, an unknown enum value, a 200 with a problem body, a 201 without an id) reach the Pod
 *    and ServerlessEndpoint providers as typed, named errors; nothing crashes, and a create whose
 *    answer could not be read never leaves a pod nobody knows about.
 */
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import type { ServerlessEndpointInputs } from "../../provider/resources/serverless-endpoint/types.js";
import { clientLib, loadDist } from "../support/dist.js";
import { emulatorLib, type RunningEmulator, thrown } from "../support/emulator.js";
import {
  message,
  type ProviderHost,
  provproto,
  rpc,
  serializedProvider,
  startProviderHost,
  UNKNOWN,
} from "../support/host.js";
import { type HostProviders, runtimeLib, useEmulator, useRuntime } from "../support/provider.js";
import {
  json,
  podBody,
  problem,
  raw,
  type ScriptedServer,
  type Step,
  startScriptedServer,
} from "../support/scripted-server.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

// ---------------------------------------------------------------- arbitrary inputs

/** Any value a program can pass through Pulumi (JSON), or preview's unknown. */
const junk = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(UNKNOWN));
const str = fc.oneof(fc.string({ maxLength: 24 }), fc.constantFrom("", " ", "NVIDIA A40", "cpu3c", "img:1"));
const int = fc.oneof(fc.integer({ min: -5, max: 5000 }), fc.double({ noNaN: true }));
const strings = fc.array(str, { maxLength: 3 });
const env = fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(fc.string({ maxLength: 16 }), junk), {
  maxKeys: 3,
});
const port = fc.oneof(
  fc
    .tuple(fc.integer({ min: -1, max: 70_000 }), fc.constantFrom("http", "tcp", "udp", "ftp", ""))
    .map(([p, proto]) => `${p}/${proto}`),
  str,
);
const mount = fc.record({ volumeId: str, path: str, size: int }, { requiredKeys: [] });
const mounts = fc.record(
  {
    persistent: mount,
    network: fc.array(mount, { maxLength: 2 }),
    global: fc.array(mount, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

/** Known fields (plausible or junk values), maybe left out, plus a few unknown properties. */
function inputs(plausible: Record<string, fc.Arbitrary<unknown>>, fields: readonly string[]) {
  const known = Object.fromEntries(fields.map((f) => [f, fc.oneof(plausible[f] ?? junk, junk)]));
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 10 }).filter((k) => !fields.includes(k) && !k.startsWith("__")),
    junk,
    { maxKeys: 2 },
  );
  return fc
    .tuple(fc.record(known, { requiredKeys: [] }), extra)
    .map(([k, e]) => ({ ...e, ...k }) as Record<string, unknown>);
}

const fieldsOf = (schema: { shape: object }) => Object.keys(schema.shape);
const { PodArgsSchema } = loadDist<typeof import("../../provider/resources/pod/fields.js")>(
  "provider/resources/pod/fields.js",
);
const { ServerlessEndpointArgsSchema } = loadDist<
  typeof import("../../provider/resources/serverless-endpoint/fields.js")
>("provider/resources/serverless-endpoint/fields.js");
const { NetworkVolumeArgsSchema } = loadDist<
  typeof import("../../provider/resources/network-volume/fields.js")
>("provider/resources/network-volume/fields.js");
const { TemplateArgsSchema } = loadDist<typeof import("../../provider/resources/template/fields.js")>(
  "provider/resources/template/fields.js",
);
const RESOURCES = {
  Pod: {
    fields: fieldsOf(PodArgsSchema),
    plausible: {
      name: str,
      image: str,
      args: str,
      cmd: strings,
      entrypoint: strings,
      disk: int,
      env,
      ports: fc.array(port, { maxLength: 3 }),
      registry: fc.option(str),
      gpu: fc.record(
        { id: str, count: int, allowedCudaVersions: strings, minCudaVersion: str, minRamPerGpu: int },
        { requiredKeys: [] },
      ),
      cpu: fc.record({ id: str, vcpuCount: int }, { requiredKeys: [] }),
      cloud: fc.constantFrom("SECURE", "COMMUNITY", "ON_PREM"),
      dataCenterIds: strings,
      globalNetworking: fc.boolean(),
      mounts,
      templateId: str,
      placement: fc.record(
        {
          candidates: fc.array(fc.record({ dataCenterId: str, gpuTypeId: str }, { requiredKeys: [] })),
          regions: strings,
          gpuTypeIds: strings,
          maxCandidates: int,
        },
        { requiredKeys: [] },
      ),
      waitFor: fc.constantFrom("RUNNING", "PLACED", "NONE", "DONE"),
      timeouts: fc.record({ create: int, update: int, delete: int }, { requiredKeys: [] }),
      onCreateFailure: fc.constantFrom("terminate", "keep", "retry"),
    },
  },
  ServerlessEndpoint: {
    fields: fieldsOf(ServerlessEndpointArgsSchema),
    plausible: {
      name: str,
      templateId: str,
      image: str,
      type: fc.constantFrom("QUEUE", "LOAD_BALANCER", "BATCH"),
      gpu: fc.record(
        { pools: strings, excludedTypes: strings, count: int, minCudaVersion: str },
        { requiredKeys: [] },
      ),
      cpu: fc.array(fc.record({ id: str, vcpuCount: int }, { requiredKeys: [] }), { maxLength: 3 }),
      workers: fc.record({ min: int, max: int, idleTimeout: int }, { requiredKeys: [] }),
      scaling: fc.oneof(
        fc.record({ type: fc.constant("QUEUE_DELAY"), queueDelay: int }),
        fc.record({ type: fc.constant("REQUEST_COUNT"), requestCount: int }),
        fc.record({ type: str }),
      ),
      flashboot: fc.constantFrom("OFF", "FLASHBOOT", "ON"),
      timeout: int,
      env,
    },
  },
  SshKey: {
    fields: ["publicKey"],
    plausible: {
      publicKey: fc.oneof(
        str,
        fc.constant(
          "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        ),
        fc.base64String({ maxLength: 60 }).map((b) => `ssh-ed25519 ${b} me@host`),
      ),
    },
  },
  NetworkVolume: {
    fields: fieldsOf(NetworkVolumeArgsSchema),
    plausible: { name: str, size: int, dataCenterId: str, type: fc.constantFrom("STANDARD", "FAST") },
  },
  Template: {
    fields: fieldsOf(TemplateArgsSchema),
    plausible: { name: str, image: str, disk: int, env, ports: fc.array(port, { maxLength: 3 }), mounts },
  },
} as const;
type ResourceName = keyof typeof RESOURCES;
const NAMES = Object.keys(RESOURCES) as ResourceName[];

/**
 * Whether a failure names a field: a property of the input as given (an unknown property is named
 * as it was spelled), or a path into a known field (`gpu.count`, `ports[0]`). A nested path goes to
 * the engine on the resource, leading the reason (`mounts.persistent: ...`), so the engine does not
 * print a value it cannot look up.
 */
function namesAField(
  failure: string,
  reason: string,
  input: Record<string, unknown>,
  fields: readonly string[],
): boolean {
  if (failure === "") {
    // Nested or left out: `<top>.<rest>: why`, `<top>[i]...: why` or `<top>: why`, `<top>` a known
    // field or the input's own key.
    return [...fields, ...Object.keys(input)].some(
      (top) => top !== "" && [".", "[", ": "].some((after) => reason.startsWith(`${top}${after}`)),
    );
  }
  if (failure in input) return true;
  const top = failure.split(/[.[]/)[0] ?? "";
  return top !== "" && (fields.includes(top) || top in input);
}

function expectNamedFailures(
  failures: readonly { property: string; reason: string }[],
  input: Record<string, unknown>,
  fields: readonly string[],
): void {
  for (const f of failures) {
    expect([f.property, typeof f.reason === "string" && f.reason.length > 0]).toEqual([f.property, true]);
    expect(namesAField(f.property, f.reason, input, fields) ? "names a field" : f).toBe("names a field");
  }
}

// ---------------------------------------------------------------- check, in-process

describe("check, for any input", () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, randomSeed: 3 });
    useEmulator(emu);
  });
  afterAll(async () => {
    await emu.close();
  });

  it.each(NAMES)("%s: never throws, every failure names a field, no request is sent", async (name) => {
    const { fields, plausible } = RESOURCES[name];
    const provider = runtimeLib.providers[name] as unknown as {
      check(
        olds: object,
        news: object,
      ): Promise<{ inputs: object; failures?: { property: string; reason: string }[] }>;
    };
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(inputs(plausible, fields), async (input) => {
        const result = await provider.check({}, input);
        expectNamedFailures(result.failures ?? [], input, fields);
        if ((result.failures ?? []).length > 0) rejected += 1;
      }),
      { numRuns: 300, seed: 10 },
    );
    // Most generated inputs are invalid; none of them, nor the valid ones, reached the API.
    expect(rejected).toBeGreaterThan(150);
    expect(emu.control.requests().entries).toEqual([]);
  });
});

// ---------------------------------------------------------------- check, through the provider host

describe("check through the real provider host, for any input", { timeout: 60_000 }, () => {
  let emu: RunningEmulator;
  let host: ProviderHost;
  const texts: Partial<Record<ResourceName, string>> = {};
  beforeAll(async () => {
    emu = await emulatorLib.startEmulator({ clockScale: 0, randomSeed: 4 });
    for (const name of NAMES) texts[name] = (await serializedProvider(name)).text;
    host = await startProviderHost({
      config: emu.pulumiConfig(),
      env: { RUNPOD_API_KEY: "" },
    });
  });
  afterAll(async () => {
    host?.close();
    await emu?.close();
  });

  /** The dynamic provider host's answer to a Check of `news` for a new resource of kind `name`. */
  const check = (name: ResourceName, news: Record<string, unknown>) => {
    const type = `pulumi-nodejs:dynamic/runpod:${name}`;
    return rpc<Any>(
      host.client,
      "check",
      message(provproto.CheckRequest, {
        urn: `urn:pulumi:dev::rp::${type}::x`,
        type,
        olds: {},
        news: { ...news, __provider: texts[name] },
      }),
    );
  };

  it.each(NAMES)("%s: Check answers with named failures, never a gRPC error", async (name) => {
    const { fields, plausible } = RESOURCES[name];
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(inputs(plausible, fields), async (input) => {
        const res = await check(name, input);
        const failures = res
          .getFailuresList()
          .map((f: Any) => ({ property: f.getProperty(), reason: f.getReason() }));
        expectNamedFailures(failures, input, fields);
        if (failures.length > 0) rejected += 1;
      }),
      { numRuns: 25, seed: 11 },
    );
    // Most generated inputs are invalid (24 or 25 of these 25): failures really came back through
    // the host and were checked above, not an empty list every time.
    expect(rejected).toBeGreaterThan(12);
    expect(emu.control.requests().entries).toEqual([]);
  });

  it("takes a number or a boolean where a string is declared as that string, and records the string", async () => {
    const res = await check("Pod", {
      name: 8080,
      image: "img:1",
      cpu: { id: "cpu3c", vcpuCount: 2 },
      env: { WORKERS: 4, DEBUG: true, NESTED: { no: "string" } },
    });
    const inputs = res.getInputs().toJavaScript() as { name: unknown; env: Record<string, unknown> };
    expect({
      name: inputs.name,
      env: inputs.env,
      failures: res.getFailuresList().map((f: Any) => [f.getProperty(), f.getReason()]),
    }).toEqual({
      name: "8080",
      env: { WORKERS: "4", DEBUG: "true", NESTED: { no: "string" } },
      failures: [["", "env.NESTED: must be a string"]],
    });
  });
});

// ---------------------------------------------------------------- malformed answers

const KEY = "rpa_BAD_INPUT_TEST_KEY_0123456789";
const CREATE_KEY = "00112233445566778899aabbccddeeff";
/** A pod this resource's create made: it carries the create key in its env. */
const keyedPod = (id: string, extra: Record<string, unknown> = {}) =>
  podBody(id, { env: { RUNPOD_DYNAMIC_CREATE_KEY: CREATE_KEY }, ...extra });
const endpointBody = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: "sdxl",
  type: "QUEUE",
  gpu: { pools: ["AMPERE_48"], count: 1, allowedCudaVersions: [], minCudaVersion: null },
  workers: { min: 0, max: 3, idleTimeout: 10 },
  scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
  dataCenterIds: [],
  networkVolumes: [],
  timeout: 300000,
  flashboot: "OFF",
  createdAt: new Date().toISOString(),
  ...extra,
});

/** A scripted API: each route answers from its own list, one entry per call, the last repeating. */
function routes(table: Record<string, Step[]>): Step {
  const calls: Record<string, number> = {};
  return (req, res, body) => {
    const route = `${req.method} ${(req.url ?? "").split("?")[0]}`;
    const steps = table[route];
    if (!steps) return problem(404, "Not Found", `no script for ${route}`)(req, res, body);
    const n = calls[route] ?? 0;
    calls[route] = n + 1;
    const step = steps[Math.min(n, steps.length - 1)];
    return step?.(req, res, body);
  };
}

describe("malformed or surprising answers reach the providers as typed errors", () => {
  let server: ScriptedServer | undefined;
  let Pod: HostProviders["Pod"];
  let Endpoint: HostProviders["ServerlessEndpoint"];

  /** `scale`: how much faster than the wall clock the provider's clock runs (its waits and timeouts). */
  async function serve(table: Record<string, Step[]>, scale = 1000) {
    const step = routes(table);
    server = await startScriptedServer(() => step);
    const { providers } = useRuntime({
      apiKey: KEY,
      baseUrl: server.url,
      clock: scale === 1 ? clientLib.realClock : clientLib.scaledClock(scale),
      watcher: { minIntervalMs: 1000, maxIntervalMs: 2000 },
    });
    Pod = providers.Pod;
    Endpoint = providers.ServerlessEndpoint;
    return server;
  }
  const sent = (method: string, path: string) =>
    (server?.requests ?? []).filter((r) => r.method === method && r.url.split("?")[0] === path).length;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const outputs = { name: "trainer", status: "RUNNING" } as unknown as PodOutputs;
  it.each([
    ["invalid JSON", raw(200, "application/json", "{not json"), /the body is not valid JSON/],
    ["a missing required field", json(200, keyedPod("pod-1", { name: undefined })), /\$\.name: /],
    ["an unknown status", json(200, keyedPod("pod-1", { status: "HIBERNATING" })), /\$\.status: /],
    ["a 200 with a problem body", problem(200, "Bad", "looks like an error"), /carried an error body/],
    ["HTML", raw(200, "text/html", "<html>maintenance</html>"), /expected JSON, got text\/html/],
  ])("read of a pod, %s: a named RUNPOD_INVALID_RESPONSE, once", async (_what, step, detail) => {
    await serve({ "GET /v2/pods/pod-1": [step] });
    const err = await thrown(Pod.read("pod-1", outputs));
    expect([err.code, sent("GET", "/v2/pods/pod-1")]).toEqual(["RUNPOD_INVALID_RESPONSE", 1]);
    expect(err.message).toMatch(/^Pod trainer: GET \/v2\/pods\/pod-1: /);
    expect(err.message).toMatch(detail);
    expect(err.message).not.toContain(KEY);
  });

  it("an unreadable answer to a delete's status reads: the delete still ends, named, without a crash", async () => {
    await serve({
      "DELETE /v2/pods/pod-1": [(_q, res) => res.writeHead(204).end()],
      "GET /v2/pods/pod-1": [raw(200, "application/json", "{not json")],
    });
    const outs = { ...outputs, timeouts: { delete: 2 } } as unknown as PodOutputs;
    const err = await thrown(Pod.delete("pod-1", outs));
    expect(err.message).toMatch(/^Pod trainer: pod pod-1 did not reach GONE in time/);
  });

  const create = (extra: Partial<PodInputs> = {}) =>
    Pod.create({
      name: "trainer",
      image: "img:1",
      gpu: { id: "NVIDIA A40" },
      ...extra,
      __createKey: CREATE_KEY,
    } as unknown as PodInputs);

  it("a 201 without an id: the pod is found by its create key and taken, never created twice", async () => {
    await serve({
      "GET /v2/pods": [json(200, { pods: [] }), json(200, { pods: [keyedPod("pod-1")] })],
      "POST /v2/pods": [json(201, keyedPod("", { id: undefined }))],
      "GET /v2/pods/pod-1": [json(200, keyedPod("pod-1"))],
    });
    const res = await create();
    expect([res.id, (res.outs as PodOutputs).status, sent("POST", "/v2/pods")]).toEqual([
      "pod-1",
      "RUNNING",
      1,
    ]);
  });

  it("a 201 without an id whose pod shows up only later: created again, then the late one is terminated", async () => {
    const late = keyedPod("pod-late");
    await serve({
      // The list at start, the look-up after the unreadable answer, the check for duplicates.
      "GET /v2/pods": [
        json(200, { pods: [] }),
        json(200, { pods: [] }),
        json(200, { pods: [late, keyedPod("pod-2")] }),
      ],
      "POST /v2/pods": [json(201, { ...late, id: undefined }), json(201, keyedPod("pod-2"))],
      "GET /v2/pods/pod-2": [json(200, keyedPod("pod-2"))],
      "DELETE /v2/pods/pod-late": [(_q, res) => res.writeHead(204).end()],
      "GET /v2/pods/pod-late": [problem(404, "Not Found", "gone")],
    });
    const res = await create();
    expect([res.id, sent("POST", "/v2/pods"), sent("DELETE", "/v2/pods/pod-late")]).toEqual(["pod-2", 2, 1]);
  });

  it("a 201 without an id and no pod anywhere after every retry: a named error, nothing to record", async () => {
    await serve({
      "GET /v2/pods": [json(200, { pods: [] })],
      "POST /v2/pods": [json(201, { name: "trainer" })],
    });
    const err = await thrown(create());
    expect([err.id, sent("POST", "/v2/pods")]).toEqual([undefined, 4]);
    expect(err.message).toMatch(
      /^Pod trainer: No candidate could place the pod \(4 attempts\)\. Tried: any data center \(4 times\): unreadable POST \/v2\/pods: the body does not have the expected shape: \$\.id: /,
    );
  });

  it("an unknown status while waiting: keeps waiting and fails named, with the pod id, terminated", async () => {
    let deleted = false;
    await serve({
      "GET /v2/pods": [json(200, { pods: [] })],
      "POST /v2/pods": [json(201, keyedPod("pod-1", { status: "PROVISIONING" }))],
      "GET /v2/pods/pod-1": [
        (req, res, body) =>
          deleted
            ? problem(404, "Not Found", "gone")(req, res, body)
            : json(200, keyedPod("pod-1", { status: "HIBERNATING" }))(req, res, body),
      ],
      "DELETE /v2/pods/pod-1": [
        (_q, res) => {
          deleted = true;
          res.writeHead(204).end();
        },
      ],
    });
    const err = await thrown(create({ timeouts: { create: 3, delete: 3 } }));
    expect(err.message).toMatch(
      /^Pod trainer: pod pod-1 did not become ready .* It was terminated so it does not bill/,
    );
    expect(sent("DELETE", "/v2/pods/pod-1")).toBe(1);
  });

  const endpoint = (): ServerlessEndpointInputs =>
    ({
      name: "sdxl",
      templateId: "runpod-worker-sdxl",
      gpu: { pools: ["AMPERE_48"] },
    }) as ServerlessEndpointInputs;

  it("an endpoint create answered 201 without an id: found by name and type, not created twice", async () => {
    const before = endpointBody("ep-0");
    await serve(
      {
        "POST /v2/serverless": [json(201, { name: "sdxl" })],
        "GET /v2/serverless": [
          // Before the create: another stack's endpoint of the same name and type, never taken for ours.
          json(200, { endpoints: [before] }),
          json(200, {
            endpoints: [before, endpointBody("ep-other", { name: "other" }), endpointBody("ep-1")],
          }),
        ],
      },
      1,
    );
    const res = await Endpoint.create(endpoint());
    expect([res.id, sent("POST", "/v2/serverless"), sent("GET", "/v2/serverless")]).toEqual(["ep-1", 1, 2]);
  });

  it.each([
    ["invalid JSON", raw(200, "application/json", "[{"), /not valid JSON/],
    ["an id of the wrong type", json(200, endpointBody("x", { id: 42 })), /\$\.id: /],
    ["a 200 with a problem body", problem(200, "Bad", "oops"), /carried an error body/],
  ])("an endpoint read, %s: a named typed error", async (_what, step, detail) => {
    await serve({ "GET /v2/serverless/ep-1": [step] }, 1);
    const err = await thrown(Endpoint.read("ep-1", { name: "sdxl" } as never));
    expect([err.code, err.message]).toEqual([
      "RUNPOD_INVALID_RESPONSE",
      expect.stringMatching(/^ServerlessEndpoint sdxl: /),
    ]);
    expect(err.message).toMatch(detail);
  });
});
