/** NetworkVolume and Template through the real dynamic-provider host over gRPC. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  hostResources,
  type ProviderHost,
  provproto,
  serializedProvider,
  startProviderHost,
  UNKNOWN,
} from "../support/host.js";
import { type EchoProxy, startEchoProxy } from "../support/scripted-server.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;
const SCALE = 50;
const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;
const SECRET_ENV = "hf_s3cr3t-value-never-printed";

let emu: RunningEmulator;
let host: ProviderHost;
const texts: Record<string, string> = {};
/** Between the host and the emulator's base_url (volumes, templates): forwards, or echoes a request. */
let proxy: EchoProxy;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: SCALE, randomSeed: 17 });
  proxy = await startEchoProxy(emu.baseUrl);
  for (const t of ["NetworkVolume", "Template"]) texts[t] = (await serializedProvider(t)).text;
  host = await startProviderHost({
    config: { ...emu.pulumiConfig(), "runpod:baseUrl": proxy.url },
    env: { RUNPOD_DYNAMIC_TIME_SCALE: String(SCALE) },
  });
});
afterAll(async () => {
  host?.close();
  await proxy?.close();
  await emu?.close();
});

const resource = hostResources(() => host, texts);

const failures = (res: Any) => res.getFailuresList().map((f: Any) => [f.getProperty(), f.getReason()]);
const inputsOf = (res: Any) => res.getInputs().toJavaScript();
const withoutProvider = ({ __provider: _p, ...rest }: Record<string, unknown>) => rest;
/** Outputs as the engine stores them, without the `__provider` the host adds. */
const propsOf = (res: Any) => withoutProvider(res.getProperties().toJavaScript());

