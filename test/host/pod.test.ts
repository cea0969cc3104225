/**
 * Pod through the real `@pulumi/pulumi` dynamic-provider host over gRPC, with the provider text a
 * program would store, in the order the engine calls it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeRequire } from "../support/dist.js";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  message,
  type ProviderHost,
  provproto,
  rpc,
  serializedProvider,
  startProviderHost,
  UNKNOWN,
} from "../support/host.js";
import { type EchoProxy, startEchoProxy } from "../support/scripted-server.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;
const statusproto = nodeRequire("@pulumi/pulumi/proto/status_pb") as Any;

const TYPE = "pulumi-nodejs:dynamic/runpod:Pod";
const urn = (name: string) => `urn:pulumi:dev::rp::${TYPE}::${name}`;
const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;
const SCALE = 50;

let emu: RunningEmulator;
let host: ProviderHost;
let text: string;
/** Between the host and the emulator's base_url (pods): forwards, or echoes a request when told. */
let proxy: EchoProxy;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: SCALE, randomSeed: 7 });
  proxy = await startEchoProxy(emu.baseUrl);
  text = (await serializedProvider("Pod")).text;
  host = await startProviderHost({
    config: { ...emu.pulumiConfig(), "runpod:baseUrl": proxy.url },
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(SCALE), RUNPOD_API_KEY: "" },
  });
});
afterAll(async () => {
  host?.close();
  await proxy?.close();
  await emu?.close();
});

const base = {
  name: "trainer",
  image: "img:1",
  gpu: { id: "NVIDIA A40" },
  env: { A: "1" },
  ports: ["22/tcp"],
};
const check = (news: Record<string, unknown>, name = "trainer") =>
  rpc<Any>(
    host.client,
    "check",
    message(provproto.CheckRequest, {
      urn: urn(name),
      type: TYPE,
      olds: {},
      news: { ...news, __provider: text },
    }),
  );
const create = (properties: Record<string, unknown>, name = "trainer") =>
  rpc<Any>(
    host.client,
    "create",
    message(provproto.CreateRequest, { urn: urn(name), type: TYPE, properties }),
  );
