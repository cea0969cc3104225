/**
 * Secrets and access.
 *
 * - Everything the provider writes is scanned for the API key and for secret env values: the
 *   serialized provider of every type, state of a whole program run (outputs included) and the
 *   stack outputs, what the program, the provider host and the engine printed, error messages
 *   (also when the service echoes the request), and the CLI's output.
 * - 401, 402 and 403 are never retried, and the error says what to do, at the provider level:
 *   each operation sends exactly one request to the route that refused.
 * - X-Team-Id is sent when runpod:teamId is configured, and only then.
 * - The provider refuses to send the key over plain http to a host that is not loopback, unless
 *   runpod:allowInsecureHttp says so.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PodInputs, PodOutputs } from "../../provider/resources/pod/types.js";
import type { ServerlessEndpointInputs } from "../../provider/resources/serverless-endpoint/types.js";
import type { SshKeyInputs, SshKeyOutputs } from "../../provider/resources/ssh-key/types.js";
import { A40, type Fleet, publicKey } from "../support/chaos/fleet.js";
import { chaosRun, HF_TOKEN, known, TIME_SCALE } from "../support/chaos/run.js";
import { runCli } from "../support/cli.js";
import { apiFor, emulatorLib, type RunningEmulator, thrown } from "../support/emulator.js";
import {
  isSecret,
  message,
  type ProviderHost,
  provproto,
  rpc,
  serializedProvider,
  startProviderHost,
} from "../support/host.js";
import {
  emulatorClock,
  emulatorUrls,
  type HostProviders,
  runtimeLib,
  useRuntime,
} from "../support/provider.js";
import {
  json,
  podBody,
  problem,
  type ScriptedServer,
  startScriptedServer,
} from "../support/scripted-server.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

/** An API key only these tests use: found anywhere, it leaked. */
const KEY = "rpa_SECRETS_SCAN_KEY_7f3e9a1c5b2d4e6f";
/** A secret env value a program declares. */
const ENV_SECRET = "sk_live_ENV_VALUE_0c1d2e3f4a5b";
const TYPES = ["Pod", "ServerlessEndpoint", "ServerlessJob", "SshKey", "NetworkVolume", "Template"];

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulatorLib.startEmulator({ clockScale: TIME_SCALE, randomSeed: 4242 });
  emu.control.addApiKey(KEY);
});
afterAll(async () => {
  await emu?.close();
});

const leaks = (text: string) => [KEY, HF_TOKEN, ENV_SECRET].filter((s) => text.includes(s));

