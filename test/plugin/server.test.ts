/**
 * The provider plugin's gRPC service as the engine calls it, on the real plugin process
 * (dist/provider/plugin/main.js) against the emulator: the answers the engine relies on that a
 * whole program does not single out (configuration, detailed diffs, reads without state, secret
 * outputs, invokes).
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/pulumi-cli.js";
import { publicKey } from "../support/chaos/fleet.js";
import { nodeRequire } from "../support/dist.js";
import { emulatorLib, type RunningEmulator } from "../support/emulator.js";
import {
  grpc,
  message,
  provproto,
  rpc,
  SECRET_SIG,
  SECRET_VALUE,
  startPlugin,
  UNKNOWN,
} from "../support/host.js";
import { PLUGIN_VERSION, pluginConfig } from "../support/plugin.js";
import { TIME_SCALE } from "../support/stack.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

const provrpc = nodeRequire("@pulumi/pulumi/proto/provider_grpc_pb") as Any;
const { Empty } = nodeRequire("google-protobuf/google/protobuf/empty_pb") as Any;
const POD_URN = "urn:pulumi:dev::plugin::runpod-dynamic:index:Pod::trainer";
const PROVIDER_ID = "3b1f6c1e-6a8e-4d35-9a42-6d0a3e7b9c11";
const secret = (value: unknown) => ({ [SECRET_SIG]: SECRET_VALUE, value });
const isSecret = (v: unknown) =>
  typeof v === "object" && v !== null && (v as Any)[SECRET_SIG] === SECRET_VALUE;

let emu: RunningEmulator;
let plugin: ReturnType<typeof startPlugin>;
let client: Any;

beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 39 });
  plugin = startPlugin(join(REPO_ROOT, "dist", "provider", "plugin", "main.js"), [], {
    cwd: REPO_ROOT,
    env: { RUNPOD_API_KEY: "", RUNPOD_BASE_URL: "", RUNPOD_DYNAMIC_TIME_SCALE: String(TIME_SCALE) },
  });
  client = new provrpc.ResourceProviderClient(
    `127.0.0.1:${await plugin.port}`,
    grpc.credentials.createInsecure(),
  );
});
afterAll(async () => {
  client?.close();
  plugin?.proc.kill();
  await emu?.close();
});

/** Configure as the engine does for a default provider: the stack config, secrets wrapped, the provider's id. */
async function configure(id = PROVIDER_ID) {
  const { plain, secret: secrets } = pluginConfig(emu);
  const field = (k: string) => k.replace(/^runpod-dynamic:/, "");
  const args = {
    ...Object.fromEntries(Object.entries(plain).map(([k, v]) => [field(k), v])),
    ...Object.fromEntries(Object.entries(secrets).map(([k, v]) => [field(k), secret(v)])),
  };
  return rpc(client, "configure", message(provproto.ConfigureRequest, { args, id, acceptsecrets: true }));
}

const podInputs = {
  name: "trainer",
  image: "runpod/base:0.6.2-cpu",
  cpu: { id: "cpu3c", vcpuCount: 2 },
  startJupyter: true,
  env: { PLAIN: "visible", TOKEN: secret("hidden") },
};

