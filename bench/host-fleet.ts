/**
 * Scenario 2: the same fleet through the real dynamic-provider host over gRPC, with concurrent
 * Create calls as the engine sends them, to show that one watcher and one budget serve every
 * resource of a host process.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { startEmulator } from "../emulator/index.js";
import { thinProvider } from "../provider/thin.js";
import { type FleetOptions, type FleetResult, fleetResult } from "./fleet.js";

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
type Any = any;
const nodeRequire = createRequire(__filename);
const grpc = nodeRequire("@grpc/grpc-js") as Any;
const { Struct } = nodeRequire("google-protobuf/google/protobuf/struct_pb") as Any;
const provproto = nodeRequire("@pulumi/pulumi/proto/provider_pb") as Any;
const provrpc = nodeRequire("@pulumi/pulumi/proto/provider_grpc_pb") as Any;
const pulumi = nodeRequire("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

export const REPO_ROOT = `${__dirname}/../..`;

export function rpc<T = Any>(client: Any, method: string, request: Any): Promise<T> {
  return new Promise((resolve, reject) =>
    client[method](request, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))),
  );
}

export function message(Cls: Any, fields: Record<string, unknown>): Any {
  const m = new Cls();
  for (const [k, v] of Object.entries(fields)) {
    m[`set${k.charAt(0).toUpperCase()}${k.slice(1)}`](
      v !== null && typeof v === "object" && !Array.isArray(v) ? Struct.fromJavaScript(v) : v,
    );
  }
  return m;
}

/** Starts `cmd/dynamic-provider` in the repository, configured for `config`. */
export async function startHost(config: Record<string, string>, env: Record<string, string> = {}) {
  const proc = spawn(
    process.execPath,
    [nodeRequire.resolve("@pulumi/pulumi/cmd/dynamic-provider"), "127.0.0.1:1"],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, PULUMI_NODEJS_PROJECT: "bench", RUNPOD_DYNAMIC_QUIET: "1", ...env },
    },
  );
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl).trim());
    });
    proc.on("exit", (code) => reject(new Error(`host exited with ${code}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  await rpc(client, "configure", message(provproto.ConfigureRequest, { args: config }));
  return {
    client,
    proc,
    close: () => {
      client.close();
      proc.kill();
    },
  };
}

export async function providerText(type: string): Promise<string> {
  const provider = thinProvider(type);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

export async function runHostFleet(o: FleetOptions): Promise<FleetResult> {
  const emu = await startEmulator({
    clockScale: o.scale,
    randomSeed: 7,
    settings: { provisioningMs: (o.tSeconds * 1000) / 3, startingMs: (o.tSeconds * 2000) / 3 },
  });
  emu.control.setCapacity({ dataCenterId: "US-KS-2", gpuTypeId: "NVIDIA A40", free: 10_000, total: 10_000 });
  const host = await startHost(emu.pulumiConfig(), { RUNPOD_DYNAMIC_TIME_SCALE: String(o.scale) });
  try {
    const text = await providerText("Pod");
    const type = "pulumi-nodejs:dynamic/runpod:Pod";
    const start = emu.control.now();
    const results = await Promise.allSettled(
      Array.from({ length: o.n }, async (_, i) => {
        const name = `fleet-${i}`;
        const properties = {
          name,
          image: "img:1",
          gpu: { id: "NVIDIA A40" },
          dataCenterIds: ["US-KS-2"],
          __provider: text,
        };
        await rpc(
          host.client,
          "create",
          message(provproto.CreateRequest, {
            urn: `urn:pulumi:bench::bench::${type}::${name}`,
            type,
            properties,
          }),
        );
        return { name, at: emu.control.now() };
      }),
    );
    const done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    return fleetResult("ours", o, emu, start, done, results.length - done.length);
  } finally {
    host.close();
    await emu.close();
  }
}