describe("nothing the provider writes holds the API key or a secret env value", { timeout: 120_000 }, () => {
  it("the serialized provider of every type, even with the key in the program's environment", async () => {
    const before = process.env.RUNPOD_API_KEY;
    process.env.RUNPOD_API_KEY = KEY;
    try {
      for (const type of TYPES) {
        const sf = await serializedProvider(type);
        expect([type, sf.containsSecrets, leaks(sf.text)]).toEqual([type, false, []]);
      }
    } finally {
      if (before === undefined) delete process.env.RUNPOD_API_KEY;
      else process.env.RUNPOD_API_KEY = before;
    }
  });

  it("state, stack outputs and everything printed by a program run, failures included", async () => {
    const fleet: Fleet = {
      sshKeys: [{ name: "key-scan", publicKey: publicKey("scan", "scan@test") }],
      pods: [
        {
          name: "s-keep",
          args: { name: "s-keep", image: "img:1", gpu: { id: A40 }, onCreateFailure: "keep" },
          secretEnv: true,
        },
        {
          name: "s-cpu",
          args: { name: "s-cpu", image: "img:1", cpu: { id: "cpu3c", vcpuCount: 2 } },
          secretEnv: true,
        },
      ],
      endpoints: [
        {
          name: "s-ep",
          args: { name: "s-ep", templateId: "runpod-worker-sdxl", gpu: { pools: ["AMPERE_48"] } },
          secretEnv: true,
        },
      ],
    };
    const run = chaosRun(emu, { stack: "secrets", apiKey: KEY });
    // Every pod fails: one is kept (a partial failure, its outputs in state), one terminated.
    emu.control.setSettings({ errorShare: 1 });
    const failed = await run.up("every pod fails", fleet);
    emu.control.setSettings({ errorShare: 0 });
    const up = await run.up("up", fleet);
    const keep = known(run.state).find((r) => r.name === "s-keep");
    expect([
      [...failed.failures.keys()].sort(),
      up.code,
      keep?.outputs.status,
      keep?.secretKeys.includes("env"),
      isSecret(run.state.outputs.tokenEcho),
    ]).toEqual([["s-cpu", "s-keep"], 0, "ERROR", true, true]);
    // The token is in the outputs only under `env`, which the engine stores as a secret.
    for (const r of known(run.state)) {
      const { env: _env, ...rest } = r.outputs;
      expect([r.name, leaks(JSON.stringify(rest))]).toEqual([r.name, []]);
    }
    const state = run.state.toJSON(Buffer.alloc(32, 9));
    const printed = run.log.join("\n");
    const errors = [...failed.failures.values()].join("\n");
    await run.destroy("destroy");
    expect([leaks(state), leaks(printed), leaks(errors), leaks(run.log.join("\n"))]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(state).not.toContain("HF_TOKEN");
  });

  it("error messages, even when the service echoes the request's env values and the key", async () => {
    const echo = `env.HF_TOKEN '${ENV_SECRET}' rejected for key ${KEY}`;
    // Every write is answered with the echo; an endpoint create lists the account's endpoints first.
    const rejected = problem(422, "Unprocessable Entity", echo, [echo]);
    const none = json(200, { endpoints: [] });
    const server = await startScriptedServer(
      () => (req, res, body) => (req.method === "GET" ? none : rejected)(req, res, body),
    );
    try {
      const { providers } = useRuntime({ apiKey: KEY, baseUrl: server.url });
      const pod = await thrown(
        providers.Pod.create({
          name: "echo",
          image: "img:1",
          gpu: { id: A40 },
          env: { HF_TOKEN: ENV_SECRET },
        } as PodInputs),
      );
      const endpoint = await thrown(
        providers.ServerlessEndpoint.create({
          name: "echo",
          templateId: "runpod-worker-sdxl",
          gpu: { pools: ["AMPERE_48"] },
          env: { HF_TOKEN: ENV_SECRET },
        } as ServerlessEndpointInputs),
      );
      for (const err of [pod, endpoint]) {
        const all = `${err.message} ${JSON.stringify(err)} ${String(err.stack)}`;
        expect([leaks(all), err.message]).toEqual([
          [],
          expect.stringMatching(/^(Pod|ServerlessEndpoint) echo: .*\[redacted\]/),
        ]);
      }
    } finally {
      await server.close();
    }
  });

  it("check failures quote no env value", async () => {
    const res = await runtimeLib.providers.Pod.check(
      {} as PodInputs,
      {
        name: "",
        image: "img:1",
        gpu: { id: A40, count: 0 },
        // A number would be taken as its string (a YAML scalar); an object is no string at all.
        env: { HF_TOKEN: ENV_SECRET, BAD: { nested: 42 } as unknown as string },
      } as PodInputs,
    );
    expect([res.failures?.length, leaks(JSON.stringify(res.failures))]).toEqual([3, []]);
  });

  it("the CLI's output, for results and for failures", async () => {
    const env = { ...emu.env(), RUNPOD_API_KEY: KEY };
    const results = await Promise.all([
      runCli(["billing", "pods", "--json"], env),
      runCli(["hub", "list"], env),
      runCli(["serverless", "create", "--hub-id", "hub-sdxl", "--name", "scan"], env),
      runCli(
        [
          "jobs",
          "run",
          "--endpoint-id",
          "black-forest-labs-flux-1-schnell",
          "--input",
          '{"prompt":"x"}',
          "--sync",
        ],
        env,
      ),
    ]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    // A key the service refuses is not printed either.
    const refused = await runCli(["billing", "pods"], { ...env, RUNPOD_API_KEY: `${KEY}_WRONG` });
    // A service that echoes the key in its answer.
    const server = await startScriptedServer([problem(400, "Bad Request", `upstream saw ${KEY}`)]);
    try {
      const urls = {
        RUNPOD_BASE_URL: server.url,
        RUNPOD_REST_URL: server.url,
        RUNPOD_SERVERLESS_URL: server.url,
      };
      const echoed = await runCli(["billing", "pods", "--json"], { ...env, ...urls });
      const table = await runCli(["hub", "list"], { ...env, ...urls });
      expect([refused.code, echoed.code, table.code]).toEqual([1, 1, 1]);
      expect(refused.stderr).toMatch(/401/);
      for (const r of [...results, refused, echoed, table]) {
        expect(leaks(`${r.stdout}${r.stderr}`)).toEqual([]);
        expect(`${r.stdout}${r.stderr}`).not.toContain(`${KEY}_WRONG`);
      }
      expect(echoed.stderr).toContain("[redacted]");
    } finally {
      await server.close();
    }
  });
});

// ---------------------------------------------------------------- 401, 402, 403

/** The providers of the host context `useEmulatorWith` made last. */
let providers: HostProviders;

/** A host context of its own against the emulator, with this key: `providers` are its providers. */
const useEmulatorWith = (apiKey: string) => {
  ({ providers } = useRuntime({ apiKey, ...emulatorUrls(emu), clock: emulatorClock(emu) }));
};

interface Operation {
  readonly route: string;
  readonly what: RegExp;
  run(): Promise<unknown>;
}

/** One operation per resource and verb; each names the route its first write (or read) goes to. */
async function operations(): Promise<Record<string, Operation>> {
  const api = apiFor(emu, KEY);
  const pod = await api.pods.create({ name: "target", image: "img:1", gpu: { id: A40 } });
  const outs = { name: "target", image: "img:1", env: {}, status: "RUNNING" } as unknown as PodOutputs;
  // One key to add, one already registered to remove; both named by their comment.
  const added = publicKey("access-new", "access@test");
  const registered = publicKey("access", "access@test");
  await api.sshKeys.put([registered]);
  return {
    "Pod create": {
      route: "POST /v2/pods",
      what: /^Pod trainer: /,
      run: () => providers.Pod.create({ name: "trainer", image: "img:1", gpu: { id: A40 } } as PodInputs),
    },
    "Pod update": {
      route: "PATCH /v2/pods/:id",
      what: /^Pod target: /,
      run: () => providers.Pod.update(pod.id, outs, { name: "target", image: "img:2", gpu: { id: A40 } }),
    },
    "Pod delete": {
      route: "DELETE /v2/pods/:id",
      what: /^Pod target: /,
      run: () => providers.Pod.delete(pod.id, outs),
    },
    "ServerlessEndpoint create": {
      route: "POST /v2/serverless",
      what: /^ServerlessEndpoint sdxl: /,
      run: () =>
        providers.ServerlessEndpoint.create({
          name: "sdxl",
          templateId: "runpod-worker-sdxl",
          gpu: { pools: ["AMPERE_48"] },
        } as ServerlessEndpointInputs),
    },
    "SshKey create": {
      route: "PUT /v2/account/ssh-keys",
      what: /^SshKey access@test: /,
      run: () => providers.SshKey.create({ publicKey: added } as SshKeyInputs),
    },
    "SshKey delete": {
      route: "PUT /v2/account/ssh-keys",
      what: /^SshKey access@test: /,
      run: () => providers.SshKey.delete("SHA256:x", { publicKey: registered } as unknown as SshKeyOutputs),
    },
  };
}

const ADVICE = {
  401: /Check the API key \(`pulumi config set --secret runpod:apiKey \.\.\.` or RUNPOD_API_KEY\)/,
  402: /[Aa]dd funds/,
  403: /(no access|has no access).*runpod:teamId/,
} as const;

describe("401, 402 and 403: one request, never retried, and the error says what to do", {
  timeout: 60_000,
}, () => {
  afterEach(() => {
    emu.control.clearFaults();
    emu.control.setSettings({ balanceExhausted: false });
  });

  it.each([
    "Pod create",
    "Pod update",
    "Pod delete",
    "ServerlessEndpoint create",
    "SshKey create",
    "SshKey delete",
  ])("%s", async (name) => {
    const ops = await operations();
    const op = ops[name];
    if (!op) throw new Error(name);
    const [method, path] = op.route.split(" ");
    const pathRegex = `^${(path ?? "").replace(":id", "[^/]+")}$`;
    const seen: Record<string, [number, number, boolean, boolean]> = {};
    for (const status of [401, 402, 403] as const) {
      if (status === 401) useEmulatorWith(`${KEY}_REVOKED`);
      else {
        useEmulatorWith(KEY);
        // Reads before the write succeed; the write is refused.
        emu.control.addFault({ method: method ?? "", path: pathRegex, status });
      }
      emu.control.clearRequests();
      const err = await thrown(op.run());
      const entries = emu.control.requests().entries;
      const refused = entries.filter((e) => e.status === status);
      seen[status] = [
        refused.length,
        entries.filter((e) => e.route === refused[0]?.route).length,
        op.what.test(err.message),
        ADVICE[status].test(err.message),
      ];
      emu.control.clearFaults();
    }
    expect(seen).toEqual({ 401: [1, 1, true, true], 402: [1, 1, true, true], 403: [1, 1, true, true] });
  });

  it("a 402 from the balance itself stops placement at once, with every candidate left untried", async () => {
    useEmulatorWith(KEY);
    emu.control.setSettings({ balanceExhausted: true });
    emu.control.clearRequests();
    const candidates = [{ dataCenterId: "US-KS-2" }, { dataCenterId: "EU-RO-1" }];
    const err = await thrown(
      providers.Pod.create({
        name: "broke",
        image: "img:1",
        gpu: { id: A40 },
        placement: { candidates },
      } as PodInputs),
    );
    expect([emu.control.requests().summary.byRoute["POST /v2/pods"], err.message]).toEqual([
      1,
      expect.stringMatching(
        /^Pod broke: The account balance is exhausted \(402\); .* Add funds and run again\./,
      ),
    ]);
  });
});

describe("a removed SSH key", { timeout: 30_000 }, () => {
  it("never comes back from a write that went unanswered and landed late", async () => {
    const api = apiFor(emu, KEY);
    const old = publicKey("rotated-out", "old@laptop");
    const added = publicKey("rotated-in", "new@laptop");
    await api.sshKeys.put([old]);
    const deadlineMs = 300;
    const { providers } = useRuntime({
      apiKey: KEY,
      ...emulatorUrls(emu),
      clock: emulatorClock(emu),
      clientOptions: { deadlineMs, retry: { minTimeoutMs: 1, maxTimeoutMs: 2, randomize: false } },
    });
    // The first write of the rotation is held past the deadline; it lands while the rotation goes on.
    const rule = emu.control.addFault({
      method: "PUT",
      path: "^/v2/account/ssh-keys$",
      latencyMs: deadlineMs * 1.5,
      times: 1,
    });
    await providers.SshKey.create({ publicKey: added } as SshKeyInputs);
    await providers.SshKey.delete("SHA256:x", { publicKey: old } as unknown as SshKeyOutputs);
    await vi.waitFor(() => expect(emu.control.requests().entries.some((e) => e.fault === rule)).toBe(true));
    expect(await api.sshKeys.get()).toEqual([added]);
    await api.sshKeys.put([]);
  });
});

// ---------------------------------------------------------------- X-Team-Id and TLS

const POD_BODY = podBody("pod-1");

describe("what the provider host sends, and where", { timeout: 60_000 }, () => {
  const TYPE = "pulumi-nodejs:dynamic/runpod:Pod";
  const urn = `urn:pulumi:dev::rp::${TYPE}::trainer`;
  let text: string;
  const hosts: ProviderHost[] = [];
  const printed: string[] = [];
  let server: ScriptedServer | undefined;
  beforeAll(async () => {
    text = (await serializedProvider("Pod")).text;
  });
  afterEach(async () => {
    for (const h of hosts.splice(0)) {
      printed.push(h.output());
      h.close();
    }
    await server?.close();
    server = undefined;
  });
  const host = async (config: Record<string, string>) => {
    const h = await startProviderHost({
      config: { "runpod:apiKey": KEY, ...config },
      env: { RUNPOD_API_KEY: "" },
    });
    hosts.push(h);
    return h;
  };
  const read = (h: ProviderHost) =>
    rpc<Any>(
      h.client,
      "read",
      message(provproto.ReadRequest, {
        id: "pod-1",
        urn,
        type: TYPE,
        properties: { name: "trainer", status: "RUNNING", __provider: text },
      }),
    );
  const urls = (url: string) => ({
    "runpod:baseUrl": url,
    "runpod:restUrl": url,
    "runpod:serverlessUrl": url,
  });

  it("X-Team-Id goes with every request when runpod:teamId is set, and only then", async () => {
    server = await startScriptedServer([json(200, POD_BODY)]);
    await read(await host(urls(server.url)));
    await read(await host({ ...urls(server.url), "runpod:teamId": "team-42" }));
    const headers = server.requests.map((r) => [r.headers["x-team-id"], r.headers.authorization]);
    expect(headers).toEqual([
      [undefined, `Bearer ${KEY}`],
      ["team-42", `Bearer ${KEY}`],
    ]);
  });

  it("refuses to send the key over plain http to a host that is not loopback, unless told to", async () => {
    // A real interface of this machine when there is one; otherwise 127.0.0.2, which the provider
    // does not count as loopback either (only 127.0.0.1, localhost and ::1 are).
    const address =
      Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === "IPv4" && !i.internal)?.address ?? "127.0.0.2";
    const seen: IncomingHttpHeaders[] = [];
    const plain = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(POD_BODY));
    });
    await new Promise<void>((resolve) => plain.listen(0, address, resolve));
    try {
      const url = `http://${address}:${(plain.address() as AddressInfo).port}`;
      const refused = await read(await host(urls(url))).then(
        () => "sent",
        (e: Any) => String(e.details),
      );
      expect([refused, seen.length]).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Pod trainer: runpod:baseUrl / RUNPOD_BASE_URL uses plain http to ${address.replace(/\./g, "\\.")}; the API key would travel unencrypted\\.`,
          ),
        ),
        0,
      ]);
      const allowed = await read(await host({ ...urls(url), "runpod:allowInsecureHttp": "true" }));
      expect([allowed.getId(), seen.map((h) => h.authorization)]).toEqual(["pod-1", [`Bearer ${KEY}`]]);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });

  it("what these provider hosts printed holds no key", () => {
    expect([printed.length, leaks(printed.join("\n"))]).toEqual([4, []]);
  });
});
