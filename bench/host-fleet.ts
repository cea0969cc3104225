/**
 * Scenario 2: the same fleet through the real dynamic-provider host over gRPC, with concurrent
 * Create calls as the engine sends them, to show that one watcher and one budget serve every
 * resource of a host process; and the fleet split over K hosts with one API key, as K deployments
 * of one team run at once, each host budgeting on its own from the `RateLimit` headers they share.
 */
import { createRequire } from "node:module";
import { message, type ProviderHost, provproto, rpc, startProviderHost } from "../harness/grpc.js";
import { thinProvider } from "../provider/dynamic/thin.js";
import {
  FLEET_DC,
  FLEET_GPU,
  FLEET_READINESS,
  type FleetOptions,
  type FleetResult,
  fleetResult,
  freshEmulator,
} from "./fleet.js";

const pulumi = createRequire(__filename)("@pulumi/pulumi") as typeof import("@pulumi/pulumi");

const REPO_ROOT = `${__dirname}/../..`;

/**
 * Starts `cmd/dynamic-provider` in the repository, configured for `config`, quiet. Its stdout and
 * stderr are kept: a host that dies before it is ready fails with them, and one that crashes later
 * prints them, so a failed run shows why.
 */
export async function startHost(
  config: Record<string, string>,
  env: Record<string, string> = {},
): Promise<ProviderHost> {
  const host = await startProviderHost({
    config,
    cwd: REPO_ROOT,
    env: { PULUMI_NODEJS_PROJECT: "bench", RUNPOD_DYNAMIC_QUIET: "1", ...env },
  });
  host.proc.on("exit", (code, signal) => {
    // close() ends it with a signal; anything else is a crash.
    if (signal === null) process.stderr.write(`provider host exited with ${code}:\n${host.output()}\n`);
  });
  return host;
}

export async function providerText(type: string): Promise<string> {
  const provider = thinProvider(type);
  return (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
}

/** `o.n` pods created through `hosts` provider hosts (one API key), each taking its share at once. */
export async function runHostFleet(o: FleetOptions, hosts = 1): Promise<FleetResult> {
  const emu = await freshEmulator(o);
  const started = await Promise.all(
    Array.from({ length: hosts }, () =>
      startHost(emu.pulumiConfig(), { RUNPOD_DYNAMIC_TIME_SCALE: String(o.scale) }),
    ),
  );
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
          gpu: { id: FLEET_GPU },
          dataCenterIds: [FLEET_DC],
          readiness: FLEET_READINESS,
          __provider: text,
        };
        const host = started[i % hosts] as ProviderHost;
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
    for (const host of started) host.close();
    await emu.close();
  }
}