const diff = (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
  rpc<Any>(
    host.client,
    "diff",
    message(provproto.DiffRequest, { id, urn: urn("trainer"), type: TYPE, olds, news }),
  );

describe("the serialized provider", () => {
  it("holds no secret, no token, only the runtime require, and stays under 4 KB", async () => {
    const sf = await serializedProvider("Pod");
    const requires = [...sf.text.matchAll(/(?<![.\w])require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect([sf.containsSecrets, sf.text.includes(emu.apiKey), new Set(requires)]).toEqual([
      false,
      false,
      new Set(["runpod-dynamic/runtime"]),
    ]);
    expect(sf.text.length).toBeLessThan(4096);
  });
});

describe("check", () => {
  it("returns failures that name the property: a top-level one as the property, a nested path leading the reason", async () => {
    const res = await check({
      name: "",
      image: "img:1",
      gpu: { id: "NVIDIA A40", count: 0 },
      ports: ["8888"],
    });
    expect(res.getFailuresList().map((f: Any) => [f.getProperty(), f.getReason()])).toEqual([
      ["name", "must not be empty"],
      ["", "ports[0]: must be <port>/<protocol> with protocol http, tcp or udp, e.g. 8888/http"],
      ["", "gpu.count: must be at least 1"],
    ]);
  });

  it("accepts preview's unknown values and passes the inputs through", async () => {
    const res = await check({ ...base, image: UNKNOWN, gpu: { id: UNKNOWN } });
    expect([res.getFailuresList().length, res.getInputs().toJavaScript().image]).toEqual([0, UNKNOWN]);
  });
});

describe("create, diff, update, read, delete", () => {
  let id: string;
  let inputs: Record<string, unknown>;
  let outs: Record<string, unknown>;

  it("creates and waits until RUNNING; progress reaches the host's stderr", async () => {
    inputs = (await check(base)).getInputs().toJavaScript();
    const res = await create(inputs);
    id = res.getId();
    outs = res.getProperties().toJavaScript();
    expect([outs.status, outs.env, outs.__provider, typeof id]).toEqual([
      "RUNNING",
      { A: "1" },
      text,
      "string",
    ]);
    // The status it was last seen in before RUNNING depends on when the watcher's read landed
    // (PROVISIONING on a loaded machine, STARTING usually): the transition is what is reported.
    expect(host.output()).toMatch(
      new RegExp(`runpod Pod trainer: ${id} (PROVISIONING|STARTING) -> RUNNING \\(\\d+s\\)`),
    );
  });

  it("diffs: nothing, an in-place update, a replacement, an unknown", async () => {
    const none = await diff(id, outs, inputs);
    const update = await diff(id, outs, { ...inputs, image: "img:2" });
    const replace = await diff(id, outs, { ...inputs, gpu: { id: "NVIDIA L40S" } });
    const unknown = await diff(id, outs, { ...inputs, image: UNKNOWN });
    expect([
      none.getChanges(),
      update.getChanges(),
      update.getReplacesList(),
      replace.getReplacesList(),
      unknown.getChanges(),
    ]).toEqual([DIFF_NONE, DIFF_SOME, [], ["gpu.id"], DIFF_SOME]);
    expect(replace.getDeletebeforereplace()).toBe(false);
  });

  it("updates in place and returns the full outputs", async () => {
    const news = { ...inputs, image: "img:2", env: { A: "2" } };
    const res = await rpc<Any>(
      host.client,
      "update",
      message(provproto.UpdateRequest, {
        id,
        urn: urn("trainer"),
        type: TYPE,
        olds: outs,
        oldInputs: inputs,
        news,
      }),
    );
    const updated = res.getProperties().toJavaScript();
    expect([updated.image, updated.env, updated.status, updated.gpu?.id, updated.__provider]).toEqual([
      "img:2",
      { A: "2" },
      "RUNNING",
      "NVIDIA A40",
      text,
    ]);
    outs = updated;
    inputs = news;
  });

  it("refresh sees an out-of-band change, in properties and inputs", async () => {
    await apiFor(emu).pods.update(id, { image: "img:drift" });
    const res = await rpc<Any>(
      host.client,
      "read",
      message(provproto.ReadRequest, { id, urn: urn("trainer"), type: TYPE, properties: outs, inputs }),
    );
    expect([
      res.getId(),
      res.getProperties().toJavaScript().image,
      res.getInputs().toJavaScript().image,
    ]).toEqual([id, "img:drift", "img:drift"]);
  });

  it("a get-style read (inputs only) works; an import-style read (nothing) fails in the host itself", async () => {
    const get = await rpc<Any>(
      host.client,
      "read",
      message(provproto.ReadRequest, {
        id,
        urn: urn("trainer"),
        type: TYPE,
        inputs: { ...inputs, __provider: text },
      }),
    );
    expect(get.getProperties().toJavaScript().name).toBe("trainer");
    await expect(
      rpc(host.client, "read", message(provproto.ReadRequest, { id, urn: urn("trainer"), type: TYPE })),
    ).rejects.toThrow(/code must be a string/);
  });

  it("deletes; a refresh afterwards answers an empty id so the engine drops it", async () => {
    await rpc(
      host.client,
      "delete",
      message(provproto.DeleteRequest, {
        id,
        urn: urn("trainer"),
        type: TYPE,
        properties: outs,
        oldInputs: inputs,
      }),
    );
    const gone = await rpc<Any>(
      host.client,
      "read",
      message(provproto.ReadRequest, { id, urn: urn("trainer"), type: TYPE, properties: outs }),
    );
    expect(gone.getId()).toBe("");
  });
});

describe("a pod that fails after the API accepted it", () => {
  it("kept: the host reports a partial failure carrying the id, so the engine records it", async () => {
    emu.control.setSettings({ errorShare: 1 });
    const inputs = (await check({ ...base, name: "broken", onCreateFailure: "keep" }, "broken"))
      .getInputs()
      .toJavaScript();
    const err = await create(inputs, "broken").then(
      () => undefined,
      (e: Any) => e,
    );
    emu.control.setSettings({ errorShare: 0 });
    const raw = err.metadata.get("grpc-status-details-bin")[0];
    const status = statusproto.Status.deserializeBinary(raw);
    const detail = provproto.ErrorResourceInitFailed.deserializeBinary(status.getDetailsList()[0].getValue());
    const properties = detail.getProperties().toJavaScript();
    expect([detail.getId(), properties.status, properties.name]).toEqual([
      expect.stringMatching(/^\w+$/),
      "ERROR",
      "broken",
    ]);
    expect(err.details).toMatch(/^Pod broken: pod \w+ was created but did not become ready/);
    expect(emu.control.snapshot().pods.map((p) => p.id)).toContain(detail.getId());
  });

  it("terminated: an error naming the pod, and nothing left billing", async () => {
    emu.control.setSettings({ errorShare: 1 });
    const inputs = (await check({ ...base, name: "doomed" }, "doomed")).getInputs().toJavaScript();
    const err = await create(inputs, "doomed").then(
      () => undefined,
      (e: Any) => e,
    );
    emu.control.setSettings({ errorShare: 0 });
    expect([err.metadata.get("grpc-status-details-bin").length, err.details]).toEqual([
      0,
      expect.stringMatching(
        /^Pod doomed: pod \w+ did not become ready \(pod \w+ went to ERROR; last status ERROR\)\. It was terminated so it does not bill/,
      ),
    ]);
    expect(
      emu.control.snapshot().pods.filter((p) => p.name === "doomed" && p.status !== "TERMINATED"),
    ).toEqual([]);
  });
});

describe("secrets", () => {
  it("the API key from Configure never reaches the host's output", async () => {
    // Answers that quote the request's Authorization header, on the two ways an answer reaches the
    // output: a placement progress line (the first candidate's 400), and an error the host prints
    // (a refresh's read).
    proxy.echo({ method: "POST", path: /^\/v2\/pods$/, status: 400 });
    proxy.echo({ method: "GET", path: /^\/v2\/pods\/pod-echo$/, status: 400 });
    const inputs = (
      await check(
        {
          ...base,
          name: "echo",
          placement: { candidates: [{ dataCenterId: "US-TX-3" }, { dataCenterId: "US-KS-2" }] },
        },
        "echo",
      )
    )
      .getInputs()
      .toJavaScript();
    const placed = (await create(inputs, "echo")).getProperties().toJavaScript();
    const read = await rpc(
      host.client,
      "read",
      message(provproto.ReadRequest, {
        id: "pod-echo",
        urn: urn("echo"),
        type: TYPE,
        properties: { name: "echo", __provider: text },
      }),
    ).then(
      () => "read",
      (e: Any) => String(e.details),
    );
    const echoed = (request: string) =>
      `upstream refused ${request} sent with authorization 'Bearer [redacted]' and body`;
    expect([proxy.echoed.map((r) => [r.method, r.headers.authorization]), placed.dataCenterId, read]).toEqual(
      [
        [
          ["POST", `Bearer ${emu.apiKey}`],
          ["GET", `Bearer ${emu.apiKey}`],
        ],
        "US-KS-2",
        expect.stringContaining(echoed("GET /v2/pods/pod-echo")),
      ],
    );
    expect(host.output()).toContain(
      `runpod Pod echo: US-TX-3 / NVIDIA A40 answered 400: ${echoed("POST /v2/pods")}`,
    );
    expect(host.output()).toContain(`GET /v2/pods/pod-echo: 400 Echoed: ${echoed("GET /v2/pods/pod-echo")}`);
    expect(host.output()).not.toContain(emu.apiKey);
  });
});
