/**
 * Warnings into the engine's diagnostics. Progress goes to the host's stderr (progress.ts), which
 * the engine shows as info lines on a resource's row; a warning that asks the user to change how
 * they run `pulumi` belongs under Diagnostics, where it is kept after the run. Pulumi's
 * dynamic-provider host is started with the engine's address as its first argument but never
 * connects `pulumi.log` to it, so the host opens its own connection, with the engine's own gRPC
 * client from the `@pulumi/pulumi` installed beside this package.
 */
import { createRequire } from "node:module";
import type { ProgressSink } from "./progress.js";

/** Says `message` once to the user, as a warning. */
export type WarningSink = (message: string) => void;

/** How long a warning may take to reach the engine before it goes to stderr instead. */
const LOG_DEADLINE_MS = 5000;

interface EngineClient {
  log(request: unknown, options: { deadline: number }, callback: (err: Error | null) => void): void;
}

/**
 * A sink that logs to the engine at `address` (the host's first argument) as a stack warning, or
 * to `fallback` when there is no engine to reach (a host started by a test) or it does not answer.
 */
export function engineWarnings(address: string | undefined, fallback: ProgressSink): WarningSink {
  let client: EngineClient | undefined;
  let proto: { LogRequest: new () => LogRequest; LogSeverity: { WARNING: number } } | undefined;
  return (message) => {
    if (!address || !/:\d+$/.test(address)) {
      fallback(`warning: ${message}`);
      return;
    }
    try {
      const fromPulumi = createRequire(require.resolve("@pulumi/pulumi"));
      proto ??= fromPulumi("./proto/engine_pb.js");
      if (!client) {
        const grpc = fromPulumi("@grpc/grpc-js");
        const { EngineClient } = fromPulumi("./proto/engine_grpc_pb.js");
        client = new EngineClient(address, grpc.credentials.createInsecure()) as EngineClient;
      }
      const request = new (proto as NonNullable<typeof proto>).LogRequest();
      request.setSeverity((proto as NonNullable<typeof proto>).LogSeverity.WARNING);
      request.setMessage(message);
      // No resource: the engine shows it under the stack, once, whichever resource's create saw it.
      request.setUrn("");
      client.log(request, { deadline: Date.now() + LOG_DEADLINE_MS }, (err) => {
        if (err) fallback(`warning: ${message}`);
      });
    } catch {
      fallback(`warning: ${message}`);
    }
  };
}

interface LogRequest {
  setSeverity(severity: number): void;
  setMessage(message: string): void;
  setUrn(urn: string): void;
}
