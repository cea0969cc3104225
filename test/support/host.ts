/**
 * Drives the real `@pulumi/pulumi` dynamic-provider host over gRPC, the way the engine does
 * (the ResourceProvider gRPC service: configure, check, diff, create, ...). grpc-js, google-protobuf and the
 * generated stubs are loaded with Node's own require so they are the instances the stubs check.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { nodeRequire, REPO_ROOT } from "./dist.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

export const grpc = nodeRequire("@grpc/grpc-js") as Any;
export const { Struct } = nodeRequire("google-protobuf/google/protobuf/struct_pb") as Any;
export const provproto = nodeRequire("@pulumi/pulumi/proto/provider_pb") as Any;
const provrpc = nodeRequire("@pulumi/pulumi/proto/provider_grpc_pb") as Any;
const pulumi = nodeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";
export const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

export function rpc<T = Any>(client: Any, method: string, request: Any): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res)));
  });
}

/** Builds a request message; plain objects become Structs. */
export function message(Cls: Any, fields: Record<string, unknown>): Any {
  const m = new Cls();
  for (const [k, v] of Object.entries(fields)) {
    const setter = `set${k.charAt(0).toUpperCase()}${k.slice(1)}`;
    m[setter](v !== null && typeof v === "object" && !Array.isArray(v) ? Struct.fromJavaScript(v) : v);
  }
  return m;
}

/** Spawns a plugin script; resolves with the port it prints on its first stdout line. */
export function startPlugin(
  script: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
) {
  const proc: ChildProcessWithoutNullStreams = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const port = new Promise<string>((resolve, reject) => {
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const nl = stdout.indexOf("\n");
      if (nl >= 0) resolve(stdout.slice(0, nl).trim());
    });
    proc.on("exit", (code) => reject(new Error(`plugin exited with ${code}: ${stderr}`)));
  });
  return { proc, port, stdout: () => stdout, stderr: () => stderr };
}

export interface ProviderHost {
  readonly client: Any;
  readonly proc: ChildProcessWithoutNullStreams;
  /** Everything the host wrote to stdout after its port line, and to stderr: what reaches the user. */
  output(): string;
  close(): void;
}

/** Starts `cmd/dynamic-provider` and sends Configure first, as the engine does. */
export async function startProviderHost(options: {
  config: Record<string, string>;
  cwd?: string;
  project?: string;
  env?: Record<string, string>;
}): Promise<ProviderHost> {
  const p = startPlugin(nodeRequire.resolve("@pulumi/pulumi/cmd/dynamic-provider"), ["127.0.0.1:1"], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { PULUMI_NODEJS_PROJECT: options.project ?? "rp", ...options.env },
  });
  const client = new provrpc.ResourceProviderClient(
    `127.0.0.1:${await p.port}`,
    grpc.credentials.createInsecure(),
  );
  await rpc(client, "configure", message(provproto.ConfigureRequest, { args: options.config }));
  return {
    client,
    proc: p.proc,
    output: () => `${p.stdout().split("\n").slice(1).join("\n")}${p.stderr()}`,
    close: () => {
      client.close();
      p.proc.kill();
    },
  };
}

/**
 * One resource's RPCs, as the engine sends them: inputs and state carry the `__provider` text of
 * its type from `texts`. `host` and `texts` are read at each call, so both may be filled in later
 * (in a beforeAll).
 */
export function hostResources(host: () => ProviderHost, texts: Readonly<Record<string, string>>) {
  return (type: string, name: string) => {
    const token = `pulumi-nodejs:dynamic/runpod:${type}`;
    const base = { urn: `urn:pulumi:dev::rp::${token}::${name}`, type: token };
    const withProvider = (o: object) => ({ ...o, __provider: texts[type] });
    const call = (method: string, request: Any) => rpc<Any>(host().client, method, request);
    return {
      check: async (news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
        call(
          "check",
          message(provproto.CheckRequest, {
            ...base,
            olds: Object.keys(olds).length > 0 ? withProvider(olds) : {},
            news: withProvider(news),
          }),
        ),
      create: async (properties: Record<string, unknown>) =>
        call("create", message(provproto.CreateRequest, { ...base, properties })),
      diff: async (id: string, olds: object, news: object) =>
        call(
          "diff",
          message(provproto.DiffRequest, { ...base, id, olds: withProvider(olds), news: withProvider(news) }),
        ),
      update: async (id: string, olds: object, news: object) =>
        call(
          "update",
          message(provproto.UpdateRequest, {
            ...base,
            id,
            olds: withProvider(olds),
            news: withProvider(news),
          }),
        ),
      read: async (id: string, properties: object) =>
        call("read", message(provproto.ReadRequest, { ...base, id, properties: withProvider(properties) })),
      delete: async (id: string, properties: object) =>
        call(
          "delete",
          message(provproto.DeleteRequest, { ...base, id, properties: withProvider(properties) }),
        ),
    };
  };
}

/** The `__provider` text a program would store for a resource of this class. */
export async function serializedProvider(type: string): Promise<{ text: string; containsSecrets: boolean }> {
  const { thinProvider } = nodeRequire(
    `${REPO_ROOT}/dist/provider/dynamic/thin.js`,
  ) as typeof import("../../provider/dynamic/thin.js");
  const provider = thinProvider(type);
  const sf = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
  return { text: sf.text, containsSecrets: sf.containsSecrets };
}

export const isSecret = (v: unknown): boolean =>
  v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
