/**
 * Talking to Pulumi's own plugins over gRPC, as the engine does: unary calls, request messages,
 * and the real dynamic-provider host (`cmd/dynamic-provider`). Shared by the stand-in engine
 * (engine.ts) and the benchmarks (bench/). grpc-js, google-protobuf and the generated stubs are
 * loaded with Node's own require so they are the instances the stubs check.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createRequire } from "node:module";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;

export const nodeRequire = createRequire(__filename);
export const grpc = nodeRequire("@grpc/grpc-js") as Any;
export const { Struct } = nodeRequire("google-protobuf/google/protobuf/struct_pb") as Any;
export const provproto = nodeRequire("@pulumi/pulumi/proto/provider_pb") as Any;
const provrpc = nodeRequire("@pulumi/pulumi/proto/provider_grpc_pb") as Any;

/** One unary call: `client[method](request)`, as a promise. */
export function rpc<T = Any>(client: Any, method: string, request: Any): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res)));
  });
}

/** A request message from plain fields: objects become Structs, undefined fields stay unset. */
export function message(Cls: Any, fields: Record<string, unknown>): Any {
  const m = new Cls();
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    m[`set${k.charAt(0).toUpperCase()}${k.slice(1)}`](
      v !== null && typeof v === "object" && !Array.isArray(v) ? Struct.fromJavaScript(v) : v,
    );
  }
  return m;
}

export interface ProviderHost {
  readonly client: Any;
  readonly proc: ChildProcessWithoutNullStreams;
  /** Everything the host wrote to stdout after its port line, and to stderr. */
  output(): string;
  close(): void;
}

export interface ProviderHostOptions {
  /** What Configure is sent with: the stack config, namespaced (`runpod:apiKey`). */
  readonly config: Readonly<Record<string, string>>;
  /** The host's working directory: where it resolves the program's packages from. */
  readonly cwd: string;
  /** Environment on top of this process's. */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with each piece of output (stdout after the port line, and stderr) as it arrives. */
  readonly onOutput?: (text: string) => void;
}

/**
 * Starts `cmd/dynamic-provider` and sends Configure first, as the engine does. A host that exits
 * before printing its port rejects with everything it wrote, so a crash shows why.
 */
export async function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  const proc = spawn(
    process.execPath,
    [nodeRequire.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:1"],
    { cwd: options.cwd, env: { ...process.env, ...options.env } },
  );
  let output = "";
  const heard = (text: string) => {
    output += text;
    if (text.trim() !== "") options.onOutput?.(text);
  };
  proc.stderr.on("data", (d: Buffer) => heard(d.toString()));
  const port = await new Promise<string>((resolve, reject) => {
    let first = "";
    let ready = false;
    proc.stdout.on("data", (d: Buffer) => {
      if (ready) {
        heard(d.toString());
        return;
      }
      first += d.toString();
      const nl = first.indexOf("\n");
      if (nl < 0) return;
      ready = true;
      resolve(first.slice(0, nl).trim());
      heard(first.slice(nl + 1));
    });
    proc.on("exit", (code) => reject(new Error(`provider host exited with ${code}: ${output}${first}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  // The engine configures the dynamic provider with the whole stack config, secrets unwrapped.
  await rpc(client, "configure", message(provproto.ConfigureRequest, { args: { ...options.config } }));
  return {
    client,
    proc,
    output: () => output,
    close: () => {
      client.close();
      proc.kill();
    },
  };
}