describe("the provider plugin's service", { timeout: 60_000 }, () => {
  it("says what it is and what it accepts", async () => {
    const info = await rpc(client, "getPluginInfo", new Empty());
    const configured = await configure();
    expect([info.getVersion(), configured.getAcceptsecrets(), configured.getSupportspreview()]).toEqual([
      PLUGIN_VERSION,
      true,
      false,
    ]);
  });

  it("never replaces itself for a change of settings", async () => {
    const diff = await rpc(
      client,
      "diffConfig",
      message(provproto.DiffRequest, { olds: { baseUrl: "http://a" }, news: { baseUrl: "http://b" } }),
    );
    expect([diff.getChanges(), diff.getReplacesList(), diff.getDiffsList()]).toEqual([
      provproto.DiffResponse.DiffChanges.DIFF_SOME,
      [],
      ["baseUrl"],
    ]);
  });

  it("compares settings as values: the same object in another key order is no change", async () => {
    const diff = await rpc(
      client,
      "diffConfig",
      message(provproto.DiffRequest, {
        olds: { allowInsecureHttp: true, extra: { a: 1, b: 2 } },
        news: { allowInsecureHttp: true, extra: { b: 2, a: 1 } },
      }),
    );
    expect([diff.getChanges(), diff.getDiffsList()]).toEqual([
      provproto.DiffResponse.DiffChanges.DIFF_NONE,
      [],
    ]);
  });

  it("reads its settings as values and names its own keys in what it says of them", async () => {
    const { plain } = pluginConfig(emu);
    /** What a pod's create answers after the provider is configured with `args`. */
    const createAfterConfigure = async (args: Record<string, unknown>) => {
      await rpc(
        client,
        "configure",
        message(provproto.ConfigureRequest, { args, id: PROVIDER_ID, acceptsecrets: true }),
      );
      return rpc(
        client,
        "create",
        message(provproto.CreateRequest, { urn: POD_URN, properties: podInputs }),
      ).then(
        () => "created",
        (err: Error) => err.message,
      );
    };
    // No key, plain http to a host that is not this machine allowed by a boolean, as YAML sets it.
    const noKey = await createAfterConfigure({
      baseUrl: "http://api.example.invalid",
      allowInsecureHttp: true,
    });
    const insecure = await createAfterConfigure({ baseUrl: "http://api.example.invalid" });
    expect([plain["runpod-dynamic:baseUrl"] !== undefined, noKey, insecure]).toEqual([
      true,
      expect.stringContaining(
        "No RunPod API key. Set it with `pulumi config set --secret runpod-dynamic:apiKey <key>` or the RUNPOD_API_KEY environment variable.",
      ),
      expect.stringContaining(
        "runpod-dynamic:baseUrl / RUNPOD_BASE_URL uses plain http to api.example.invalid; the API key would travel unencrypted. Use https, or set runpod-dynamic:allowInsecureHttp / RUNPOD_ALLOW_INSECURE_HTTP=true",
      ),
    ]);
  });

  it("checks with the create key its provider's id gives, the plain env keys, and secrets kept", async () => {
    await configure();
    const checked = await rpc(
      client,
      "check",
      message(provproto.CheckRequest, { urn: POD_URN, olds: {}, news: podInputs }),
    );
    const inputs = checked.getInputs().toJavaScript();
    await configure(UNKNOWN);
    const inPreview = (
      await rpc(client, "check", message(provproto.CheckRequest, { urn: POD_URN, olds: {}, news: podInputs }))
    )
      .getInputs()
      .toJavaScript();
    expect({
      failures: checked.getFailuresList().length,
      key: /^[0-9a-f]{32}$/.test(inputs.__createKey),
      plain: inputs._plainEnvKeys,
      env: isSecret(inputs.env),
      keyInPreview: inPreview.__createKey,
    }).toEqual({ failures: 0, key: true, plain: ["PLAIN"], env: true, keyInPreview: undefined });
  });

  it("checks a preview's unknown inputs without failing on them", async () => {
    await configure();
    const news = { ...podInputs, image: UNKNOWN, cpu: { id: "cpu3c", vcpuCount: UNKNOWN } };
    const checked = await rpc(
      client,
      "check",
      message(provproto.CheckRequest, { urn: POD_URN, olds: {}, news }),
    );
    expect([checked.getFailuresList().length, checked.getInputs().toJavaScript().image]).toEqual([
      0,
      UNKNOWN,
    ]);
  });

  it("creates a pod whose env and JupyterLab password come back secret", async () => {
    await configure();
    const checked = await rpc(
      client,
      "check",
      message(provproto.CheckRequest, { urn: POD_URN, olds: {}, news: podInputs }),
    );
    const created = await rpc(
      client,
      "create",
      message(provproto.CreateRequest, { urn: POD_URN, properties: checked.getInputs().toJavaScript() }),
    );
    const outs = created.getProperties().toJavaScript();
    expect([outs.status, isSecret(outs.env), isSecret(outs.jupyterPassword), outs.env.value.TOKEN]).toEqual([
      "RUNNING",
      true,
      true,
      "hidden",
    ]);
    await rpc(
      client,
      "delete",
      message(provproto.DeleteRequest, { id: created.getId(), urn: POD_URN, properties: outs }),
    );
  });

  it("registers an SSH key marked with the holder its provider's id gives, and takes only that mark off", async () => {
    await configure();
    const urn = "urn:pulumi:dev::plugin::runpod-dynamic:index:SshKey::laptop";
    const news = { publicKey: publicKey("plugin", "me@laptop") };
    const checked = await rpc(client, "check", message(provproto.CheckRequest, { urn, olds: {}, news }));
    const inputs = checked.getInputs().toJavaScript();
    const created = await rpc(
      client,
      "create",
      message(provproto.CreateRequest, { urn, properties: inputs }),
    );
    const line = () => emu.control.snapshot().sshKeys.find((k) => k.includes("me@laptop"));
    expect(line()).toMatch(new RegExp(`me@laptop runpod-dynamic-holders=${inputs.__holder}$`));
    const outs = created.getProperties().toJavaScript();
    await rpc(
      client,
      "delete",
      message(provproto.DeleteRequest, { id: created.getId(), urn, properties: outs }),
    );
    expect(line()).toBeUndefined();
  });

  it("answers a diff property by property, with what forces a replacement", async () => {
    const olds = {
      name: "trainer",
      image: "a",
      cpu: { id: "cpu3c", vcpuCount: 2 },
      status: "RUNNING",
      cloud: "SECURE",
    };
    const diff = await rpc(
      client,
      "diff",
      message(provproto.DiffRequest, {
        id: "p1",
        urn: POD_URN,
        olds,
        news: { name: "renamed", image: "a", cpu: { id: "cpu3c", vcpuCount: 4 } },
      }),
    );
    const Kind = provproto.PropertyDiff.Kind;
    const detailed = Object.fromEntries(
      diff
        .getDetaileddiffMap()
        .getEntryList()
        .map(([k, v]: [string, Any]) => [k, v[0]]),
    );
    expect([diff.getHasdetaileddiff(), diff.getReplacesList(), detailed]).toEqual([
      true,
      ["cpu"],
      { cpu: Kind.UPDATE_REPLACE, name: Kind.UPDATE },
    ]);
  });

  it("reads by id without state (an import) and fails for an id the account does not have", async () => {
    await configure();
    const missing = rpc(client, "read", message(provproto.ReadRequest, { id: "no-such-pod", urn: POD_URN }));
    await expect(missing).rejects.toThrow(/no pod has the id no-such-pod/);
    const refreshed = await rpc(
      client,
      "read",
      message(provproto.ReadRequest, {
        id: "no-such-pod",
        urn: POD_URN,
        properties: { name: "gone", status: "RUNNING" },
      }),
    );
    expect(refreshed.getId()).toBe("");
  });

  it("serves the catalog as invokes", async () => {
    await configure();
    const answer = await rpc(
      client,
      "invoke",
      message(provproto.InvokeRequest, { tok: "runpod-dynamic:index:getGpuTypes", args: {} }),
    );
    const ids = (answer.getReturn().toJavaScript().gpuTypes as { id: string }[]).map((g) => g.id);
    expect(ids).toContain("NVIDIA A40");
  });
});
