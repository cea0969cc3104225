/**
 * Where the provider host's warnings go (provider/host/engine-log.ts): to an engine listening on
 * the address the host was started with, as a stack warning, and to the fallback when there is no
 * address, no engine there, or the engine fails the call. The engine here is a real gRPC server
 * serving Pulumi's Engine service on port 0.
 */
import { afterEach, describe, expect, it } from "vitest";
import { grpc, nodeRequire } from "../../harness/grpc.js";
import { loadDist } from "../support/dist.js";

const { engineWarnings, warningsTo } = loadDist<typeof import("../../provider/host/engine-log.js")>(
  "provider/host/engine-log.js",
);
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
const enginerpc = nodeRequire("@pulumi/pulumi/proto/engine_grpc_pb") as any;
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
const engineproto = nodeRequire("@pulumi/pulumi/proto/engine_pb") as any;
// biome-ignore lint/suspicious/noExplicitAny: generated protobuf stubs are untyped JavaScript
const { Empty } = nodeRequire("google-protobuf/google/protobuf/empty_pb") as any;

interface Logged {
  severity: number;
  urn: string;
  message: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a grpc-js server
let server: any;
afterEach(() => server?.forceShutdown());

/** An Engine service on port 0 whose `Log` answers `status` (0: OK); its address and what it got. */
async function engine(status = 0): Promise<{ address: string; logged: Logged[] }> {
  const logged: Logged[] = [];
  server = new grpc.Server();
  server.addService(enginerpc.EngineService, {
    // biome-ignore lint/suspicious/noExplicitAny: grpc-js call and callback
    log: (call: any, cb: any) => {
      const r = call.request;
      logged.push({ severity: r.getSeverity(), urn: r.getUrn(), message: r.getMessage() });
      cb(status === 0 ? null : { code: status, details: "refused" }, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e: Error | null, p: number) =>
      e ? reject(e) : resolve(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, logged };
}

/** A fallback that records its lines, and a promise of the first. */
function fallback() {
  const lines: string[] = [];
  let heard: (line: string) => void = () => undefined;
  const first = new Promise<string>((resolve) => {
    heard = resolve;
  });
  return {
    lines,
    first,
    sink: warningsTo((line) => {
      lines.push(line);
      heard(line);
    }),
  };
}

describe("the host's warnings", () => {
  it("reach the engine as one stack warning, and not the fallback", async () => {
    const { address, logged } = await engine();
    const fb = fallback();
    engineWarnings(address, fb.sink)("the engine is pacing these pods");
    await expect.poll(() => logged.length).toBe(1);
    expect(logged).toEqual([
      { severity: engineproto.LogSeverity.WARNING, urn: "", message: "the engine is pacing these pods" },
    ]);
    expect(fb.lines).toEqual([]);
  });

  it.each([
    ["no address", undefined],
    ["an argument that is not an address", "run"],
  ])("with %s, go to the fallback as a warning line", (_, address) => {
    const fb = fallback();
    engineWarnings(address, fb.sink)("slow");
    expect(fb.lines).toEqual(["warning: slow"]);
  });

  it("go to the fallback when nothing listens at the address", async () => {
    const { address } = await engine();
    server.forceShutdown();
    const fb = fallback();
    engineWarnings(address, fb.sink)("slow");
    expect(await fb.first).toBe("warning: slow");
  });

  it("go to the fallback when the engine fails the call", async () => {
    const { address, logged } = await engine(grpc.status.UNAVAILABLE);
    const fb = fallback();
    engineWarnings(address, fb.sink)("slow");
    expect(await fb.first).toBe("warning: slow");
    expect(logged).toHaveLength(1);
  });
});