describe("serialized providers", () => {
  it.each(["NetworkVolume", "Template"])(
    "%s: no secrets, no token, only the runtime require, under 4 KB",
    async (type) => {
      const sf = await serializedProvider(type);
      const requires = [...sf.text.matchAll(/(?<![.\w])require\("([^"]+)"\)/g)].map((m) => m[1]);
      expect([
        sf.containsSecrets,
        sf.text.includes(emu.apiKey),
        new Set(requires),
        sf.text.length < 4096,
      ]).toEqual([false, false, new Set(["runpod-dynamic/runtime"]), true]);
    },
  );
});

describe("NetworkVolume", () => {
  const r = resource("NetworkVolume", "datasets");

  it("check, create, diff, update, read, delete", async () => {
    expect(failures(await r.check({ name: "d", size: 5000, dataCenterId: "EU-RO-1", kind: "x" }))).toEqual([
      ["size", "must be at most 4096"],
      ["kind", "unknown property 'kind'; check the spelling against the documented inputs"],
    ]);
    const preview = await r.check({ name: "d", size: 50, dataCenterId: UNKNOWN });
    expect([failures(preview), inputsOf(preview).dataCenterId]).toEqual([[], UNKNOWN]);

    const inputs = inputsOf(await r.check({ name: "datasets", size: 50, dataCenterId: "US-KS-2" }));
    const created = await r.create(inputs);
    const id = created.getId();
    const outs = propsOf(created);
    expect(outs).toEqual({
      volumeId: id,
      name: "datasets",
      size: 50,
      dataCenterId: "US-KS-2",
      type: "STANDARD",
    });

    const none = await r.diff(id, outs, inputs);
    const grow = await r.diff(id, outs, { ...inputs, size: 80 });
    const move = await r.diff(id, outs, { ...inputs, dataCenterId: "EU-RO-1" });
    const retype = await r.diff(id, outs, { ...inputs, type: "HIGH_PERFORMANCE" });
    expect([
      none.getChanges(),
      [grow.getChanges(), grow.getReplacesList()],
      [move.getChanges(), move.getReplacesList()],
      retype.getReplacesList(),
    ]).toEqual([DIFF_NONE, [DIFF_SOME, []], [DIFF_SOME, ["dataCenterId"]], ["type"]]);

    expect(failures(await r.check({ ...inputs, size: 40 }, inputs))).toEqual([
      [
        "size",
        "can only grow: the volume has 50 GB and network volume storage cannot be reduced (the API answers 400). Keep size at 50 or more, or create a new NetworkVolume and copy the data",
      ],
    ]);

    const updated = propsOf(await r.update(id, outs, { ...inputs, size: 80 }));
    expect(updated).toEqual({ ...outs, size: 80 });

    await apiFor(emu).networkVolumes.update(id, { name: "renamed-elsewhere", size: 120 });
    const read = await r.read(id, updated);
    expect([read.getId(), propsOf(read), withoutProvider(inputsOf(read))]).toEqual([
      id,
      { ...updated, name: "renamed-elsewhere", size: 120 },
      { name: "renamed-elsewhere", size: 120, dataCenterId: "US-KS-2", type: "STANDARD" },
    ]);

    await r.delete(id, updated);
    expect([
      (await r.read(id, updated)).getId(),
      emu.control.snapshot().networkVolumes.map((v) => v.id),
    ]).toEqual(["", ["nv-tx3-datasets", "nv-ro1-models"]]);
    expect(host.output()).toContain(`runpod NetworkVolume datasets: deleted ${id}`);
  });
});

describe("Template", () => {
  const r = resource("Template", "trainer");

  it("check, create, diff, update, read, delete", async () => {
    expect(
      failures(
        await r.check({
          name: "t",
          image: "img:1",
          serverless: true,
          mounts: { persistent: { size: 20, path: "/workspace" } },
        }),
      ),
    ).toEqual([
      [
        "",
        "mounts.persistent: a serverless template cannot have a persistent mount (the API answers 400); attach a network volume to the endpoint instead (networkVolumeId)",
      ],
    ]);

    const inputs = inputsOf(
      await r.check({
        name: "trainer",
        image: "img:1",
        entrypoint: ["/bin/sh", "-c"],
        cmd: ["python train.py"],
        env: { HF_TOKEN: SECRET_ENV },
        ports: ["8888/http", "22/tcp"],
        startJupyter: false,
      }),
    );
    const created = await r.create(inputs);
    const id = created.getId();
    const outs = propsOf(created);
    expect(outs).toEqual({
      templateId: id,
      name: "trainer",
      image: "img:1",
      args: '{"entrypoint":["/bin/sh","-c"],"cmd":["python train.py"]}',
      cmd: ["python train.py"],
      entrypoint: ["/bin/sh", "-c"],
      disk: 20,
      env: { HF_TOKEN: SECRET_ENV },
      ports: ["8888/http", "22/tcp"],
      registry: null,
      mounts: { persistent: null },
      allowedCudaVersions: [],
      startSsh: true,
      startJupyter: false,
      public: false,
      serverless: false,
      category: "NVIDIA",
    });

    const none = await r.diff(id, outs, inputs);
    const image = await r.diff(id, outs, { ...inputs, image: "img:2" });
    const flip = await r.diff(id, outs, { ...inputs, serverless: true });
    expect([
      none.getChanges(),
      [image.getChanges(), image.getReplacesList()],
      [flip.getChanges(), flip.getReplacesList()],
    ]).toEqual([DIFF_NONE, [DIFF_SOME, []], [DIFF_SOME, ["serverless"]]]);
    expect(host.output()).toContain(
      "runpod Template trainer: changing image edits the template only: pods and endpoints already created from it keep the settings they were created with (a template is applied once, at create)",
    );

    const updated = propsOf(
      await r.update(id, outs, { ...inputs, image: "img:2", cmd: ["python serve.py"] }),
    );
    expect([updated.image, updated.cmd, updated.entrypoint, updated.env]).toEqual([
      "img:2",
      ["python serve.py"],
      ["/bin/sh", "-c"],
      { HF_TOKEN: SECRET_ENV },
    ]);

    await apiFor(emu).templates.update(id, { ports: ["8888/http"] });
    const read = await r.read(id, updated);
    expect([read.getId(), propsOf(read).ports, inputsOf(read).ports]).toEqual([
      id,
      ["8888/http"],
      ["8888/http"],
    ]);

    await r.delete(id, updated);
    expect([(await r.read(id, updated)).getId(), emu.control.snapshot().templates]).toEqual(["", []]);
  });
});

describe("secrets", () => {
  it("neither the API key nor a template's env value reaches the host's output", async () => {
    // A delete refused (400, "in use") with an answer that quotes the request's Authorization
    // header: the host prints the error, whose reason is the service's detail.
    proxy.echo({ method: "DELETE", path: /^\/v2\/templates\/tpl-echo$/, status: 400 });
    const refused = await resource("Template", "trainer")
      .delete("tpl-echo", { templateId: "tpl-echo", name: "trainer", env: { HF_TOKEN: SECRET_ENV } })
      .then(
        () => "deleted",
        (e: Any) => String(e.details),
      );
    const printed = `template tpl-echo cannot be deleted while it is in use: upstream refused DELETE /v2/templates/tpl-echo sent with authorization 'Bearer [redacted]' and body ''`;
    expect([proxy.echoed.map((r) => r.headers.authorization), refused]).toEqual([
      [`Bearer ${emu.apiKey}`],
      expect.stringContaining(printed),
    ]);
    expect(host.output()).toContain(printed);
    expect([host.output().includes(emu.apiKey), host.output().includes(SECRET_ENV)]).toEqual([false, false]);
  });
});
